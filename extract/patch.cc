// Patch intake for `idlespec review` (see patch.h).
#include "extract/patch.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <exception>
#include <filesystem>
#include <set>
#include <system_error>

#include "extract/extract.h"
#include "sandbox/process.h"

extern char** environ;

namespace idlespec::extraction {
namespace {

namespace fs = std::filesystem;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool istarts_with(std::string_view s, std::string_view p) {
  if (s.size() < p.size()) return false;
  for (size_t i = 0; i < p.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) !=
        std::tolower(static_cast<unsigned char>(p[i])))
      return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

struct Line {
  std::string_view text;  // without "\n" and a trailing "\r"
  size_t offset;          // byte offset of the line in the input
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view l = text.substr(pos, nl - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    lines.push_back({l, pos});
    pos = nl + 1;
  }
  return lines;
}

// A path as written after "--- ", "+++ ", "rename from " ...: C-quoted
// ("a/with\ttab") or plain, a tab-separated timestamp dropped.
std::string parse_path_token(std::string_view s, size_t* consumed = nullptr) {
  std::string out;
  if (!s.empty() && s.front() == '"') {
    size_t i = 1;
    for (; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] != '\\' || i + 1 >= s.size()) {
        out += s[i];
        continue;
      }
      const char e = s[++i];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'a':
          out += '\a';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'r':
          out += '\r';
          break;
        case 'v':
          out += '\v';
          break;
        default:
          if (e >= '0' && e <= '7') {  // up to three octal digits (UTF-8 bytes)
            int v = 0, k = 0;
            while (k < 3 && i < s.size() && s[i] >= '0' && s[i] <= '7')
              v = v * 8 + (s[i++] - '0'), ++k;
            --i;
            out += static_cast<char>(v);
          } else {
            out += e;
          }
      }
    }
    if (consumed) *consumed = std::min(i + 1, s.size());
    return out;
  }
  const size_t tab = s.find('\t');
  if (tab != std::string_view::npos) s = s.substr(0, tab);
  if (consumed) *consumed = s.size();
  return std::string(trim(s));
}

bool is_dev_null(std::string_view p) { return p == "/dev/null"; }

// "a/", "b/", and git's mnemonic prefixes "i/", "w/", "c/", "o/".
bool one_letter_prefix(std::string_view p) {
  return p.size() > 2 && std::isalpha(static_cast<unsigned char>(p[0])) && p[1] == '/';
}

std::string_view first_component(std::string_view p) {
  const size_t slash = p.find('/');
  return slash == std::string_view::npos ? std::string_view() : p.substr(0, slash);
}

