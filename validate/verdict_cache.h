// Review's verdict cache (issue 49): one component's verdicts on one side
// of a patch, kept on disk under the judged text they were reached on, so
// that a side whose judged text is unchanged is not rebuilt and rerun.
//
// The key is the judged text itself, never a hash of it: what the
// component extracts and compiles (the extraction of its functions, with
// the helpers, macros and statics they reach and their #line numbers), what
// its checks read of the whole file (per-CPU definitions, conflict markers,
// brace balance, what the Frama-C reader refuses and the macros it #undefs,
// every preprocessor line), the target list, every option that changes a
// verdict, the tools' identities and idlespec's own (the binary, with its
// built-in spec, and every file of the harness directory). An entry's file
// name is a hash of that text; the entry holds the text, compared byte for
// byte on a read, so no collision, planted file or stale entry is served
// for another text.
//
// The cache directory is idlespec's: created 0700, used only when it is a
// real directory owned by the user and writable by no one else (the code
// under test runs in the sandbox and never sees it). Entries are read
// without following links, must be regular files owned by the user and
// writable by no one else, and must parse completely with a matching
// version, key and payload checksum; any other entry is ignored with a note.
// Only verdicts a rerun would give again are stored: no error, unknown or
// escape, no build error, nothing interrupted.
#pragma once

#include <string>
#include <vector>

#include "validate/component.h"

namespace idlespec::validate {

// verdicts/ in idlespec's cache directory (validate/boundaries.h: cache_dir()),
// "" when there is none.
std::string default_cache_dir();

// The judged text of component `c` on `text` (a side's file, named
// `display` in the tree), run with `options`: the cache key.
std::string judged_text(const Options& options, const Component& c, const std::string& display,
                        const std::string& text);

// One component's run on one side: its part and the report notes its run added.
struct CachedRun {
  Part part;
  std::vector<std::string> notes;
};

// Whether a run's verdicts may be reused (see above).
bool reusable(const CachedRun& run);

// `root` (the side's tree copy) in every string of the run replaced by a
// placeholder, or the placeholder by `root`: an entry names no temporary
// directory.
CachedRun with_root(CachedRun run, const std::string& from, const std::string& to);
extern const char* const kRootPlaceholder;

// Read the entry for `key` from `dir`: true with `out` set when it is good;
// false otherwise, with `note` saying why when an entry was there and was
// ignored ("" when there was none).
bool cache_load(const std::string& dir, const std::string& key, const Component& c, CachedRun& out,
                std::string& note);
// Store `run` under `key` in `dir` (created 0700 when missing); "" or why not.
std::string cache_store(const std::string& dir, const std::string& key, const CachedRun& run);

// The entry's file name for `key` in `dir` (for the tests' planted entries).
std::string cache_entry_path(const std::string& dir, const std::string& key);

}  // namespace idlespec::validate
