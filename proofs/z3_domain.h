// The symbolic value domain: the same interface as idlespec::Concrete
// (impl/domain.h), with every word a Z3 bit-vector expression. Instantiating
// impl/'s templates with Z3Domain yields the SMT model of the code that runs.
//
// All operators are the unsigned bit-vector ones (z3::expr's own `<` and `/`
// are signed, so they are never used directly).
#pragma once

#include <z3++.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace idlespec::proofs {

// The context every literal is made in, and the side conditions that define
// the fresh quotients udiv() introduces; set for the duration of a proof by
// Z3Scope. A proof must assert side_conditions() with its query.
z3::context& current_context();

class Z3Scope {
 public:
  explicit Z3Scope(z3::context& ctx);
  ~Z3Scope();
  Z3Scope(const Z3Scope&) = delete;
  Z3Scope& operator=(const Z3Scope&) = delete;

  // The conjunction of every side condition recorded so far.
  z3::expr side_conditions() const;
  void add_side_condition(const z3::expr& e) { side_.push_back(e); }
  unsigned next_id() { return counter_++; }

 private:
  z3::context* previous_;
  Z3Scope* previous_scope_;
  std::vector<z3::expr> side_;
  unsigned counter_ = 0;
};

Z3Scope& current_scope();

struct SymBool {
  z3::expr e;
  SymBool() : e(current_context().bool_val(false)) {}
  explicit SymBool(z3::expr x) : e(std::move(x)) {}
  friend SymBool operator&&(const SymBool& a, const SymBool& b) { return SymBool(a.e && b.e); }
  friend SymBool operator||(const SymBool& a, const SymBool& b) { return SymBool(a.e || b.e); }
  friend SymBool operator!(const SymBool& a) { return SymBool(!a.e); }
  friend SymBool operator==(const SymBool& a, const SymBool& b) { return SymBool(a.e == b.e); }
};

template <unsigned W>
struct Sym {
  z3::expr e;
  Sym() : e(current_context().bv_val(0, W)) {}
  explicit Sym(z3::expr x) : e(std::move(x)) {}

  friend Sym operator+(const Sym& a, const Sym& b) { return Sym(a.e + b.e); }
  friend Sym operator-(const Sym& a, const Sym& b) { return Sym(a.e - b.e); }
  friend Sym operator*(const Sym& a, const Sym& b) { return Sym(a.e * b.e); }
  friend Sym operator&(const Sym& a, const Sym& b) { return Sym(a.e & b.e); }
  friend Sym operator|(const Sym& a, const Sym& b) { return Sym(a.e | b.e); }
  friend Sym operator<<(const Sym& a, unsigned s) {
    return Sym(z3::shl(a.e, a.e.ctx().bv_val(s, W)));
  }
  friend Sym operator>>(const Sym& a, unsigned s) {
    return Sym(z3::lshr(a.e, a.e.ctx().bv_val(s, W)));
  }
  friend SymBool operator==(const Sym& a, const Sym& b) { return SymBool(a.e == b.e); }
  friend SymBool operator!=(const Sym& a, const Sym& b) { return SymBool(a.e != b.e); }
  friend SymBool operator<(const Sym& a, const Sym& b) { return SymBool(z3::ult(a.e, b.e)); }
  friend SymBool operator<=(const Sym& a, const Sym& b) { return SymBool(z3::ule(a.e, b.e)); }
  friend SymBool operator>(const Sym& a, const Sym& b) { return SymBool(z3::ugt(a.e, b.e)); }
  friend SymBool operator>=(const Sym& a, const Sym& b) { return SymBool(z3::uge(a.e, b.e)); }
};

struct Z3Domain {
  template <unsigned W>
  using U = Sym<W>;
  using Bool = SymBool;

  template <unsigned W>
  static U<W> lit(uint64_t v) {
    return U<W>(current_context().bv_val(v, W));
  }
  static Bool truth(bool b) { return Bool(current_context().bool_val(b)); }

  template <unsigned W>
  static U<W> ite(const Bool& c, const U<W>& a, const U<W>& b) {
    return U<W>(z3::ite(c.e, a.e, b.e));
  }
  static Bool ite(const Bool& c, const Bool& a, const Bool& b) {
    return Bool(z3::ite(c.e, a.e, b.e));
  }
  template <unsigned W2, unsigned W>
  static U<W2> zext(const U<W>& x) {
    static_assert(W2 >= W);
    if constexpr (W2 == W) {
      return x;
    } else {
      return U<W2>(z3::zext(x.e, W2 - W));
    }
  }
  template <unsigned W2, unsigned W>
  static U<W2> trunc(const U<W>& x) {
    static_assert(W2 <= W);
    if constexpr (W2 == W) {
      return x;
    } else {
      return U<W2>(x.e.extract(W2 - 1, 0));
    }
  }
  // Division by a non-zero constant c is encoded as a fresh quotient q with
  // q*c <= a < (q+1)*c, the products zero-extended to 2W bits so that they
  // cannot wrap. This is exactly floor(a / c), as bvudiv is, but avoids
  // bit-blasting a W-bit divider (the 128-bit latency conversion would
  // otherwise dominate every states proof). Other divisors use bvudiv.
  template <unsigned W>
  static U<W> udiv(const U<W>& a, const U<W>& b) {
    uint64_t c = 0;
    if (!b.e.is_numeral_u64(c) || c == 0) return U<W>(z3::udiv(a.e, b.e));
    z3::context& ctx = a.e.ctx();
    Z3Scope& scope = current_scope();
    const std::string name = "udiv_q" + std::to_string(scope.next_id());
    const z3::expr q = ctx.bv_const(name.c_str(), W);
    const z3::expr wide_a = z3::zext(a.e, W);
    const z3::expr wide_q = z3::zext(q, W);
    const z3::expr wide_c = ctx.bv_val(c, 2 * W);
    scope.add_side_condition(z3::ule(wide_q * wide_c, wide_a) &&
                             z3::ult(wide_a, (wide_q + ctx.bv_val(1, 2 * W)) * wide_c));
    return U<W>(q);
  }
  // Early exits are taken only when the condition simplifies to false.
  static bool known_false(const Bool& c) { return c.e.simplify().is_false(); }
};

// A fresh symbolic word or truth value.
template <unsigned W>
Sym<W> fresh(const std::string& name) {
  return Sym<W>(current_context().bv_const(name.c_str(), W));
}
inline SymBool fresh_bool(const std::string& name) {
  return SymBool(current_context().bool_const(name.c_str()));
}

}  // namespace idlespec::proofs
