#include "impl/governor_sim.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "impl/text.h"

namespace idlespec::governor::sim {

std::string_view wake_name(Wake w) { return w == Wake::ipi ? "ipi" : "timer"; }

std::optional<Wake> parse_wake(std::string_view s) {
  if (s == "ipi") return Wake::ipi;
  if (s == "timer") return Wake::timer;
  return std::nullopt;
}

bool valid_hz(unsigned hz) { return hz == 100 || hz == 250 || hz == 1000; }

std::vector<uint64_t> default_intervals_us() {
  std::vector<uint64_t> v = {2, 5, 7, 12};
  for (uint64_t us = 22; us <= 152; us += 10) v.push_back(us);
  for (uint64_t us = 202; us <= 1002; us += 100) v.push_back(us);
  return v;
}

std::optional<std::vector<uint64_t>> parse_intervals(std::string_view list, std::string& error) {
  std::vector<uint64_t> out;
  size_t pos = 0;
  while (true) {
    const size_t comma = list.find(',', pos);
    const std::string_view item =
        list.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    uint64_t v = 0;
    bool ok = !item.empty() && item.size() <= 7;
    for (char c : item) {
      if (c < '0' || c > '9') ok = false;
      if (ok) v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    if (!ok || v < 1 || v > kMaxIntervalUs) {
      error = strprintf("interval %zu ('%s') is not a whole number of microseconds from 1 to %llu",
                        out.size() + 1, std::string(item).c_str(),
                        static_cast<unsigned long long>(kMaxIntervalUs));
      return std::nullopt;
    }
    out.push_back(v);
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return out;
}

// --- the table as JSON ----------------------------------------------------------

namespace {

struct JsonValue {
  enum Kind { kNull, kBool, kNumber, kString, kArray, kObject } kind = kNull;
  bool boolean = false;
  std::string text;  // a string's contents or a number's literal
  std::vector<JsonValue> items;
  std::vector<std::string> keys;  // an object's member names, in order ...
  std::vector<JsonValue> values;  // ... and their values

  const JsonValue* find(std::string_view key) const;
};

const JsonValue* JsonValue::find(std::string_view key) const {
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &values[i];
  return nullptr;
}

const char* kind_name(JsonValue::Kind k) {
  switch (k) {
    case JsonValue::kNull:
      return "null";
    case JsonValue::kBool:
      return "a boolean";
    case JsonValue::kNumber:
      return "a number";
    case JsonValue::kString:
      return "a string";
    case JsonValue::kArray:
      return "an array";
    case JsonValue::kObject:
      return "an object";
  }
  return "?";
}

// A strict RFC 8259 reader, enough for a state table: nesting is bounded so
// that hostile input cannot exhaust the stack.
class JsonReader {
 public:
  explicit JsonReader(std::string_view s) : s_(s) {}

  bool document(JsonValue& out, std::string& error) {
    skip_space();
    if (!value(out, 0)) {
      error = error_;
      return false;
    }
    skip_space();
    if (pos_ != s_.size()) {
      error = strprintf("offset %zu: unexpected '%c' after the JSON value", pos_, s_[pos_]);
      return false;
    }
    return true;
  }

 private:
  static constexpr int kMaxDepth = 64;

  bool fail(const std::string& what) {
    if (pos_ >= s_.size())
      error_ = strprintf("offset %zu: %s, found the end of the input", pos_, what.c_str());
    else
      error_ = strprintf("offset %zu: %s, found '%c'", pos_, what.c_str(), s_[pos_]);
    return false;
  }
  void skip_space() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
      ++pos_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return fail("expected a JSON value");
    pos_ += word.size();
    return true;
  }

  bool value(JsonValue& v, int depth) {
    if (depth > kMaxDepth) return fail("nested deeper than 64 levels");
    if (pos_ >= s_.size()) return fail("expected a JSON value");
    const char c = s_[pos_];
    if (c == '{') return object(v, depth);
    if (c == '[') return array(v, depth);
    if (c == '"') {
      v.kind = JsonValue::kString;
      return string(v.text);
    }
    if (c == 't' || c == 'f') {
      v.kind = JsonValue::kBool;
      v.boolean = c == 't';
      return literal(c == 't' ? "true" : "false");
    }
    if (c == 'n') {
      v.kind = JsonValue::kNull;
      return literal("null");
    }
    if (c == '-' || (c >= '0' && c <= '9')) return number(v);
    return fail("expected a JSON value");
  }

  bool digits() {
    const size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  bool number(JsonValue& v) {
    const size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == '0') {
      ++pos_;
    } else if (!digits()) {
      return fail("expected digits");
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      if (!digits()) return fail("expected digits after '.'");
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      if (!digits()) return fail("expected an exponent");
    }
    v.kind = JsonValue::kNumber;
    v.text = std::string(s_.substr(start, pos_ - start));
    return true;
  }

  static void utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xc0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
      out += static_cast<char>(0xe0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (cp & 0x3f));
    }
  }

  bool string(std::string& out) {
    ++pos_;  // the opening quote
    while (true) {
      if (pos_ >= s_.size()) return fail("unterminated string");
      const char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in a string");
      if (c != '\\') {
        out += c;
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size()) return fail("unterminated string");
      const char e = s_[pos_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t cp = 0;
          for (int k = 0; k < 4; ++k, ++pos_) {
            if (pos_ >= s_.size()) return fail("expected 4 hex digits after \\u");
            const char h = s_[pos_];
            const int d = h >= '0' && h <= '9'   ? h - '0'
                          : h >= 'a' && h <= 'f' ? h - 'a' + 10
                          : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                 : -1;
            if (d < 0) return fail("expected 4 hex digits after \\u");
            cp = cp * 16 + static_cast<uint32_t>(d);
          }
          utf8(out, cp);  // surrogates are kept as they come: names only
          break;
        }
        default:
          --pos_;
          return fail("unknown escape in a string");
      }
    }
  }

