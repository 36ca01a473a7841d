// Review's two sides at once: the after side of the components a patch
// changes is judged in a child process while the driver judges the before
// side (validate/review_parallel.cc).
#pragma once

#include <sys/types.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "validate/verdict_cache.h"

namespace idlespec::validate {

class AfterSide {
 public:
  AfterSide() = default;
  AfterSide(const AfterSide&) = delete;
  AfterSide& operator=(const AfterSide&) = delete;
  ~AfterSide();
  // Judge each of `components` with `options` (the after side's: its
  // source) in a child, one after another. False when no child started:
  // the driver judges them itself.
  bool start(const Options& options, const std::vector<std::string>& components);
  // The child's run of `component` (validate's part and notes; `refused`
  // when validate refused it, its notes in run.notes). False when the child
  // gave none (none started, it died or was interrupted): judge it here.
  bool take(const std::string& component, CachedRun& run, bool& refused);

 private:
  void collect();
  pid_t pid_ = -1;
  int fd_ = -1;
  std::map<std::string, std::pair<bool, CachedRun>> runs_;
};

}  // namespace idlespec::validate
