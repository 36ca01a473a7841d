// idlespec decode xcede: a raw parameter-45 buffer in, the kernel's view out.
#include <cinttypes>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "cli/args.h"
#include "cli/commands.h"
#include "cli/input.h"
#include "impl/json.h"
#include "impl/query.h"
#include "impl/states.h"
#include "impl/text.h"

namespace idlespec::cli {
namespace {

// An input problem: reported with its clause (if any) and byte offset, exit 2.
struct InputError {
  std::string clause;  // empty: not a spec clause (unreadable file, bad hex)
  size_t offset = 0;
  std::string message;
};

// The input, bounded (cli/input.h): a directory, a device, a FIFO or a file
// over the limit is an input error naming it.
std::vector<uint8_t> read_all(const std::string& path) {
  std::string data;
  if (const std::string why = read_input(path, data); !why.empty()) throw InputError{"", 0, why};
  return std::vector<uint8_t>(data.begin(), data.end());
}

// Hex text to bytes; whitespace is ignored, an optional 0x prefix per token too.
// Errors name the offset in the text.
std::vector<uint8_t> parse_hex(const std::vector<uint8_t>& text) {
  std::vector<uint8_t> out;
  int pending = -1;
  size_t pending_at = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = static_cast<char>(text[i]);
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') continue;
    if (c == '0' && pending < 0 && i + 1 < text.size() &&
        (text[i + 1] == 'x' || text[i + 1] == 'X')) {
      ++i;
      continue;
    }
    int v;
    if (c >= '0' && c <= '9')
      v = c - '0';
    else if (c >= 'a' && c <= 'f')
      v = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      v = c - 'A' + 10;
    else
      throw InputError{"", i, strprintf("not a hex digit: '%c' at text offset %zu", c, i)};
    if (pending < 0) {
      pending = v;
      pending_at = i;
    } else {
      out.push_back(static_cast<uint8_t>(pending << 4 | v));
      pending = -1;
    }
  }
  if (pending >= 0) {
    throw InputError{
        "", pending_at,
        strprintf("odd number of hex digits: the digit at text offset %zu has no partner",
                  pending_at)};
  }
  return out;
}

// "-2,9900,0": at least one status, each a plain decimal 32-bit integer
// (an optional '-', no '+', spaces or leading zeros), no empty item.
std::vector<int32_t> parse_statuses(const std::string& list) {
  const auto bad = [&](const std::string& why) {
    return UsageError("--rtas-statuses wants comma-separated 32-bit integers in plain decimal, " +
                      why);
  };
  if (list.empty()) throw bad("not an empty list");
  std::vector<int32_t> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma - start);
    const std::string digits = item.rfind('-', 0) == 0 ? item.substr(1) : item;
    const bool plain = !digits.empty() && digits.size() <= 10 &&
                       digits.find_first_not_of("0123456789") == std::string::npos &&
                       (digits.size() == 1 || digits[0] != '0');
    const long long v = plain ? std::stoll(item) : 0;
    if (!plain || v < INT32_MIN || v > INT32_MAX)
      throw bad(item.empty() ? "not an empty item in '" + list + "'" : "not '" + item + "'");
    out.push_back(static_cast<int32_t>(v));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

Platform platform_arg(const Args& args, const std::string& name, Platform fallback) {
  const auto v = args.get(name);
  if (!v) return fallback;
  const auto p = parse_platform(*v);
  if (!p)
    throw UsageError("--" + name + " wants power8, power9, power10 or power11, not '" + *v + "'");
  return *p;
}

void print_json(const xcede::QueryResult& q, const states::Table* table,
                const states::Options& opts, const InputError* input_error) {
  JsonWriter w;
  w.begin_object();
  w.key("records").begin_array();
  for (const auto& r : q.decoded.records) {
    const auto us = states::exact_latency_us<Concrete>(Word<64>(r.latency_ticks), opts.tb_hz).v;
    w.begin_object();
    w.key("hint").value(unsigned{r.hint});
    w.key("latency_ticks").value(uint64_t{r.latency_ticks});
    w.key("latency_us").value(static_cast<uint64_t>(us > UINT64_MAX ? UINT64_MAX : us));
    w.key("wake_on_irqs").value(unsigned{r.wake_on_irqs});
    w.end_object();
  }
  w.end_array();
  w.key("warnings").begin_array();
  for (const auto& d : q.decoded.warnings) {
    w.value(d.clause + " at offset " + std::to_string(d.offset) + ": " + d.message);
  }
  if (!q.succeeded() && q.decoded.error) w.value(q.decoded.error->message);
  w.end_array();
  w.key("error");
  if (input_error) {
    w.begin_object();
    w.key("clause");
    if (input_error->clause.empty())
      w.null();
    else
      w.value(input_error->clause);
    w.key("offset").value(uint64_t{input_error->offset});
    w.key("message").value(input_error->message);
    w.end_object();
  } else {
    w.null();
  }
  w.key("rtas").begin_object();
  w.key("calls").value(uint64_t{q.statuses.size()});
  w.key("final_status").value(int64_t{q.final_status});
  w.key("requested_sleep_us").value(q.requested_sleep_us);
  w.key("yields").value(unsigned{q.yields});
  w.end_object();
  w.key("states").begin_array();
  if (table) {
    for (const auto& s : table->states) {
      w.begin_object();
      w.key("name").value(s.name);
      w.key("exit_latency_us").value(unsigned{s.exit_latency_us});
      w.key("target_residency_us").value(unsigned{s.target_residency_us});
      w.key("flags").begin_array();
      if (s.polling) w.value("POLLING");
      if (s.timer_stop) w.value("TIMER_STOP");
      w.end_array();
      w.key("cede_hint").value(unsigned{s.cede_hint});
      w.end_object();
    }
  }
  w.end_array();
  if (table) {
    w.key("cede0_fixup").begin_object();
    w.key("gated_in").value(table->cede0_fixup_gated_in);
    w.key("applied").value(table->cede0_fixed_up);
    w.end_object();
    w.key("snooze_timeout_ticks").value(table->snooze_timeout_ticks);
    w.key("notes").begin_array();
    for (const auto& n : table->notes) w.value(n);
    w.end_array();
  }
  w.end_object();
  std::cout << w.str() << "\n";
}

void print_text(const xcede::QueryResult& q, const states::Table& table) {
  if (q.statuses.size() > 1 || !q.succeeded()) {
    std::cout << "rtas: ibm,get-system-parameter(45) answered";
    for (int32_t s : q.statuses) std::cout << " " << s;
    std::cout << " (" << q.statuses.size() << " calls, " << q.requested_sleep_us
              << " us of sleep requested, " << q.yields << " yields)\n";
  }
  if (!q.succeeded())
    std::cout << q.decoded.error->message << "\n";
  else
    for (const auto& line : xcede::dmesg_lines(q.decoded)) std::cout << line << "\n";
  for (const auto& d : q.decoded.warnings) {
    std::cout << "xcede: warning [" << d.clause << "] offset " << d.offset << ": " << d.message
              << "\n";
  }
  for (const auto& n : table.notes) std::cout << n << "\n";
  std::cout << "\n";
  for (const auto& line : states::idle_info_lines(table)) std::cout << line << "\n";
}

}  // namespace

