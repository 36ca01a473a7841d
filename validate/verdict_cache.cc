// Review's verdict cache on disk: the judged text a component's verdicts
// were reached on, and the entries that keep them (validate/verdict_cache.h).
#include "validate/verdict_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "validate/boundaries.h"
#include "validate/framac.h"
#include "validate/framac_text.h"
#include "validate/targets.h"

namespace idlespec::validate {
namespace {

constexpr const char* kMagic = "idlespec-verdict-cache 1\n";
constexpr size_t kMaxEntryBytes = 64u << 20;

// Two FNV-1a 64 variants side by side: the entry's file name. Not relied on
// for integrity (the entry holds its key, compared whole), only to spread names.
std::string name_hash(const std::string& s) {
  uint64_t a = 1469598103934665603ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : s) {
    a = (a ^ c) * 1099511628211ull;
    b = (b ^ (c + 0x5bu)) * 0x100000001b3ull;
  }
  char out[40];
  std::snprintf(out, sizeof out, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return out;
}

// Whole-file bytes, "" when unreadable.
std::string read_all(const std::string& path) {
  std::string out;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return out;
  char buf[1 << 16];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) out.append(buf, n);
  std::fclose(f);
  return out;
}

// Whether `text` has one of `names` as a whole identifier.
bool names_any(const std::string& text, const std::set<std::string>& names) {
  auto ident = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
  for (size_t i = 0; i < text.size();) {
    if (!ident(text[i]) || std::isdigit(static_cast<unsigned char>(text[i]))) {
      // skip a number or punctuation as a whole
      const bool num = std::isdigit(static_cast<unsigned char>(text[i]));
      ++i;
      while (num && i < text.size() && ident(text[i])) ++i;
      continue;
    }
    size_t e = i;
    while (e < text.size() && ident(text[e])) ++e;
    if (names.count(text.substr(i, e - i))) return true;
    i = e;
  }
  return false;
}

// What a program on PATH is: its resolved path, size and modification time.
std::string tool_identity(const std::string& prog) {
  if (prog.empty()) return "-";
  std::vector<std::string> where;
  if (prog.find('/') != std::string::npos) {
    where.push_back(prog);
  } else if (const char* path = std::getenv("PATH")) {
    std::istringstream ps(path);
    for (std::string d; std::getline(ps, d, ':');)
      if (!d.empty()) where.push_back(d + "/" + prog);
  }
  for (const auto& w : where) {
    struct stat st {};
    if (stat(w.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(w.c_str(), X_OK) == 0) {
      std::error_code ec;
      const std::string real = std::filesystem::canonical(w, ec).string();
      return w + " -> " + real + " " + std::to_string(st.st_size) + " " +
             std::to_string(st.st_mtime);
    }
  }
  return prog + " (not found)";
}

// idlespec's own identity: the binary (its spec is built in) and every
// file of the harness directory, by content.
std::string self_identity(const std::string& harness_dir) {
  static std::string cached_dir, cached;
  if (!cached.empty() && cached_dir == harness_dir) return cached;
  std::string id = "binary " + name_hash(read_all("/proc/self/exe")) + "\n";
  std::vector<std::string> files;
  std::error_code ec;
  if (!harness_dir.empty())
    for (auto it = std::filesystem::recursive_directory_iterator(harness_dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec)) files.push_back(it->path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    const std::string body = read_all(f);
    id += "harness " + f.substr(harness_dir.size()) + " " + std::to_string(body.size()) + " " +
          name_hash(body) + "\n";
  }
  cached_dir = harness_dir, cached = id;
  return id;
}

// --- the entry's payload: length-prefixed strings, read strictly ----------

struct Writer {
  std::string out;
  void s(const std::string& v) { out += std::to_string(v.size()) + ":" + v + "\n"; }
  void i(long long v) { s(std::to_string(v)); }
  void d(double v) {
    char b[40];
    std::snprintf(b, sizeof b, "%.17g", v);
    s(b);
  }
  void list(const std::vector<std::string>& v) {
    i(static_cast<long long>(v.size()));
    for (const auto& x : v) s(x);
  }
};

struct Reader {
  const std::string& in;
  size_t at = 0;
  bool ok = true;
  std::string s() {
    std::string v;
    if (!ok) return v;
    size_t len = 0, p = at;
    while (p < in.size() && p - at < 10 && in[p] >= '0' && in[p] <= '9')
      len = len * 10 + static_cast<size_t>(in[p++] - '0');
    if (p == at || p >= in.size() || in[p] != ':' || len > in.size() - p - 1 ||
        p + 1 + len >= in.size() || in[p + 1 + len] != '\n') {
      ok = false;
      return v;
    }
    v = in.substr(p + 1, len);
    at = p + 2 + len;
    return v;
  }
  long long i() {
    const std::string v = s();
    if (!ok) return 0;
    char* end = nullptr;
    const long long n = std::strtoll(v.c_str(), &end, 10);
    if (v.empty() || *end) ok = false;
    return n;
  }
  double d() {
    const std::string v = s();
    if (!ok) return 0;
    char* end = nullptr;
    const double n = std::strtod(v.c_str(), &end);
    if (v.empty() || *end) ok = false;
    return n;
  }
  size_t count() {
    const long long n = i();
    if (n < 0 || n > 1000000) ok = false;
    return ok ? static_cast<size_t>(n) : 0;
  }
  std::vector<std::string> list() {
    std::vector<std::string> v(count());
    for (auto& x : v) x = s();
    return v;
  }
};

// Every field of a verdict and a part is written and read below: a field
// added to them (validate.h) must be added here too, or a reused verdict
// would lose it. These sizes (x86-64, libstdc++) say when one was.
#if defined(__x86_64__) && defined(__GLIBCXX__)
static_assert(sizeof(ClauseVerdict) == 696 && sizeof(ClauseVerdict::OnTarget) == 128,
              "a ClauseVerdict field was added: write and read it in verdict_cache.cc");
static_assert(sizeof(Part) == 280 && sizeof(RunRecord) == 104 && sizeof(FoundFunction) == 80,
              "a Part field was added: write and read it in verdict_cache.cc");
#endif

void write_clause(Writer& w, const ClauseVerdict& v) {
  for (const std::string* f : {&v.id, &v.component, &v.function, &v.file, &v.status, &v.coverage})
    w.s(*f);
  w.i(v.line);
  w.list(v.counterexamples);
  w.s(v.replay);
  w.i(static_cast<long long>(v.failing_inputs.size()));
  for (const auto& [k, t] : v.failing_inputs) w.s(k), w.s(t);
  for (const std::string* f : {&v.error, &v.note, &v.follows_from, &v.era, &v.proof, &v.proof_note,
                               &v.alarm, &v.alarm_file, &v.subject, &v.spec_note, &v.fixed_by})
    w.s(*f);
  w.i(v.alarm_line);
  w.i(v.subjects_compared);
  w.list(v.fails_like);
  w.i(static_cast<long long>(v.targets.size()));
  for (const auto& t : v.targets) w.s(t.target), w.s(t.status), w.s(t.detail), w.s(t.proof);
}

ClauseVerdict read_clause(Reader& r) {
  ClauseVerdict v;
  for (std::string* f : {&v.id, &v.component, &v.function, &v.file, &v.status, &v.coverage})
    *f = r.s();
  v.line = static_cast<int>(r.i());
  v.counterexamples = r.list();
  v.replay = r.s();
  v.failing_inputs.resize(r.count());
  for (auto& [k, t] : v.failing_inputs) k = r.s(), t = r.s();
  for (std::string* f : {&v.error, &v.note, &v.follows_from, &v.era, &v.proof, &v.proof_note,
                         &v.alarm, &v.alarm_file, &v.subject, &v.spec_note, &v.fixed_by})
    *f = r.s();
  v.alarm_line = static_cast<int>(r.i());
  v.subjects_compared = r.i() != 0;
  v.fails_like = r.list();
  v.targets.resize(r.count());
  for (auto& t : v.targets) t.target = r.s(), t.status = r.s(), t.detail = r.s(), t.proof = r.s();
  return v;
}

std::string write_run(const CachedRun& run) {
  Writer w;
  const Part& p = run.part;
  w.s(p.component), w.s(p.file);
  w.i(static_cast<long long>(p.functions.size()));
  for (const auto& f : p.functions)
    w.s(f.name), w.i(f.found), w.i(f.first_line), w.i(f.last_line), w.s(f.text);
  w.list(p.prelude);
  w.i(static_cast<long long>(p.clauses.size()));
  for (const auto& v : p.clauses) write_clause(w, v);
  w.i(static_cast<long long>(p.runs.size()));
  for (const auto& r : p.runs) w.s(r.build), w.s(r.mode), w.d(r.seconds), w.s(r.outcome);
  w.list(p.notes);
  w.s(p.build_error);
  w.list(p.escapes);
  w.d(p.seconds);
  w.list(run.notes);
  w.s("end");
  return w.out;
}

bool read_run(const std::string& payload, CachedRun& run) {
  Reader r{payload};
  Part& p = run.part;
  p.component = r.s(), p.file = r.s();
  p.functions.resize(r.count());
  for (auto& f : p.functions) {
    f.name = r.s();
    f.found = r.i() != 0;
    f.first_line = static_cast<int>(r.i());
    f.last_line = static_cast<int>(r.i());
    f.text = r.s();
  }
  p.prelude = r.list();
  p.clauses.resize(r.count());
  for (auto& v : p.clauses) v = read_clause(r);
  p.runs.resize(r.count());
  for (auto& x : p.runs) x.build = r.s(), x.mode = r.s(), x.seconds = r.d(), x.outcome = r.s();
  p.notes = r.list();
  p.build_error = r.s();
  p.escapes = r.list();
  p.seconds = r.d();
  run.notes = r.list();
  return r.ok && r.s() == "end" && r.ok && r.at == payload.size();
}

// Every string of the run through `f`.
template <typename F>
void each_string(CachedRun& run, F f) {
  Part& p = run.part;
  for (std::string* s : {&p.file, &p.build_error, &p.temp_dir}) f(*s);
  for (auto& fn : p.functions) f(fn.text);
  for (auto* l : {&p.prelude, &p.notes, &p.escapes, &run.notes})
    for (auto& s : *l) f(s);
  for (auto& r : p.runs) f(r.mode), f(r.outcome);
  for (auto& v : p.clauses) {
    for (std::string* s : {&v.file, &v.coverage, &v.replay, &v.error, &v.note, &v.proof_note,
                           &v.alarm, &v.alarm_file, &v.spec_note})
      f(*s);
    for (auto& s : v.counterexamples) f(s);
    for (auto& [k, t] : v.failing_inputs) f(k), f(t);
    for (auto& t : v.targets) f(t.detail);
  }
}

// The directory is idlespec's: a real directory of this user's, writable by
// no one else. "" or why not.
std::string check_dir(const std::string& dir) {
  struct stat st {};
  if (lstat(dir.c_str(), &st) != 0) return "cannot read the cache directory " + dir;
  if (!S_ISDIR(st.st_mode)) return "the cache directory " + dir + " is not a directory";
  if (st.st_uid != geteuid()) return "the cache directory " + dir + " is not the user's own";
  if (st.st_mode & (S_IWGRP | S_IWOTH))
    return "the cache directory " + dir + " is writable by others";
  return "";
}

const std::set<std::string> kStatuses = {"held",    "failed", "accepted", "uncovered",
                                         "unknown", "error",  "n/a",      "absent"};

}  // namespace

const char* const kRootPlaceholder = "\x01idlespec-side-root\x01";

std::string default_cache_dir() {
  const std::string dir = cache_dir();
  return dir.empty() ? "" : dir + "/verdicts";
}

namespace {

// " (line N)" in an extractor's prelude entry or note, N as "#".
std::string unnumbered_where(std::string s) {
  for (size_t at = s.find("(line "); at != std::string::npos; at = s.find("(line ", at + 1)) {
    size_t e = at + 6;
    while (e < s.size() && s[e] >= '0' && s[e] <= '9') ++e;
    if (e > at + 6 && e < s.size() && s[e] == ')') s.replace(at + 6, e - at - 6, "#");
  }
  return s;
}

// The code with the number of every #line directive as "#": a physical line
// "#line N ..." that does not continue the line before it (a backslash
// there would make it part of a string or a directive).
std::string unnumbered_code(const std::string& code) {
  std::string out;
  size_t at = 0;
  bool continued = false;
  while (at < code.size()) {
    size_t end = code.find('\n', at);
    if (end == std::string::npos) end = code.size();
    std::string line = code.substr(at, end - at);
    if (!continued && line.rfind("#line ", 0) == 0) {
      size_t e = 6;
      while (e < line.size() && line[e] >= '0' && line[e] <= '9') ++e;
      if (e > 6) line.replace(6, e - 6, "#");
    }
    continued = !line.empty() && line.back() == '\\';
    out += line;
    if (end < code.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

// The judged text; `numbered` false: every line number in it as "#" (where
// the file's items sit, not what they say).
std::string key_text(const Options& o, const Component& c, const std::string& display,
                     const std::string& text, bool numbered) {
  std::ostringstream k;
  k << kMagic << self_identity(o.harness_dir);
  // The options that change a verdict or what a report says.
  k << "component " << c.name << "\nfile " << display << "\nbudget " << o.budget_seconds
    << "\nsanitizers " << o.sanitizers << "\nsampled " << o.sampled << "\nseed " << o.seed
    << "\nmemory " << o.memory_mb << "\nfuzz " << o.fuzz_seconds << "\ncases " << o.property_cases
    << "\nsubject " << o.subject << " " << o.subject_given << "\nsandbox " << o.sandbox
    << "\ndisk-quota " << sandbox_options().disk_quota_mb << "\nharness-dir " << o.harness_dir
    << "\nsparse " << o.sparse << "\n";
  for (const char* env : {"IDLESPEC_FRAMAC", "IDLESPEC_WP_SHIMS", "IDLESPEC_BWRAP", "PATH"})
    if (const char* v = std::getenv(env)) k << "env " << env << "=" << v << "\n";
  for (const auto& i : o.inputs) k << "input " << i << "\n";
  for (const auto& f : o.functions) k << "function " << f << "\n";
  for (const auto& t : o.targets) k << "asked target " << t << "\n";
  std::vector<std::string> missing;
  std::string host_only;
  for (const auto& t : targets_for(o, c.name, missing, host_only)) k << "target " << t << "\n";
  for (const auto& m : missing) k << "missing " << m << "\n";
  k << "host-only " << host_only << "\n";
  // The tools' identities.
  for (const std::string& tool :
       {o.cc, o.fuzz_cc, o.sparse, std::string("frama-c"), std::string("z3"), std::string("why3")})
    k << "tool " << tool_identity(tool) << "\n";
  for (const auto& t : target_archs())
    k << "tool " << tool_identity(t.cc) << "\ntool " << tool_identity(t.emulator) << "\n";
  // What the checks extract and compile: the component's functions and the
  // governor's extra ones, with all they reach, numbered as in the file.
  std::vector<std::string> names = c.functions;
  for (const char* extra : {"menu_reflect", "get_typical_interval"}) names.push_back(extra);
  const Extraction ex = extract(text, names, display);
  const std::string code = numbered ? ex.code : unnumbered_code(ex.code);
  k << "extraction " << code.size() << "\n" << code << "\n";
  for (const auto& f : ex.functions)
    k << "found " << f.name << " " << f.found << " "
      << (numbered ? std::to_string(f.first_line) + " " + std::to_string(f.last_line) : "# #")
      << "\n";
  for (const auto& p : ex.prelude) k << "prelude " << (numbered ? p : unnumbered_where(p)) << "\n";
  for (const auto& n : ex.notes)
    k << "extract-note " << (numbered ? n : unnumbered_where(n)) << "\n";
  // What they read of the whole file.
  k << "braces " << unbalanced_brace(text) << "\nconflicts " << conflict_markers(text) << "\n";
  // (framac_pass refuses by the same list of -D names.)
  const AnalysisText at = analysis_text(
      text, framac_define_names(c.name, Target{display, display, text, c.functions, {}, {}}));
  k << "annotations " << at.annotations << "\n";
  for (const auto& r : at.refusals) k << "refusal " << r << "\n";
  for (const auto& m : at.macros) k << "macro " << m << "\n";
  std::istringstream is(text);
  int n = 0;
  for (std::string line; std::getline(is, line);) {
    ++n;
    const size_t first = line.find_first_not_of(" \t");
    if ((first != std::string::npos && line[first] == '#') ||
        line.find("DEFINE_PER_CPU") != std::string::npos)
      k << "line " << (numbered ? std::to_string(n) : "#") << " " << line << "\n";
  }
  return k.str();
}

// The names the harness directory's macros read __LINE__ through: those
// #defined with __LINE__ in their body (kernel.h's WARN_ON(), idle_env.h's
// line-tagged steps), and those #defined through one of them.
const std::set<std::string>& line_reading_macros(const std::string& harness_dir) {
  static std::string cached_dir;
  static std::set<std::string> cached;
  if (cached_dir == harness_dir && !cached.empty()) return cached;
  std::vector<std::pair<std::string, std::string>> defines;  // name -> body
  std::error_code ec;
  if (!harness_dir.empty())
    for (auto it = std::filesystem::recursive_directory_iterator(harness_dir, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      std::istringstream is(read_all(it->path().string()));
      std::string logical;
      for (std::string line; std::getline(is, line);) {
        const bool more = !line.empty() && line.back() == '\\';
        logical += more ? line.substr(0, line.size() - 1) : line;
        if (more) continue;
        const size_t h = logical.find_first_not_of(" \t");
        if (h != std::string::npos && logical[h] == '#') {
          std::istringstream ls(logical.substr(h + 1));
          std::string word, name;
          if (ls >> word && word == "define" && ls >> name) {
            const size_t paren = name.find('(');
            if (paren != std::string::npos) name.resize(paren);
            std::string body;
            std::getline(ls, body);
            defines.push_back({name, body});
          }
        }
        logical.clear();
      }
    }
  std::set<std::string> names = {"__LINE__"};
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, body] : defines)
      if (!names.count(name) && names_any(body, names)) grew = names.insert(name).second || grew;
  }
  cached_dir = harness_dir, cached = names;
  return cached;
}

}  // namespace

std::string judged_text(const Options& o, const Component& c, const std::string& display,
                        const std::string& text) {
  return key_text(o, c, display, text, true);
}

bool same_but_lines(const Options& o, const Component& c, const std::string& display,
                    const std::string& a, const std::string& b) {
  if (key_text(o, c, display, a, false) != key_text(o, c, display, b, false)) return false;
  if (judged_text(o, c, display, a) == judged_text(o, c, display, b)) return true;
  // Moved: the same only if no code the checks build reads its line numbers.
  const std::set<std::string>& readers = line_reading_macros(o.harness_dir);
  std::vector<std::string> names = c.functions;
  for (const char* extra : {"menu_reflect", "get_typical_interval"}) names.push_back(extra);
  for (const std::string* side : {&a, &b})
    if (names_any(extract(*side, names, display).code, readers)) return false;
  return true;
}

std::string run_text(const CachedRun& run) { return write_run(run); }

bool run_from_text(const std::string& text, CachedRun& run) { return read_run(text, run); }

bool reusable(const CachedRun& run) {
  const Part& p = run.part;
  if (!p.escapes.empty() || !p.build_error.empty() || !p.temp_dir.empty() || p.clauses.empty())
    return false;
  for (const auto& n : p.notes)
    if (n.find("interrupted") != std::string::npos) return false;
  for (const auto& v : p.clauses)
    if (v.status == "error" || v.status == "unknown" || !kStatuses.count(v.status)) return false;
  return true;
}

CachedRun with_root(CachedRun run, const std::string& from, const std::string& to) {
  if (from.empty()) return run;
  each_string(run, [&](std::string& s) {
    for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
      s.replace(at, from.size(), to);
  });
  return run;
}

std::string cache_entry_path(const std::string& dir, const std::string& key) {
  return dir + "/" + name_hash(key) + ".verdicts";
}

bool cache_load(const std::string& dir, const std::string& key, const Component& c, CachedRun& out,
                std::string& note) {
  note.clear();
  if (!check_dir(dir).empty()) return false;
  const std::string path = cache_entry_path(dir, key);
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno != ENOENT) note = "cache entry " + path + " ignored: it cannot be opened (a link?)";
    return false;
  }
  auto ignored = [&](const std::string& why) {
    note = "cache entry " + path + " ignored: " + why;
    close(fd);
    return false;
  };
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return ignored("not a regular file");
  if (st.st_uid != geteuid()) return ignored("not the user's own");
  if (st.st_mode & (S_IWGRP | S_IWOTH)) return ignored("writable by others");
  if (static_cast<size_t>(st.st_size) > kMaxEntryBytes) return ignored("too large");
  std::string body;
  char buf[1 << 16];
  for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0 && body.size() <= kMaxEntryBytes;)
    body.append(buf, static_cast<size_t>(n));
  close(fd);
  note = "cache entry " + path + " ignored: ";
  Reader r{body};
  if (body.compare(0, std::string(kMagic).size(), kMagic) != 0)
    return note += "not this version's", false;
  r.at = std::string(kMagic).size();
  const std::string stored_key = r.s();
  const std::string payload = r.s();
  const std::string sum = r.s();
  if (!r.ok || r.at != body.size()) return note += "malformed", false;
  if (stored_key != key) return note += "made for another text or other options", false;
  if (sum != name_hash(payload)) return note += "its checksum does not match (corrupt)", false;
  CachedRun run;
  if (!read_run(payload, run)) return note += "malformed verdicts", false;
  // Verdicts of this component, every one a known status, every clause of
  // the component there, nothing a rerun would not give again.
  std::set<std::pair<std::string, std::string>> have;
  for (const auto& v : run.part.clauses) {
    if (v.component != c.name) return note += "verdicts of another component", false;
    have.insert({v.id, v.function});
  }
  if (run.part.component != c.name) return note += "verdicts of another component", false;
  // Every clause of a function the run found (a file without POWER8's
  // power7_idle_insn() has no verdict on it, as validate gives none).
  std::set<std::string> found;
  for (const auto& f : run.part.functions)
    if (f.found) found.insert(f.name);
  for (const auto& [id, fn] : c.clauses)
    if (found.count(fn) && !have.count({id, fn})) return note += "no verdict for " + id, false;
  if (!reusable(run)) return note += "verdicts that are not reused", false;
  note.clear();
  out = std::move(run);
  utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);  // used now: pruned last
  return true;
}

