// menu's harness driven: an input as harness_governor.c's line, and its
// answers (the device before, each selection, menu_update()'s state, a
// crash or hang) read back.
#include <sstream>

#include "validate/governor_run.h"
#include "validate/input_check.h"

namespace idlespec::validate::menu {
namespace {

template <size_t N>
void parse_list(const std::string& s, std::array<uint32_t, N>& out) {
  std::istringstream is(s);
  std::string x;
  for (size_t i = 0; i < N && std::getline(is, x, ','); ++i)
    out[i] = static_cast<uint32_t>(std::strtoull(x.c_str(), nullptr, 10));
}

Dev parse_dev(const std::string& line) {
  Dev d;
  d.ok = line.find(" iv=") != std::string::npos;
  d.ptr = std::strtoll(harness_field(line, "ptr").c_str(), nullptr, 10);
  d.bucket =
      static_cast<uint32_t>(std::strtoul(harness_field(line, "bucket").c_str(), nullptr, 10));
  d.next_timer = std::strtoull(harness_field(line, "next_timer").c_str(), nullptr, 10);
  d.us = harness_field(line, "unit") == "us";
  parse_list(harness_field(line, "f"), d.f);
  parse_list(harness_field(line, "iv"), d.iv);
  return d;
}

}  // namespace

std::string table_text(const std::vector<gov::TableEntry>& t) {
  return table_line(t, &gov::TableEntry::exit_latency_ns, &gov::TableEntry::target_residency_ns);
}

std::string input_line(size_t id, const Input& in) {
  return std::to_string(id) + " " + std::to_string(in.hz) + " " + table_text(in.table) + " " +
         steps_line(in.steps, [](const Step& x) { return x.entered ? "/1" : "/0"; }) + "\n";
}

// The harness line of an input, without its id.
std::string line_of(const Input& in) {
  const std::string l = input_line(0, in);
  return l.substr(2, l.size() - 3);
}

// Runs `inputs` through the shared runner (validate/input_check.h) and reads
// harness_governor.c's lines: I (the device before the first step), then per
// step S (the choice) and U (what menu_update() left), or CRASH/HANG with
// the step in flight.
Batch run_inputs(const std::string& harness, bool sanitizers, const std::vector<Input>& inputs,
                 const std::string& dir, const std::string& tag, double budget) {
  auto read = [](const HarnessOutcome& h, Outcome& o) {
    o.sanitizer = h.sanitizer;
    if (h.reported && h.lines.empty()) {  // the runner blamed it for a harness that died
      o.crashed = true;
      o.crash = h.crash;
    }
    for (const auto& line : h.lines) {
      std::istringstream l(line);
      std::string word;
      long long step = -1;
      l >> word;
      if (word == "S" || word == "U" || word == "T" || word == "CRASH" || word == "HANG") l >> step;
      const bool step_ok = step >= 0 && static_cast<size_t>(step) < o.sels.size();
      if (word == "I") {
        o.init = parse_dev(" " + line);
      } else if (word == "S" && step_ok) {
        Sel& s = o.sels[static_cast<size_t>(step)];
        read_choice(s, " " + line);
        s.timer = harness_field(" " + line, "timer") != "0";
      } else if (word == "U" && step_ok) {
        o.sels[static_cast<size_t>(step)].after = parse_dev(" " + line);
      } else if (word == "T" && step_ok) {
        o.sels[static_cast<size_t>(step)].typical =
            std::strtoll(harness_field(" " + line, "typical").c_str(), nullptr, 10);
      } else if (word == "CRASH" || word == "HANG") {
        read_trap(o, word, step, l);
      }
    }
  };
  return run_governor_harness<Outcome>(harness, sanitizers, inputs, line_of, dir, tag, budget,
                                       read);
}

}  // namespace idlespec::validate::menu