int decode_command(const std::vector<std::string>& argv) {
  Args args("decode xcede", "[FILE|-] [options]");
  args.flag("hex", "input is hex text (whitespace ignored), not raw bytes")
      .option("tb-freq", "HZ", "timebase frequency (default 512000000)")
      .option("platform", "P", "processor: power8, power9, power10 (default), power11")
      .option("compat", "P", "compatibility mode, not newer than --platform (default: native)")
      .flag("shared", "shared-processor LPAR (default: dedicated)")
      .flag("expose-xcede", "expose XCEDE states to cpuidle (off upstream)")
      .option("capacity", "N", "records the parameter buffer holds (default 16)")
      .option("rtas-statuses", "LIST",
              "statuses the query answers before the buffer, e.g. -2,9900,0")
      .flag("json", "machine-readable output");
  std::vector<std::string> rest(argv.begin(), argv.end());
  if (rest.empty() || rest[0] == "-h" || rest[0] == "--help") {
    std::cout << args.help();
    return rest.empty() ? 2 : 0;
  }
  if (rest[0] != "xcede")
    throw UsageError("decode knows one format, 'xcede', not '" + rest[0] + "'");
  rest.erase(rest.begin());
  args.parse(rest);
  if (args.wants_help()) {
    std::cout << args.help();
    return 0;
  }
  if (args.positional().size() > 1) throw UsageError("one input file at most");
  const std::string path = args.positional().empty() ? "-" : args.positional()[0];

  states::Options opts;
  opts.tb_hz = args.get_u64("tb-freq", states::kDefaultTbHz, states::kMinTbHz, states::kMaxTbHz);
  opts.lpar.processor = platform_arg(args, "platform", Platform::power10);
  opts.lpar.compat = platform_arg(args, "compat", opts.lpar.processor);
  opts.lpar.shared_processor = args.has("shared");
  opts.expose_xcede = args.has("expose-xcede");
  if (!opts.lpar.valid()) {
    throw UsageError("--compat " + std::string(platform_name(opts.lpar.compat)) +
                     " is newer than --platform " +
                     std::string(platform_name(opts.lpar.processor)));
  }
  const auto capacity = static_cast<uint32_t>(
      args.get_u64("capacity", xcede::kDefaultCapacity, 1, xcede::kMaxCapacity));
  const auto statuses = args.has("rtas-statuses") ? parse_statuses(*args.get("rtas-statuses"))
                                                  : std::vector<int32_t>{};
  const bool json = args.has("json");

  xcede::QueryResult q;
  try {
    std::vector<uint8_t> buffer = read_all(path);
    if (args.has("hex")) buffer = parse_hex(buffer);
    q = xcede::query(statuses, buffer, capacity, xcede::kReferenceRetryPolicy);
    if (q.succeeded() && !q.decoded.ok()) {
      const auto& e = *q.decoded.error;
      throw InputError{e.clause, e.offset, e.message};
    }
  } catch (const InputError& e) {
    if (json) {
      print_json(q, nullptr, opts, &e);
    } else {
      std::cerr << "idlespec: " << (e.clause.empty() ? "" : "[" + e.clause + "] ") << "offset "
                << e.offset << ": " << e.message << "\n";
    }
    return 2;
  }
  // A failed query leaves no records: the table keeps its defaults (XCEDE-6).
  const std::vector<xcede::Record> none;
  const states::Table table = states::build(q.succeeded() ? q.decoded.records : none, opts);
  if (json)
    print_json(q, &table, opts, nullptr);
  else
    print_text(q, table);
  return 0;
}

}  // namespace idlespec::cli
