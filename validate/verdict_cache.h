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
// escape, no build error, nothing interrupted. The directory is bounded in
// age and size (cache_prune()).
//
// The same judged text decides what review judges at all: a component
// whose judged text the patch leaves as it was, or changes only in its
// line numbers where no code reads them (same_but_lines()), cannot change
// its verdicts and is not judged.
#pragma once

#include <cstdint>
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

// Whether component `c`'s judged text on `a` and on `b` (a patch's two
// sides of one file) is the same but for line numbers: equal once every
// line number in it is taken out (the #line markers of the extraction, the
// found functions' lines, the lines the prelude and notes name, the whole
// file's numbered lines), and, where the numbers differ, no code the checks
// build reads its line numbers (__LINE__, or a macro of the harness
// directory's #defined through it, such as the shims' WARN_ON()). Such a
// component's verdicts cannot change: review does not judge it.
bool same_but_lines(const Options& options, const Component& c, const std::string& display,
                    const std::string& a, const std::string& b);

// One component's run on one side: its part and the report notes its run added.
struct CachedRun {
  Part part;
  std::vector<std::string> notes;
};

// A run as the entries hold it (every field but the temporary directory),
// and back: false when the text is not one whole run.
std::string run_text(const CachedRun& run);
bool run_from_text(const std::string& text, CachedRun& run);

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

// The cache's bounds: IDLESPEC_VERDICT_CACHE_MB (default 256) MiB of
// entries, each used within IDLESPEC_VERDICT_CACHE_DAYS (default 30) days.
struct CacheBounds {
  uint64_t max_bytes = 256u << 20;
  double max_age_seconds = 30 * 86400.0;
};
CacheBounds cache_bounds();
// Remove from `dir` the entries not used within the age bound, then the
// least recently used until the rest fit the size bound (a load renews an
// entry's time), and temporary files an interrupted store left: only
// regular files of the user's own, never through a link. How many went.
// cache_store() prunes after every store.
size_t cache_prune(const std::string& dir, const CacheBounds& bounds);

// The entry's file name for `key` in `dir` (for the tests' planted entries).
std::string cache_entry_path(const std::string& dir, const std::string& key);

}  // namespace idlespec::validate