std::string drop_first_component(const std::string& p) {
  const size_t slash = p.find('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// Remove the leading component the diff was written with (a/ b/, or
// linux.orig/ linux/); returns the -p level that corresponds (0 or 1), or -1
// when the paths do not decide it.
int strip_paths(std::string& old_path, std::string& new_path, bool git_header) {
  const bool old_null = is_dev_null(old_path), new_null = is_dev_null(new_path);
  if (old_null && new_null) return -1;
  if (!old_null && !new_null) {
    if (one_letter_prefix(old_path) && one_letter_prefix(new_path) &&
        (old_path[0] != new_path[0] || git_header)) {
      old_path = old_path.substr(2), new_path = new_path.substr(2);
      return 1;
    }
    const std::string_view a = first_component(old_path), b = first_component(new_path);
    if (!git_header && !a.empty() && !b.empty() && a != b) {  // linux.orig/x.c linux/x.c
      old_path = drop_first_component(old_path), new_path = drop_first_component(new_path);
      return 1;
    }
    return 0;  // "x.c.orig x.c", "lib/x.c lib/x.c", git --no-prefix
  }
  std::string& p = old_null ? new_path : old_path;
  if (starts_with(p, old_null ? "b/" : "a/") || (git_header && one_letter_prefix(p))) {
    p = p.substr(2);
    return 1;
  }
  return git_header ? 0 : -1;
}

// "diff --git a/X b/Y": the two paths (ambiguous with spaces: prefer equal halves).
void parse_git_header(std::string_view rest, std::string& a, std::string& b) {
  a.clear(), b.clear();
  if (!rest.empty() && rest.front() == '"') {
    size_t used = 0;
    a = parse_path_token(rest, &used);
    b = parse_path_token(trim(rest.substr(used)));
    return;
  }
  const size_t q = rest.find(" \"");
  if (q != std::string_view::npos) {
    a = std::string(rest.substr(0, q));
    b = parse_path_token(rest.substr(q + 1));
    return;
  }
  // Equal halves: "P1/x P2/x" where the parts after the prefixes match.
  if (rest.size() % 2 == 1 && rest[rest.size() / 2] == ' ') {
    const std::string_view l = rest.substr(0, rest.size() / 2),
                           r = rest.substr(rest.size() / 2 + 1);
    if (l == r || (one_letter_prefix(l) && one_letter_prefix(r) && l.substr(2) == r.substr(2))) {
      a = std::string(l), b = std::string(r);
      return;
    }
  }
  size_t sp = rest.find(" b/");
  if (sp == std::string_view::npos) sp = rest.rfind(' ');
  if (sp == std::string_view::npos) {
    a = std::string(rest);
    return;
  }
  a = std::string(rest.substr(0, sp));
  b = std::string(trim(rest.substr(sp + 1)));
}

// "@@ -l[,s] +l[,s] @@ section"
bool parse_hunk_header(std::string_view l, Hunk& h) {
  if (!starts_with(l, "@@ -")) return false;
  size_t i = 4;
  auto number = [&](int& out) {
    if (i >= l.size() || !std::isdigit(static_cast<unsigned char>(l[i]))) return false;
    long v = 0;
    while (i < l.size() && std::isdigit(static_cast<unsigned char>(l[i]))) {
      v = v * 10 + (l[i++] - '0');
      if (v > 100000000) return false;
    }
    out = static_cast<int>(v);
    return true;
  };
  if (!number(h.old_start)) return false;
  h.old_count = 1;
  if (i < l.size() && l[i] == ',' && (++i, !number(h.old_count))) return false;
  if (i + 1 >= l.size() || l[i] != ' ' || l[i + 1] != '+') return false;
  i += 2;
  if (!number(h.new_start)) return false;
  h.new_count = 1;
  if (i < l.size() && l[i] == ',' && (++i, !number(h.new_count))) return false;
  if (!starts_with(l.substr(i), " @@")) return false;
  h.section = std::string(trim(l.substr(i + 3)));
  return true;
}

// Reads the hunks following a "+++" line; `i` is the first line after it.
void parse_hunks(const std::vector<Line>& lines, size_t& i, FilePatch& fp,
                 std::vector<std::string>& warnings) {
  while (true) {
    // Mail archives sometimes put a blank line between "+++" and "@@".
    size_t j = i;
    while (j < lines.size() && trim(lines[j].text).empty()) ++j;
    Hunk h;
    if (j >= lines.size() || !parse_hunk_header(lines[j].text, h)) return;
    i = j + 1;
    int old_rem = h.old_count, new_rem = h.new_count;
    int old_line = h.old_count ? h.old_start : h.old_start + 1;  // next line number of each side
    int new_line = h.new_count ? h.new_start : h.new_start + 1;
    int block_old = 0, block_new = 0;  // first old/new line of the current change block (0: none)
    int rem_first = 0, rem_last = 0, add_first = 0, add_last = 0;
    auto flush = [&] {
      if (block_old == 0) return;
      if (!fp.is_creation()) {
        if (rem_first)
          fp.old_changed.emplace_back(rem_first, rem_last);
        else
          fp.old_changed.emplace_back(std::max(1, block_old - 1), std::max(1, block_old - 1));
      }
      if (!fp.is_deletion()) {
        if (add_first)
          fp.new_changed.emplace_back(add_first, add_last);
        else
          fp.new_changed.emplace_back(std::max(1, block_new - 1), std::max(1, block_new - 1));
      }
      block_old = block_new = rem_first = rem_last = add_first = add_last = 0;
    };
    auto open_block = [&] {
      if (block_old == 0) block_old = old_line, block_new = new_line;
    };
    while ((old_rem > 0 || new_rem > 0) && i < lines.size()) {
      const std::string_view l = lines[i].text;
      const char c = l.empty() ? ' ' : l[0];  // an empty line: a context line whose blank was lost
      if (c == ' ') {
        if (old_rem == 0 || new_rem == 0) break;
        flush();
        ++old_line, ++new_line, --old_rem, --new_rem;
      } else if (c == '-') {
        if (old_rem == 0) break;
        open_block();
        if (!rem_first) rem_first = old_line;
        rem_last = old_line++;
        --old_rem;
      } else if (c == '+') {
        if (new_rem == 0) break;
        open_block();
        if (!add_first) add_first = new_line;
        add_last = new_line++;
        --new_rem;
      } else if (c != '\\') {  // "\ No newline at end of file" counts for neither side
        break;
      }
      ++i;
    }
    flush();
    while (i < lines.size() && starts_with(lines[i].text, "\\")) ++i;
    if (old_rem > 0 || new_rem > 0) {
      h.truncated = true;
      warnings.push_back(fp.new_path + ": hunk @@ -" + std::to_string(h.old_start) + "," +
                         std::to_string(h.old_count) + " +" + std::to_string(h.new_start) + "," +
                         std::to_string(h.new_count) + " @@ ends early (" +
                         std::to_string(old_rem) + " old and " + std::to_string(new_rem) +
                         " new lines missing)");
    }
    fp.hunks.push_back(std::move(h));
  }
}

bool is_mbox_from_line(const std::vector<Line>& lines, size_t i) {
  // "From <sender> <date>" starting a message: first line or after a blank line.
  return starts_with(lines[i].text, "From ") && lines[i].text.size() > 5 &&
         lines[i].text[5] != ' ' && (i == 0 || trim(lines[i - 1].text).empty());
}

bool is_title_line(const std::vector<Line>& lines, size_t i) {
  const std::string_view l = lines[i].text;
  return (starts_with(l, "[PATCH") || starts_with(l, "[RFC") || starts_with(l, "Re: [PATCH") ||
          starts_with(l, "RE: [PATCH")) &&
         (i == 0 || trim(lines[i - 1].text).empty());
}

// A diff marker behind one or more "> " quote prefixes.
bool quoted_diff_line(std::string_view l) {
  size_t j = 0;
  while (j < l.size() && (l[j] == ' ' || l[j] == '\t')) ++j;
  int depth = 0;
  while (j < l.size() && l[j] == '>') {
    ++depth, ++j;
    while (j < l.size() && l[j] == ' ') ++j;
  }
  if (depth == 0) return false;
  const std::string_view r = l.substr(j);
  return starts_with(r, "diff --git ") || starts_with(r, "--- a/") || starts_with(r, "+++ b/") ||
         (starts_with(r, "@@ -") && r.size() > 4 && std::isdigit(static_cast<unsigned char>(r[4])));
}

bool has_quoted_diff(std::string_view text, const std::vector<Line>& lines) {
  for (const Line& l : lines)
    if (quoted_diff_line(l.text)) return true;
  // Archives that flattened the message onto a few long lines.
  for (std::string_view m : {"> diff --git a/", "> --- a/", "> +++ b/", "> @@ -"})
    if (text.find(m) != std::string_view::npos) return true;
  return false;
}

std::string not_text_reason(std::string_view text) {
  if (text.find('\0') != std::string_view::npos)
    return "the input is not text (it contains NUL bytes)";
  size_t control = 0;
  for (const char ch : text) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v' && c != 0x1b)
      ++control;
  }
  if (control * 100 > text.size()) return "the input is not text (it contains control bytes)";
  return {};
}

struct ParseResult {
  ParsedPatch parsed;
  std::vector<size_t> file_offsets;  // byte offset where each file's block starts
};

ParseResult parse_impl(std::string_view text) {
  ParseResult res;
  ParsedPatch& out = res.parsed;
  if (std::string reason = not_text_reason(text); !reason.empty()) {
    out.error = reason;
    return res;
  }
  const std::vector<Line> lines = split_lines(text);
  std::vector<std::string> titles;
  int message = 0;
  bool message_has_diff = false;
  bool encoded = false;
  int strip = -1;
  bool mixed_strip = false;
  auto boundary = [&] {
    if (message_has_diff) ++message, message_has_diff = false;
  };
  auto add_file = [&](FilePatch&& fp, int file_strip, size_t offset) {
    if (file_strip >= 0) {
      if (strip >= 0 && strip != file_strip) mixed_strip = true;
      if (strip < 0) strip = file_strip;
    }
    fp.patch_index = message;
    message_has_diff = true;
    out.files.push_back(std::move(fp));
    res.file_offsets.push_back(offset);
  };

  size_t i = 0;
  while (i < lines.size()) {
    const std::string_view l = lines[i].text;
    if (starts_with(l, "diff --git ")) {
      const size_t offset = lines[i].offset;
      FilePatch fp;
      parse_git_header(l.substr(11), fp.old_path, fp.new_path);
      std::string from, to;  // rename/copy from/to
      bool created = false, deleted = false;
      ++i;
      while (i < lines.size()) {
        const std::string_view h = lines[i].text;
        if (starts_with(h, "new file mode ") || starts_with(h, "new mode ")) {
          created = created || starts_with(h, "new file mode ");
          if (trim(h.substr(h.rfind(' ') + 1)) == "120000") fp.symlink = true;
        } else if (starts_with(h, "deleted file mode ")) {
          deleted = true;
        } else if (starts_with(h, "rename from ") || starts_with(h, "copy from ")) {
          from = parse_path_token(h.substr(h.find(" from ") + 6));
        } else if (starts_with(h, "rename to ") || starts_with(h, "copy to ")) {
          to = parse_path_token(h.substr(h.find(" to ") + 4));
        } else if (starts_with(h, "Binary files ")) {
          fp.binary = true;
        } else if (h == "GIT binary patch") {
          fp.binary = true;
          ++i;  // "literal N"/"delta N" blocks of base85 lines, separated by blank lines
          while (i < lines.size() &&
                 (!trim(lines[i].text).empty() ||
                  (i + 1 < lines.size() && (starts_with(lines[i + 1].text, "literal ") ||
                                            starts_with(lines[i + 1].text, "delta ")))))
            ++i;
          continue;
        } else if (!(starts_with(h, "index ") || starts_with(h, "old mode ") ||
                     starts_with(h, "new mode ") || starts_with(h, "similarity index ") ||
                     starts_with(h, "dissimilarity index ") || starts_with(h, "rename old ") ||
                     starts_with(h, "rename new "))) {
          break;
        }
        ++i;
      }
      int file_strip = strip_paths(fp.old_path, fp.new_path, true);
      if (!from.empty()) fp.old_path = from;
      if (!to.empty()) fp.new_path = to;
      if (created) fp.old_path = "/dev/null";
      if (deleted) fp.new_path = "/dev/null";
      if (i + 1 < lines.size() && starts_with(lines[i].text, "--- ") &&
          starts_with(lines[i + 1].text, "+++ ")) {
        std::string o = parse_path_token(lines[i].text.substr(4));
        std::string n = parse_path_token(lines[i + 1].text.substr(4));
        const int s = strip_paths(o, n, true);
        if (s >= 0) file_strip = s;
        fp.old_path = o, fp.new_path = n;
        i += 2;
        parse_hunks(lines, i, fp, out.warnings);
      }
      add_file(std::move(fp), file_strip, offset);
      continue;
    }
    if (starts_with(l, "--- ") && i + 1 < lines.size() && starts_with(lines[i + 1].text, "+++ ")) {
      const size_t offset = lines[i].offset;
      FilePatch fp;
      fp.old_path = parse_path_token(l.substr(4));
      fp.new_path = parse_path_token(lines[i + 1].text.substr(4));
      const int file_strip = strip_paths(fp.old_path, fp.new_path, false);
      size_t j = i + 2;
      parse_hunks(lines, j, fp, out.warnings);
      if (!fp.hunks.empty()) {  // "--- x" / "+++ y" without a hunk is prose, not a diff
        i = j;
        add_file(std::move(fp), file_strip, offset);
        continue;
      }
    }
    // Outside any diff: message structure.
    if (is_mbox_from_line(lines, i) || starts_with(l, "From: ")) {
      boundary();
    } else if (istarts_with(l, "Subject:")) {
      boundary();
      std::string subject(trim(l.substr(8)));
      while (i + 1 < lines.size() && !lines[i + 1].text.empty() &&
             (lines[i + 1].text[0] == ' ' || lines[i + 1].text[0] == '\t')) {
        subject += ' ';
        subject += trim(lines[++i].text);
      }
      out.subjects.push_back(subject);
    } else if (is_title_line(lines, i)) {
      boundary();
      if (titles.empty() || titles.back() != l) titles.emplace_back(trim(l));
    } else if (istarts_with(l, "Content-Transfer-Encoding:")) {
      const std::string_view v = trim(l.substr(26));
      if (istarts_with(v, "quoted-printable") || istarts_with(v, "base64")) encoded = true;
    }
    ++i;
  }

  if (out.subjects.empty()) out.subjects = titles;
  if (!out.subjects.empty()) out.subject = out.subjects.front();
  out.strip = strip < 0 ? 1 : strip;
  if (mixed_strip)
    out.warnings.push_back("the file names use different -p levels; using -p" +
                           std::to_string(out.strip));
  if (encoded)
    out.warnings.push_back(
        "a message declares a quoted-printable/base64 transfer encoding, which is not decoded");
  if (out.files.empty()) {
    if (has_quoted_diff(text, lines))
      out.error = "the message only quotes a diff (lines starting with '>')";
    else if (encoded)
      out.error = "no diff in the input (the message body is quoted-printable/base64 encoded)";
    else
      out.error = "no diff in the input";
  }
  return res;
}

// ---------------------------------------------------------------- running patch

struct ProcessResult {
  bool started = false;
  int status = -1;  // exit status, -1 if killed by a signal
  std::string output;
};

// Runs argv[0] (looked up in PATH) with LC_ALL=C, `input` on its stdin,
// stdout and stderr captured together.
ProcessResult run_process(const std::vector<std::string>& args, std::string_view input) {
  ProcessResult r;
  int in_pipe[2], out_pipe[2];
  if (pipe2(in_pipe, O_CLOEXEC) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    return r;
  }
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    r.output = std::string("pipe: ") + std::strerror(errno);
    close(in_pipe[0]), close(in_pipe[1]);
    return r;
  }
  std::vector<std::string> env_storage;
  for (char** e = environ; e && *e; ++e) {
    const std::string_view v(*e);
    if (starts_with(v, "LC_ALL=") || starts_with(v, "LANG=") || starts_with(v, "LANGUAGE=") ||
        starts_with(v, "POSIXLY_CORRECT=") || starts_with(v, "PATCH_"))
      continue;
    env_storage.emplace_back(v);
  }
  env_storage.emplace_back("LC_ALL=C");
  std::vector<char*> envp, argv;
  for (std::string& e : env_storage) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> args_copy = args;
  for (std::string& a : args_copy) argv.push_back(a.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 2);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(in_pipe[0]), close(out_pipe[1]);
  if (rc != 0) {
    close(in_pipe[1]), close(out_pipe[0]);
    r.output = "cannot run " + args[0] + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;

  // A reader that exits early must not kill us with SIGPIPE: block it in this
  // thread and discard one raised by our writes.
  sigset_t pipe_set, old_set, pending;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE);

  fcntl(in_pipe[1], F_SETFL, fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
  int in_fd = in_pipe[1], out_fd = out_pipe[0];
  size_t written = 0;
  if (input.empty()) close(in_fd), in_fd = -1;
  char buf[65536];
  while (out_fd >= 0) {
    pollfd fds[2];
    int nfds = 0;
    fds[nfds++] = {out_fd, POLLIN, 0};
    if (in_fd >= 0) fds[nfds++] = {in_fd, POLLOUT, 0};
    const int pr = poll(fds, nfds, 120000);
    if (pr < 0 && errno == EINTR) continue;
    if (pr <= 0) {  // two minutes without progress: give up on it
      kill(pid, SIGKILL);
      r.output += "\n(" + args[0] + " timed out)";
      break;
    }
    if (in_fd >= 0 && nfds == 2 && fds[1].revents) {
      const ssize_t n = write(in_fd, input.data() + written, input.size() - written);
      if (n > 0) written += static_cast<size_t>(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || written == input.size())
        close(in_fd), in_fd = -1;
    }
    if (fds[0].revents) {
      const ssize_t n = read(out_fd, buf, sizeof buf);
      if (n > 0) {
        r.output.append(buf, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        close(out_fd), out_fd = -1;
      }
    }
  }
  if (in_fd >= 0) close(in_fd);
  if (out_fd >= 0) close(out_fd);
  int wstatus = 0;
  while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;

  sigpending(&pending);
  if (!was_pending && sigismember(&pending, SIGPIPE)) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return r;
}

std::string trim_output(std::string_view s) {
  std::string out;
  for (const Line& l : split_lines(s)) {
    const std::string_view t = trim(l.text);
    if (t.empty()) continue;
    if (!out.empty()) out += '\n';
    out += t;
  }
  return out;
}

// The dry run's output (not --silent, so that files are named), keeping
// "checking file X" only when something is said about X.
std::string failure_report(std::string_view output) {
  const std::vector<Line> lines = split_lines(output);
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string_view t = trim(lines[k].text);
    if (t.empty()) continue;
    if (starts_with(t, "checking file ") &&
        (k + 1 >= lines.size() || starts_with(trim(lines[k + 1].text), "checking file ")))
      continue;
    if (!out.empty()) out += '\n';
    out += t;
  }
  return out.empty() ? trim_output(output) : out;
}

bool safe_relative(const std::string& p) {
  if (p.empty() || p.front() == '/') return false;
  for (const auto& part : fs::path(p))
    if (part == "..") return false;
  return true;
}

bool empty_or_absent(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return true;
  return fs::is_directory(p, ec) && fs::is_empty(p, ec);
}

bool copy_into(const fs::path& from, const fs::path& root, const std::string& rel,
               std::string& error) {
  std::error_code ec;
  const fs::path to = root / rel;
  fs::create_directories(to.parent_path(), ec);
  if (!ec) fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec);
  if (ec) error = "cannot copy " + rel + " to " + root.string() + ": " + ec.message();
  return !ec;
}