  bool array(JsonValue& v, int depth) {
    v.kind = JsonValue::kArray;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      v.items.emplace_back();
      if (!value(v.items.back(), depth + 1)) return false;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool object(JsonValue& v, int depth) {
    v.kind = JsonValue::kObject;
    ++pos_;
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != '"') return fail("expected a member name");
      std::string key;
      if (!string(key)) return false;
      skip_space();
      if (pos_ >= s_.size() || s_[pos_] != ':') return fail("expected ':'");
      ++pos_;
      skip_space();
      v.keys.push_back(std::move(key));
      v.values.emplace_back();
      if (!value(v.values.back(), depth + 1)) return false;
      skip_space();
      if (pos_ < s_.size() && s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < s_.size() && s_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  std::string_view s_;
  size_t pos_ = 0;
  std::string error_;
};

// A state's microseconds: a whole number 0..UINT_MAX, as the decoder prints.
bool read_us(const JsonValue& state, const char* key, const std::string& path, uint64_t& ns,
             std::string& error) {
  const JsonValue* v = state.find(key);
  if (!v) {
    error = path + "." + key + ": missing";
    return false;
  }
  bool ok = v->kind == JsonValue::kNumber && !v->text.empty() && v->text.size() <= 10;
  uint64_t us = 0;
  for (char c : v->text) {
    if (c < '0' || c > '9') ok = false;
    if (ok) us = us * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!ok || us > kUintMax) {
    error = path + "." + key + ": want a whole number of microseconds from 0 to 4294967295, not " +
            (v->kind == JsonValue::kNumber ? v->text : std::string(kind_name(v->kind)));
    return false;
  }
  ns = us * kNsecPerUsec;
  return true;
}

}  // namespace

std::optional<std::vector<TableEntry>> parse_table_json(std::string_view text, std::string& error) {
  JsonValue root;
  if (!JsonReader(text).document(root, error)) return std::nullopt;
  const JsonValue* states = &root;
  std::string base = "$";
  if (root.kind == JsonValue::kObject) {
    states = root.find("states");
    base = "$.states";
    const JsonValue* failed = root.find("error");
    const bool decode_failed = failed && failed->kind == JsonValue::kObject;
    if (decode_failed && (!states || states->items.empty())) {
      const JsonValue* m = failed->find("message");
      error = "$.error: the decode failed";
      if (m && m->kind == JsonValue::kString) error += ": " + m->text;
      error += "; no states to simulate";
      return std::nullopt;
    }
    if (!states) {
      error = "$.states: missing (want the JSON of 'idlespec decode xcede --json')";
      return std::nullopt;
    }
  }
  if (states->kind != JsonValue::kArray) {
    error = base + ": want an array of states, not " + kind_name(states->kind);
    return std::nullopt;
  }
  if (states->items.empty()) {
    error = base + ": no states";
    return std::nullopt;
  }
  if (states->items.size() > kMaxStates) {
    error = strprintf("%s: %zu states; a driver has at most %u (CPUIDLE_STATE_MAX)", base.c_str(),
                      states->items.size(), kMaxStates);
    return std::nullopt;
  }
  std::vector<TableEntry> table;
  for (size_t i = 0; i < states->items.size(); ++i) {
    const JsonValue& s = states->items[i];
    const std::string path = base + "[" + std::to_string(i) + "]";
    if (s.kind != JsonValue::kObject) {
      error = path + ": want an object, not " + kind_name(s.kind);
      return std::nullopt;
    }
    TableEntry e;
    e.name = "state" + std::to_string(i);
    if (const JsonValue* name = s.find("name")) {
      if (name->kind != JsonValue::kString) {
        error = path + ".name: want a string, not " + kind_name(name->kind);
        return std::nullopt;
      }
      e.name = name->text;
    }
    if (!read_us(s, "exit_latency_us", path, e.exit_latency_ns, error) ||
        !read_us(s, "target_residency_us", path, e.target_residency_ns, error))
      return std::nullopt;
    if (const JsonValue* flags = s.find("flags")) {
      if (flags->kind != JsonValue::kArray) {
        error = path + ".flags: want an array of strings, not " + kind_name(flags->kind);
        return std::nullopt;
      }
      for (size_t k = 0; k < flags->items.size(); ++k) {
        const JsonValue& f = flags->items[k];
        const std::string fpath = path + ".flags[" + std::to_string(k) + "]";
        if (f.kind != JsonValue::kString) {
          error = fpath + ": want a string, not " + kind_name(f.kind);
          return std::nullopt;
        }
        if (f.text == "POLLING") {
          e.polling = true;
        } else if (f.text == "TIMER_STOP") {
          e.timer_stop = true;
        } else {
          error = fpath + ": unknown flag '" + f.text + "' (known: POLLING, TIMER_STOP)";
          return std::nullopt;
        }
      }
    }
    if (const JsonValue* d = s.find("disabled")) {
      if (d->kind != JsonValue::kBool) {
        error = path + ".disabled: want true or false, not " + kind_name(d->kind);
        return std::nullopt;
      }
      e.disabled = d->boolean;
    }
    table.push_back(std::move(e));
  }
  return table;
}

// --- the simulation ---------------------------------------------------------------

namespace {

// splitmix64: the same sequence on every platform (std distributions are not).
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

}  // namespace

double Row::above_pct() const {
  return selections ? 100.0 * static_cast<double>(above) / static_cast<double>(selections) : 0.0;
}
double Row::below_pct() const {
  return selections ? 100.0 * static_cast<double>(below) / static_cast<double>(selections) : 0.0;
}

namespace {

// The menu governor as the loop drives it: menu_select() with the previous
// entry's fields, then menu_reflect().
class MenuDriver {
 public:
  MenuDriver(const SubjectOps& subject, const Config& config, uint64_t tick)
      : subject_(subject), h_(fresh_history<Concrete>()) {
    in_.latency_req_ns = Concrete::lit<64>(config.latency_req_ns);
    in_.tick_ns = Concrete::lit<64>(tick);
    in_.last_state_idx = Concrete::lit<32>(0);
    in_.last_residency_ns = Concrete::lit<64>(0);
    in_.poll_time_limit = false;
  }
  std::string name() const { return std::string(subject_.name); }
  std::pair<uint32_t, bool> select(std::span<const State<Concrete>> states, uint64_t sleep_length,
                                   uint64_t delta_tick, bool tick_stopped) {
    in_.sleep_length_ns = Concrete::lit<64>(sleep_length);
    in_.delta_tick_ns = Concrete::lit<64>(delta_tick);
    in_.tick_stopped = tick_stopped;
    const ConcreteChoice c = subject_.select(states, h_, in_);
    return {static_cast<uint32_t>(c.idx.v), c.stop_tick};
  }
  void reflect(uint32_t idx, uint64_t residency, bool got_tick, bool poll_time_limit) {
    reflect_history(got_tick);
    in_.last_state_idx = Concrete::lit<32>(idx);
    in_.last_residency_ns = Concrete::lit<64>(residency);
    in_.poll_time_limit = poll_time_limit;
  }

