// Subjects of the xcede and states checks: the reference implementation and
// the variants the spec keeps for comparison. A subject bundles the decoder,
// the table builder (with its fix-up gate) and the query's retry policy; the
// checks in proofs/, properties/ and fuzz/ are templates over it.
//
// Witnesses (deliberately broken subjects that prove a check can fail) have
// the same shape but live in tests/witnesses/, never here.
#pragma once

#include <string_view>

#include "impl/query.h"
#include "impl/states.h"
#include "impl/xcede.h"

namespace idlespec {

struct ReferenceSubject {
  static constexpr std::string_view name = "reference";
  using Decoder = xcede::ReferenceDecoder;
  using Builder = states::ReferenceBuilder;
  static constexpr xcede::RetryPolicy query_policy = xcede::kReferenceRetryPolicy;
};

// Upstream Linux since v5.15 as far as XCEDE-7 goes: parse_cede_parameters()
// calls RTAS once and gives up on any non-zero status, busy included.
struct UpstreamQuerySubject : ReferenceSubject {
  static constexpr std::string_view name = "upstream";
  static constexpr xcede::RetryPolicy query_policy = &xcede::single_call_policy;
};

}  // namespace idlespec