CacheBounds cache_bounds() {
  CacheBounds b;
  auto number = [](const char* env, double fallback) {
    const char* v = std::getenv(env);
    if (!v || !*v) return fallback;
    char* end = nullptr;
    const double n = std::strtod(v, &end);
    return *end || !(n >= 0) ? fallback : n;
  };
  b.max_bytes = static_cast<uint64_t>(number("IDLESPEC_VERDICT_CACHE_MB", 256) * (1u << 20));
  b.max_age_seconds = number("IDLESPEC_VERDICT_CACHE_DAYS", 30) * 86400;
  return b;
}

size_t cache_prune(const std::string& dir, const CacheBounds& bounds) {
  if (!check_dir(dir).empty()) return 0;
  struct Entry {
    std::string path;
    time_t mtime;
    uint64_t bytes;
  };
  std::vector<Entry> entries;
  size_t removed = 0;
  const time_t now = time(nullptr);
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool entry = name.size() > 9 && name.compare(name.size() - 9, 9, ".verdicts") == 0;
    const bool tmp = name.rfind(".tmp-", 0) == 0;
    if (!entry && !tmp) continue;
    struct stat st {};
    if (lstat(it->path().c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid())
      continue;
    const double age = difftime(now, st.st_mtime);
    // A temporary file an interrupted store left (an hour is far beyond a
    // store's time), or an entry unused for longer than the bound.
    if ((tmp && age > 3600) || (entry && age > bounds.max_age_seconds)) {
      if (unlink(it->path().c_str()) == 0) ++removed;
      continue;
    }
    if (entry)
      entries.push_back({it->path().string(), st.st_mtime, static_cast<uint64_t>(st.st_size)});
  }
  uint64_t total = 0;
  for (const auto& e : entries) total += e.bytes;
  // The least recently used first (a load renews an entry's time).
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.mtime != b.mtime ? a.mtime < b.mtime : a.path < b.path;
  });
  for (const auto& e : entries) {
    if (total <= bounds.max_bytes) break;
    if (unlink(e.path.c_str()) == 0) ++removed, total -= e.bytes;
  }
  return removed;
}

std::string cache_store(const std::string& dir, const std::string& key, const CachedRun& run) {
  if (!reusable(run)) return "";
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) {
    std::filesystem::create_directories(std::filesystem::path(dir).parent_path(), ec);
    if (mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
      return "cannot create the cache directory " + dir;
  }
  if (const std::string why = check_dir(dir); !why.empty()) return why;
  Writer w;
  const std::string payload = write_run(run);
  w.out = kMagic;
  w.s(key);
  w.s(payload);
  w.s(name_hash(payload));
  std::string tmp = dir + "/.tmp-XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) return "cannot write in the cache directory " + dir;
  fchmod(fd, 0600);
  size_t done = 0;
  while (done < w.out.size()) {
    const ssize_t n = write(fd, w.out.data() + done, w.out.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  close(fd);
  if (done != w.out.size() || rename(tmp.c_str(), cache_entry_path(dir, key).c_str()) != 0) {
    unlink(tmp.c_str());
    return "cannot write in the cache directory " + dir;
  }
  cache_prune(dir, cache_bounds());  // bounded after every store
  return "";
}

}  // namespace idlespec::validate
