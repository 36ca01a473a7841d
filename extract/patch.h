// Patch intake for `idlespec review PATCH --kernel-tree DIR`.
//
// parse_patch() reads what a reviewer has at hand: a patch email as sent to a
// mailing list (one message or an mbox holding a whole series: headers,
// commit message, "---", diffstat, `diff --git` blocks, "-- " signature) or a
// plain unified diff, and reports which files it touches and which line
// ranges of them change. A reply that only quotes a diff ("> " prefixes) or a
// text without any diff is reported as such, never guessed at.
//
// apply_to_copy() applies the patch with GNU patch to copies of the touched
// files, so that the functions they touch can be checked before and after;
// touched_functions() maps changed line ranges to C function names.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace idlespec::extraction {

struct Hunk {
  int old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  std::string section;     // text after the closing "@@" (often the enclosing function)
  bool truncated = false;  // the input ended the hunk before its declared counts were met
};

struct FilePatch {
  std::string old_path, new_path;  // without a/ b/ prefixes; "/dev/null" for creation/deletion
  std::vector<Hunk> hunks;
  // Changed line ranges (1-based, inclusive): lines removed/changed in the old
  // file, lines added in the new file. A pure addition is recorded in the old
  // file as the line before the insertion point (the line after it when the
  // insertion is at the top of the file); a pure deletion likewise in the new
  // file. A created file has no old ranges, a deleted file no new ranges.
  std::vector<std::pair<int, int>> old_changed, new_changed;
  int patch_index = 0;  // which message of an mbox series (0-based) this block came from
  bool binary = false;  // "GIT binary patch" / "Binary files ... differ": no text hunks
  // "new file mode 120000" / "new mode 120000": the patch makes the path a
  // symlink. review refuses it (reading its target would read the caller's
  // files with the caller's rights).
  bool symlink = false;
  bool is_creation() const { return old_path == "/dev/null"; }
  bool is_deletion() const { return new_path == "/dev/null"; }
};

struct ParsedPatch {
  std::string subject;  // "Subject:" header (unfolded), empty for a plain diff; see parse_patch
  std::vector<FilePatch> files;
  std::string error;                  // non-empty: why no applicable diff was found
  std::vector<std::string> subjects;  // every Subject of an mbox series, in order
  std::vector<std::string> warnings;  // e.g. truncated hunks, undecoded transfer encodings
  int strip = 1;                      // the -p level the paths were written with (0 or 1)
};

// Never throws for bad input. When there is no Subject: header but the first
// non-blank line is a "[PATCH ...]" title (mail archive renderings), that line
// is used as the subject.
ParsedPatch parse_patch(std::string_view text);

struct AppliedPatch {
  bool ok = false;
  // On failure: which file/hunk did not apply (patch's own output, trimmed, with
  // "checking file X" kept for the files it complains about, and "(patch N of
  // the series)" for a series), or what else went wrong; on success: the hunks
  // that needed an offset or fuzz, if any.
  std::string message;
  std::string before_root;  // workdir/before : copies of the touched files from the tree, same
                            // relative paths
  std::string after_root;   // workdir/after  : the same, with the patch applied
};

// Copies only the files the patch touches (those that exist in `tree`) into
// workdir/before and workdir/after, then applies the patch to workdir/after
// with `patch -p1 --batch --forward --silent --no-backup-if-mismatch -d DIR`
// (-p0 when parsed.strip is 0) fed `patch_text` on stdin, after a --dry-run.
// A file the patch creates is absent in before. workdir is created if needed;
// workdir/before and workdir/after must not exist yet (or be empty).
// Errors (parse error, tree missing, file missing, unsafe path, hunk rejected,
// `patch` not installed) give ok=false with a clear message; never throws.
AppliedPatch apply_to_copy(const ParsedPatch& parsed, std::string_view patch_text,
                           const std::string& tree, const std::string& workdir);

// Names of the C functions of `source` whose [first_line,last_line] intersects
// any of `ranges`, in source order, without duplicates.
std::vector<std::string> touched_functions(std::string_view source,
                                           const std::vector<std::pair<int, int>>& ranges);

}  // namespace idlespec::extraction