 private:
  void reflect_history(bool got_tick) { governor::reflect<Concrete>(h_, got_tick); }
  const SubjectOps& subject_;
  ConcreteHistory h_;
  ConcreteInputs in_{};
};

// TEO as the loop drives it: teo_select(), preceded by teo_update() for the
// period the previous entry reflected (the kernel runs the update at the
// start of the next selection).
class TeoDriver {
 public:
  TeoDriver(const teo::SubjectOps& subject, const Config& config, uint64_t tick)
      : subject_(subject), cpu_(teo::fresh_cpu<Concrete>()), tick_(Concrete::lit<64>(tick)) {
    in_.latency_req_ns = Concrete::lit<64>(config.latency_req_ns);
    in_.tick_ns = tick_;
  }
  std::string name() const { return "teo-" + std::string(subject_.name); }
  std::pair<uint32_t, bool> select(std::span<const State<Concrete>> states, uint64_t sleep_length,
                                   uint64_t delta_tick, bool tick_stopped) {
    if (pending_) subject_.learn(states, cpu_, period_, tick_);
    pending_ = false;
    in_.sleep_length_ns = Concrete::lit<64>(sleep_length);
    in_.delta_tick_ns = Concrete::lit<64>(delta_tick);
    in_.tick_stopped = tick_stopped;
    const teo::ConcreteChoice c = subject_.select(states, cpu_, in_);
    return {static_cast<uint32_t>(c.idx.v), c.stop_tick};
  }
  void reflect(uint32_t idx, uint64_t residency, bool got_tick, bool poll_time_limit) {
    period_.last_state_idx = Concrete::lit<32>(idx);
    period_.last_residency_ns = Concrete::lit<64>(residency);
    period_.poll_time_limit = poll_time_limit;
    period_.got_tick = got_tick;
    period_.elapsed_ns = Concrete::lit<64>(residency);
    pending_ = true;
  }

