// The figures a model-check run measures and prints (idle_core_check_run.h).
#include "modelcheck/idle_core_check_run.h"

#include <sys/resource.h>

#include "impl/text.h"

namespace idlespec::idle_core::mc {

long peak_rss_kb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

std::string human_count(double n) {
  if (n >= 1e9) return strprintf("%.2fG", n / 1e9);
  if (n >= 1e6) return strprintf("%.2fM", n / 1e6);
  if (n >= 1e4) return strprintf("%.1fk", n / 1e3);
  return strprintf("%.0f", n);
}

}  // namespace idlespec::idle_core::mc
