// The TEO subjects, type-erased (impl/teo.h).
#include "impl/teo.h"

#include <array>

namespace idlespec::teo {
namespace {

template <class S>
SubjectOps ops_of(std::string_view summary) {
  return SubjectOps{S::name, summary, &select<S, Concrete>, &learn<S, Concrete>};
}

const std::array<SubjectOps, 5>& table() {
  static const std::array<SubjectOps, 5> t = {
      ops_of<V61>("Debian 6.1 teo.c: sleep length first, recent intercepts, bin-middle spans"),
      ops_of<V612>("Debian 6.12 teo.c: sleep length on demand, teo_state_ok(), tick_hits bin"),
      ops_of<V619>("v6.19 rework: teo_decay(), short idles, tick wakeups, min_idx search"),
      ops_of<V70>("v7.0: v6.19 + a971f984b845 intercepts maximum bound (with its min_idx "
                  "shortcut), 4bd2221f231d, f36de72673ad, 60836533b4c7, 475ca3470b37"),
      ops_of<Mainline>(
          "v7.1 (2026 mainline): v7.0 + 106a2662e655 stopped-tick handling (no min_idx)"),
  };
  return t;
}

}  // namespace

std::span<const SubjectOps> subjects() { return table(); }

const SubjectOps* find_subject(std::string_view name) {
  for (const SubjectOps& s : table()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace idlespec::teo
