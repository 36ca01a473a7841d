#include "proofs/z3_domain.h"

namespace idlespec::proofs {
namespace {
thread_local z3::context* g_context = nullptr;
thread_local Z3Scope* g_scope = nullptr;
}  // namespace

z3::context& current_context() {
  if (!g_context) throw std::logic_error("Z3Domain used outside a Z3Scope");
  return *g_context;
}

Z3Scope& current_scope() {
  if (!g_scope) throw std::logic_error("Z3Domain used outside a Z3Scope");
  return *g_scope;
}

Z3Scope::Z3Scope(z3::context& ctx) : previous_(g_context), previous_scope_(g_scope) {
  g_context = &ctx;
  g_scope = this;
}

Z3Scope::~Z3Scope() {
  g_context = previous_;
  g_scope = previous_scope_;
}

z3::expr Z3Scope::side_conditions() const {
  z3::expr all = current_context().bool_val(true);
  for (const auto& e : side_) all = all && e;
  return all;
}

}  // namespace idlespec::proofs