AppliedPatch apply_impl(const ParsedPatch& parsed, std::string_view patch_text,
                        const std::string& tree, const std::string& workdir) {
  AppliedPatch r;
  const fs::path before = fs::path(workdir) / "before", after = fs::path(workdir) / "after";
  r.before_root = before.string();
  r.after_root = after.string();
  if (!parsed.error.empty()) {
    r.message = "no applicable diff: " + parsed.error;
    return r;
  }
  if (parsed.files.empty()) {
    r.message = "the patch touches no files";
    return r;
  }
  std::error_code ec;
  if (tree.empty() || !fs::is_directory(tree, ec)) {
    r.message = "kernel tree not found: " + (tree.empty() ? std::string("(empty path)") : tree);
    return r;
  }
  if (!empty_or_absent(before) || !empty_or_absent(after)) {
    r.message = "work directory " + workdir + " already holds before/ or after/";
    return r;
  }
  fs::create_directories(before, ec);
  if (!ec) fs::create_directories(after, ec);
  if (ec) {
    r.message = "cannot create " + workdir + ": " + ec.message();
    return r;
  }

  std::set<std::string> copied, created, deleted;
  for (const FilePatch& fp : parsed.files) {
    for (const std::string* p : {&fp.old_path, &fp.new_path}) {
      if (!is_dev_null(*p) && !safe_relative(*p)) {
        r.message = *p + ": refusing a path that is absolute or leaves the tree";
        return r;
      }
    }
    if (fp.binary) {
      r.message = (fp.is_creation() ? fp.new_path : fp.old_path) +
                  ": binary patches cannot be applied with patch(1)";
      return r;
    }
    if (fp.symlink) {
      r.message = (fp.is_creation() ? fp.new_path : fp.old_path) +
                  ": the patch makes this path a symlink; review reads no symlink (its target "
                  "would be read with your rights)";
      return r;
    }
    if (fp.is_creation()) {
      if (fs::exists(fs::path(tree) / fp.new_path, ec) && !deleted.count(fp.new_path)) {
        r.message = fp.new_path + ": the patch creates this file but it already exists in " + tree;
        return r;
      }
      created.insert(fp.new_path);
      deleted.erase(fp.new_path);
      continue;
    }
    if (fp.is_deletion()) deleted.insert(fp.old_path);
    if (created.count(fp.old_path) || copied.count(fp.old_path)) continue;
    const fs::path src = fs::path(tree) / fp.old_path;
    if (const std::string why = sandbox::inside_tree(tree, fp.old_path); !why.empty()) {
      r.message = why;
      return r;
    }
    if (!fs::is_regular_file(src, ec)) {
      r.message = fp.old_path + ": not found in the kernel tree " + tree;
      return r;
    }
    if (!copy_into(src, before, fp.old_path, r.message) ||
        !copy_into(src, after, fp.old_path, r.message))
      return r;
    copied.insert(fp.old_path);
  }

  // A series is applied message by message: patch(1)'s --dry-run checks every
  // block against the unmodified file, so a later patch of the same file would
  // otherwise be checked against the wrong text.
  const ParseResult again = parse_impl(patch_text);
  std::vector<std::string_view> pieces;
  if (again.parsed.files.size() == parsed.files.size() && !again.file_offsets.empty()) {
    size_t start = 0;
    for (size_t k = 1; k <= again.parsed.files.size(); ++k) {
      if (k == again.parsed.files.size() ||
          again.parsed.files[k].patch_index != again.parsed.files[k - 1].patch_index) {
        const size_t from = start == 0 ? 0 : again.file_offsets[start];
        const size_t to =
            k == again.parsed.files.size() ? patch_text.size() : again.file_offsets[k];
        pieces.push_back(patch_text.substr(from, to - from));
        start = k;
      }
    }
  } else {
    pieces.push_back(patch_text);
  }

  const std::string strip = "-p" + std::to_string(parsed.strip);
  std::vector<std::string> notes;
  for (size_t k = 0; k < pieces.size(); ++k) {
    const std::string which =
        pieces.size() > 1 ? " (patch " + std::to_string(k + 1) + " of the series)" : "";
    std::vector<std::string> args = {
        "patch",           strip,       "--batch", "--forward",   "--no-backup-if-mismatch",
        "--reject-file=-", "--dry-run", "-d",      after.string()};
    const ProcessResult dry = run_process(args, pieces[k]);
    if (!dry.started) {
      r.message = dry.output;
      return r;
    }
    if (dry.status != 0) {
      r.message = failure_report(dry.output) + which;
      return r;
    }
    for (const Line& l : split_lines(dry.output))
      if (starts_with(l.text, "Hunk #")) notes.push_back(std::string(trim(l.text)) + which);
    args = {"patch",           strip,      "--batch",
            "--forward",       "--silent", "--no-backup-if-mismatch",
            "--reject-file=-", "-d",       after.string()};
    const ProcessResult real = run_process(args, pieces[k]);
    if (real.status != 0) {
      r.message =
          "patch failed after a successful dry run" + which + ":\n" + trim_output(real.output);
      return r;
    }
  }
  r.ok = true;
  for (const std::string& n : notes) r.message += (r.message.empty() ? "" : "\n") + n;
  return r;
}

}  // namespace

ParsedPatch parse_patch(std::string_view text) {
  try {
    return parse_impl(text).parsed;
  } catch (const std::exception& e) {
    ParsedPatch p;
    p.error = std::string("cannot parse the patch: ") + e.what();
    return p;
  }
}

AppliedPatch apply_to_copy(const ParsedPatch& parsed, std::string_view patch_text,
                           const std::string& tree, const std::string& workdir) {
  try {
    return apply_impl(parsed, patch_text, tree, workdir);
  } catch (const std::exception& e) {
    AppliedPatch r;
    r.message = std::string("cannot apply the patch: ") + e.what();
    return r;
  }
}

std::vector<std::string> touched_functions(std::string_view source,
                                           const std::vector<std::pair<int, int>>& ranges) {
  std::vector<std::string> names;
  for (const TopLevelItem& item : top_level_items(source)) {
    if (item.kind != TopLevelItem::kFunction) continue;
    const bool hit = std::any_of(ranges.begin(), ranges.end(), [&](const std::pair<int, int>& r) {
      return r.first <= item.last_line && item.first_line <= r.second;
    });
    if (!hit) continue;
    for (const std::string& name : item.defines)
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

}  // namespace idlespec::extraction