 private:
  const teo::SubjectOps& subject_;
  teo::ConcreteCpu cpu_;
  Word<64> tick_;
  teo::ConcreteInputs in_{};
  teo::ConcretePeriod period_{};
  bool pending_ = false;
};

template <class Driver>
Row run_with(Driver& gov, std::span<const TableEntry> table, uint64_t interval_us,
             const Config& config) {
  const std::vector<State<Concrete>> states = to_states(table);
  const size_t n = states.size();
  const uint64_t tick = tick_nsec(config.hz);
  const uint64_t interval = interval_us * kNsecPerUsec;
  // The polling timeout: the first non-polling state's target residency.
  uint64_t poll_timeout = UINT64_MAX;
  for (const TableEntry& e : table) {
    if (!e.polling) {
      poll_timeout = std::max<uint64_t>(e.target_residency_ns, 1);
      break;
    }
  }

  Row row;
  row.subject = gov.name();
  row.interval_us = interval_us;
  row.wakeups = config.wakeups;
  row.usage.assign(n, 0);

  // The same tick phases for every subject at a given interval.
  Rng rng{config.seed * 0x9e3779b97f4a7c15ULL ^ interval_us};
  const uint64_t periods = config.warmup + config.wakeups;
  for (uint64_t p = 0; p < periods; ++p) {
    const bool counted = p >= config.warmup;
    uint64_t next_tick = 1 + rng.next() % tick;
    bool tick_stopped = false;
    uint64_t t = 0;
    uint64_t selections = 0;
    while (t < interval) {
      if (++selections > kMaxSelectionsPerPeriod) {
        if (counted) ++row.truncated;
        break;
      }
      const uint64_t next_timer =
          config.wake == Wake::timer ? interval : (t / kFarTimerNs + 1) * kFarTimerNs;
      const uint64_t sleep_length = next_timer - t;
      const uint64_t delta_tick =
          tick_stopped ? sleep_length : std::min(next_tick - t, sleep_length);
      const auto [idx, stop_tick] = gov.select(states, sleep_length, delta_tick, tick_stopped);
      if (idx >= n) {
        throw std::logic_error(
            strprintf("%s chose state %u of a %zu-state table", row.subject.c_str(), idx, n));
      }
      if (!tick_stopped && stop_tick && next_timer > next_tick) tick_stopped = true;

      const TableEntry& s = table[idx];
      uint64_t residency = 0;
      bool got_tick = false;
      bool timed_out = false;
      if (s.polling) {
        uint64_t end = interval;
        if (poll_timeout < interval - t) {
          end = t + poll_timeout;
          timed_out = true;
        }
        got_tick = !tick_stopped && next_tick <= end;
        residency = end - t;
        t = end;
      } else {
        uint64_t wake = interval;
        if (!tick_stopped && next_tick < wake) {
          wake = next_tick;
          got_tick = true;
        }
        if (config.wake == Wake::ipi && next_timer < wake) {
          wake = next_timer;
          got_tick = false;
        }
        residency = wake - t + s.exit_latency_ns;
        t = wake + s.exit_latency_ns;
      }
      if (next_tick <= t) next_tick += ((t - next_tick) / tick + 1) * tick;

      if (counted) {
        ++row.usage[idx];
        ++row.selections;
        row.idle_time_ns += residency;
        if (s.polling) row.poll_time_ns += residency;
        if (got_tick) ++row.tick_wakeups;
        if (residency < s.target_residency_ns) {
          for (size_t i = idx; i-- > 0;) {
            if (table[i].disabled) continue;
            ++row.above;
            break;
          }
        } else if (residency > s.exit_latency_ns) {
          for (size_t i = idx + 1; i < n; ++i) {
            if (table[i].disabled) continue;
            if (residency - s.exit_latency_ns >= table[i].target_residency_ns) ++row.below;
            break;
          }
        }
      }
      gov.reflect(idx, residency, got_tick, s.polling && timed_out);
    }
  }
  return row;
}

}  // namespace

Row run_interval(const SubjectOps& subject, std::span<const TableEntry> table, uint64_t interval_us,
                 const Config& config) {
  MenuDriver gov(subject, config, tick_nsec(config.hz));
  return run_with(gov, table, interval_us, config);
}

Row run_interval(const teo::SubjectOps& subject, std::span<const TableEntry> table,
                 uint64_t interval_us, const Config& config) {
  TeoDriver gov(subject, config, tick_nsec(config.hz));
  return run_with(gov, table, interval_us, config);
}

std::vector<Row> sweep(std::span<const teo::SubjectOps* const> subjects,
                       std::span<const TableEntry> table, std::span<const uint64_t> intervals_us,
                       const Config& config) {
  std::vector<Row> rows;
  rows.reserve(subjects.size() * intervals_us.size());
  for (const teo::SubjectOps* s : subjects)
    for (uint64_t us : intervals_us) rows.push_back(run_interval(*s, table, us, config));
  return rows;
}

std::vector<Row> sweep(std::span<const SubjectOps* const> subjects,
                       std::span<const TableEntry> table, std::span<const uint64_t> intervals_us,
                       const Config& config) {
  std::vector<Row> rows;
  rows.reserve(subjects.size() * intervals_us.size());
  for (const SubjectOps* s : subjects)
    for (uint64_t us : intervals_us) rows.push_back(run_interval(*s, table, us, config));
  return rows;
}

// --- output -------------------------------------------------------------------

namespace {

std::string us_text(uint64_t ns) {
  if (ns % kNsecPerUsec == 0) return std::to_string(ns / kNsecPerUsec);
  return strprintf("%.3f", static_cast<double>(ns) / 1000.0);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

constexpr const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
constexpr const char* kDashes[] = {"", "8 4", "3 3", "10 3 2 3", "1 3", "6 2", "2 6", "12 6"};

// The rows of one subject in interval order.
std::vector<const Row*> rows_of(std::span<const Row> rows, const std::string& subject) {
  std::vector<const Row*> out;
  for (const Row& r : rows)
    if (r.subject == subject) out.push_back(&r);
  std::sort(out.begin(), out.end(),
            [](const Row* a, const Row* b) { return a->interval_us < b->interval_us; });
  return out;
}

}  // namespace

std::string describe_table(std::span<const TableEntry> table) {
  std::string out;
  for (const TableEntry& e : table) {
    if (!out.empty()) out += ", ";
    out += e.name + " " + us_text(e.exit_latency_ns) + "/" + us_text(e.target_residency_ns) + " us";
    if (e.polling) out += " POLLING";
    if (e.disabled) out += " disabled";
  }
  return out;
}

std::string to_csv(std::span<const Row> rows, std::span<const TableEntry> table) {
  std::string out =
      "subject,interval_us,wakeups,selections,above,below,above_pct,below_pct,poll_time_us,"
      "idle_time_us,tick_wakeups";
  for (const TableEntry& e : table) {
    out += ',';
    out += csv_field("usage_" + e.name);
  }
  out += "\n";
  for (const Row& r : rows) {
    out += strprintf(
        "%s,%llu,%llu,%llu,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%llu", csv_field(r.subject).c_str(),
        static_cast<unsigned long long>(r.interval_us), static_cast<unsigned long long>(r.wakeups),
        static_cast<unsigned long long>(r.selections), static_cast<unsigned long long>(r.above),
        static_cast<unsigned long long>(r.below), r.above_pct(), r.below_pct(),
        static_cast<double>(r.poll_time_ns) / 1000.0, static_cast<double>(r.idle_time_ns) / 1000.0,
        static_cast<unsigned long long>(r.tick_wakeups));
    for (uint64_t u : r.usage) {
      out += ',';
      out += std::to_string(u);
    }
    out += "\n";
  }
  return out;
}

std::string plot_svg(std::span<const Row> rows, std::span<const std::string> subjects,
                     const std::string& title) {
  constexpr double kWidth = 960, kHeight = 720;
  constexpr double kLeft = 70, kRight = 760, kLegendX = 785;
  constexpr double kPanelTop[2] = {70, 405};
  constexpr double kPanelHeight = 250;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const Row& r : rows) {
    lo = std::min(lo, r.interval_us);
    hi = std::max(hi, r.interval_us);
  }
  if (rows.empty()) lo = hi = 1;
  double llo = std::log10(static_cast<double>(lo)), lhi = std::log10(static_cast<double>(hi));
  const double pad = lhi > llo ? 0.03 * (lhi - llo) : 0.3;
  llo -= pad;
  lhi += pad;
  auto x_of = [&](double us) {
    return kLeft + (std::log10(us) - llo) / (lhi - llo) * (kRight - kLeft);
  };
  auto y_of = [&](int panel, double pct) {
    return kPanelTop[panel] + kPanelHeight - pct / 100.0 * kPanelHeight;
  };

