// The concrete value domain.
//
// The firmware-interface logic of idlespec (impl/xcede.h, impl/states.h) is
// written once, as templates over a value domain D:
//
//   D::U<W>     an unsigned W-bit word (W in 8, 16, 32, 64, 128), modular
//               arithmetic exactly like an SMT-LIB bit-vector of width W;
//   D::Bool     a truth value;
//   D::lit<W>(v), D::ite(c, a, b), D::zext<W2>(x), D::trunc<W2>(x),
//   D::udiv(a, b), D::known_false(c).
//
// Production instantiates the templates with Concrete (below). The proofs
// instantiate the same templates with proofs/z3_domain.h, whose words are
// z3::expr bit-vectors, so every Z3 proof is about the code that runs.
//
// Generic code never branches on a D::Bool with `if`; it uses D::ite. The one
// exception is D::known_false(c), an early exit that Concrete answers exactly
// and a symbolic domain answers "false" unless c simplifies to false.
#pragma once

#include <cstdint>
#include <type_traits>

namespace idlespec {

template <unsigned W>
struct WordStorage;
template <>
struct WordStorage<8> {
  using type = uint8_t;
};
template <>
struct WordStorage<16> {
  using type = uint16_t;
};
template <>
struct WordStorage<32> {
  using type = uint32_t;
};
template <>
struct WordStorage<64> {
  using type = uint64_t;
};
template <>
struct WordStorage<128> {
  using type = unsigned __int128;
};

// A W-bit unsigned word with bit-vector semantics: + - * wrap modulo 2^W,
// comparisons are unsigned, division by zero yields all ones (SMT-LIB bvudiv).
template <unsigned W>
struct Word {
  using T = typename WordStorage<W>::type;
  T v{0};

  constexpr Word() = default;
  constexpr explicit Word(T value) : v(value) {}

  friend constexpr Word operator+(Word a, Word b) { return Word(T(a.v + b.v)); }
  friend constexpr Word operator-(Word a, Word b) { return Word(T(a.v - b.v)); }
  friend constexpr Word operator*(Word a, Word b) { return Word(T(a.v * b.v)); }
  friend constexpr Word operator&(Word a, Word b) { return Word(T(a.v & b.v)); }
  friend constexpr Word operator|(Word a, Word b) { return Word(T(a.v | b.v)); }
  friend constexpr Word operator<<(Word a, unsigned s) { return Word(s >= W ? T(0) : T(a.v << s)); }
  friend constexpr Word operator>>(Word a, unsigned s) { return Word(s >= W ? T(0) : T(a.v >> s)); }
  friend constexpr bool operator==(Word a, Word b) { return a.v == b.v; }
  friend constexpr bool operator!=(Word a, Word b) { return a.v != b.v; }
  friend constexpr bool operator<(Word a, Word b) { return a.v < b.v; }
  friend constexpr bool operator<=(Word a, Word b) { return a.v <= b.v; }
  friend constexpr bool operator>(Word a, Word b) { return a.v > b.v; }
  friend constexpr bool operator>=(Word a, Word b) { return a.v >= b.v; }
};

struct Concrete {
  template <unsigned W>
  using U = Word<W>;
  using Bool = bool;

  template <unsigned W>
  static constexpr U<W> lit(uint64_t v) {
    return U<W>(static_cast<typename U<W>::T>(v));
  }
  static constexpr Bool truth(bool b) { return b; }

  template <unsigned W>
  static constexpr U<W> ite(Bool c, U<W> a, U<W> b) {
    return c ? a : b;
  }
  static constexpr Bool ite(Bool c, Bool a, Bool b) { return c ? a : b; }

  template <unsigned W2, unsigned W>
  static constexpr U<W2> zext(U<W> x) {
    static_assert(W2 >= W);
    return U<W2>(static_cast<typename U<W2>::T>(x.v));
  }
  template <unsigned W2, unsigned W>
  static constexpr U<W2> trunc(U<W> x) {
    static_assert(W2 <= W);
    return U<W2>(static_cast<typename U<W2>::T>(x.v));
  }

  template <unsigned W>
  static constexpr U<W> udiv(U<W> a, U<W> b) {
    return b.v == 0 ? U<W>(static_cast<typename U<W>::T>(~typename U<W>::T(0))) : U<W>(a.v / b.v);
  }

  static constexpr bool known_false(Bool c) { return !c; }
};

}  // namespace idlespec
