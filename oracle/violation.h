// The one shape of "a clause broke", shared by every component's oracle
// (oracle/xcede.h, states.h, busy_delay.h, governor.h, idle_core.h) and by
// every layer that judges through them: the properties, the fuzz targets,
// the corpus replay and validate.
//
// A violation names the clause, says what is wrong in words that do not name
// the subject (the caller knows which subject it ran: reference, a witness,
// a file under validate), and summarises the input that shows it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace idlespec::oracle {

struct Violation {
  Violation() = default;
  Violation(std::string clause_id, std::string what, std::string offending_input = {},
            size_t times = 1)
      : clause(std::move(clause_id)),
        message(std::move(what)),
        input(std::move(offending_input)),
        occurrences(times) {}

  std::string clause;   // "XCEDE-1", "STATES-4", "BUSY-7", "GOV-5", "IDLE-3"; "model" (idle_core)
  std::string message;  // what is wrong, subject-free
  std::string input;    // the offending input, summarised (may be filled in by the caller)
  size_t occurrences = 1;
  // An empty violation: nothing broken (idle_core's per-move verdict).
  bool ok() const { return clause.empty(); }
};
using Violations = std::vector<Violation>;

// The clause IDs of `v`, sorted and unique.
std::set<std::string> clauses_of(const Violations& v);
// "CLAUSE: message" of the first violation, "(and N more)" after it; "" if none.
std::string summary(const Violations& v);

// At most one entry per clause, in the order first broken; later
// occurrences are counted. The message is built only for the first (the
// fuzz drivers judge every input).
class Collector {
 public:
  template <class MakeMessage>
  void add(const char* clause, MakeMessage&& make) {
    for (Violation& v : out_) {
      if (v.clause == clause) {
        ++v.occurrences;
        return;
      }
    }
    out_.push_back({clause, make(), {}, 1});
  }
  const Violations& violations() const { return out_; }
  Violations take() { return std::move(out_); }

 private:
  Violations out_;
};

// Lower-case hex, two digits a byte: the input summaries of byte inputs.
std::string hex(std::span<const uint8_t> bytes);
// Decimal for 128-bit values (the oracles compute exactly in 128 bits).
std::string dec(unsigned __int128 v);

}  // namespace idlespec::oracle