  std::string svg = strprintf(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
      "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
      "<text x=\"%.0f\" y=\"28\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
      kWidth, kHeight, kWidth, kHeight, kLeft, xml_escape(title).c_str());
  const char* panel_names[2] = {"above", "below"};
  const char* panel_titles[2] = {"above % of selections (state too deep)",
                                 "below % of selections (state too shallow)"};
  for (int panel = 0; panel < 2; ++panel) {
    const double top = kPanelTop[panel], bottom = top + kPanelHeight;
    svg += strprintf("<g class=\"panel\" id=\"panel-%s\">\n", panel_names[panel]);
    svg += strprintf("<text x=\"%.0f\" y=\"%.0f\" font-size=\"13\">%s</text>\n", kLeft, top - 10,
                     panel_titles[panel]);
    for (int pct = 0; pct <= 100; pct += 20) {
      const double y = y_of(panel, pct);
      svg += strprintf(
          "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
          "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n",
          kLeft, y, kRight, y, kLeft - 6, y + 4, pct);
    }
    for (int k = static_cast<int>(std::floor(llo)); k <= static_cast<int>(std::ceil(lhi)); ++k) {
      for (int m : {1, 2, 5}) {
        const double v = m * std::pow(10.0, k);
        const double lv = std::log10(v);
        if (lv < llo || lv > lhi) continue;
        const double x = x_of(v);
        svg += strprintf(
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>"
            "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>"
            "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
            x, top, x, bottom, x, bottom, x, bottom + 5, x, bottom + 18, v);
      }
    }
    svg += strprintf(
        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
        "stroke=\"black\"/>\n",
        kLeft, top, kRight - kLeft, kPanelHeight);
    svg += strprintf(
        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">sleep interval (us, log "
        "scale)</text>\n",
        (kLeft + kRight) / 2, bottom + 36);
    // Wider strokes first, so that lines lying on top of each other all show.
    for (size_t i = 0; i < subjects.size(); ++i) {
      const auto mine = rows_of(rows, subjects[i]);
      std::string d;
      for (const Row* r : mine) {
        d += strprintf("%s%.1f,%.1f", d.empty() ? "M" : " L",
                       x_of(static_cast<double>(r->interval_us)),
                       y_of(panel, panel == 0 ? r->above_pct() : r->below_pct()));
      }
      const double width = 1.5 + 1.2 * static_cast<double>(subjects.size() - 1 - i);
      const char* dash = kDashes[i % std::size(kDashes)];
      svg += strprintf(
          "<path class=\"%s\" data-subject=\"%s\" d=\"%s\" fill=\"none\" stroke=\"%s\" "
          "stroke-width=\"%.1f\" stroke-opacity=\"0.85\" stroke-linejoin=\"round\"%s%s%s/>\n",
          panel_names[panel], xml_escape(subjects[i]).c_str(), d.c_str(),
          kColors[i % std::size(kColors)], width, *dash ? " stroke-dasharray=\"" : "", dash,
          *dash ? "\"" : "");
    }
    svg += "</g>\n";
  }
  svg += "<g class=\"legend\">\n";
  for (size_t i = 0; i < subjects.size(); ++i) {
    const double y = kPanelTop[0] + 10 + 24 * static_cast<double>(i);
    const double width = 1.5 + 1.2 * static_cast<double>(subjects.size() - 1 - i);
    const char* dash = kDashes[i % std::size(kDashes)];
    svg += strprintf(
        "<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"%s\" "
        "stroke-width=\"%.1f\"%s%s%s/><text x=\"%.0f\" y=\"%.1f\">%s</text>\n",
        kLegendX, y, kLegendX + 40, y, kColors[i % std::size(kColors)], width,
        *dash ? " stroke-dasharray=\"" : "", dash, *dash ? "\"" : "", kLegendX + 48, y + 4,
        xml_escape(subjects[i]).c_str());
  }
  const double note_y = kPanelTop[0] + 10 + 24 * static_cast<double>(subjects.size()) + 8;
  svg += strprintf(
      "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">Lines that coincide:</text>"
      "<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" fill=\"#555\">the wider is listed "
      "higher.</text>\n",
      kLegendX, note_y, kLegendX, note_y + 14);
  svg += "</g>\n</svg>\n";
  return svg;
}

std::string gnuplot_script(std::span<const Row> rows, std::span<const std::string> subjects,
                           const std::string& title, const std::string& png_path) {
  auto quoted = [](const std::string& s) {
    std::string out = "'";
    for (char c : s) {
      if (c == '\'') out += '\'';
      if (c != '\n' && c != '\r') out += c;
    }
    return out + "'";
  };
  std::string out = "set terminal pngcairo size 960,720 font 'sans,10'\n";
  out += "set output " + quoted(png_path) + "\n";
  for (size_t i = 0; i < subjects.size(); ++i) {
    out += strprintf("$d%zu << EOD\n", i);
    for (const Row* r : rows_of(rows, subjects[i]))
      out += strprintf("%llu %.3f %.3f\n", static_cast<unsigned long long>(r->interval_us),
                       r->above_pct(), r->below_pct());
    out += "EOD\n";
  }
  out += "set multiplot layout 2,1 title " + quoted(title) + "\n";
  out += "set logscale x\nset yrange [0:100]\nset grid\nset key outside right\n";
  out += "set xlabel 'sleep interval (us, log scale)'\n";
  for (int panel = 0; panel < 2; ++panel) {
    out += panel == 0 ? "set ylabel 'above %'\n" : "set ylabel 'below %'\n";
    out += "plot ";
    for (size_t i = 0; i < subjects.size(); ++i) {
      out += strprintf("%s$d%zu using 1:%d with linespoints lw %.1f title %s", i ? ", " : "", i,
                       panel + 2, 1.0 + 0.8 * static_cast<double>(subjects.size() - 1 - i),
                       quoted(subjects[i]).c_str());
    }
    out += "\n";
  }
  out += "unset multiplot\n";
  return out;
}

}  // namespace idlespec::governor::sim
