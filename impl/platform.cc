#include "impl/platform.h"

namespace idlespec {

std::string_view platform_name(Platform p) {
  switch (p) {
    case Platform::power8:
      return "power8";
    case Platform::power9:
      return "power9";
    case Platform::power10:
      return "power10";
    case Platform::power11:
      return "power11";
  }
  return "unknown";
}

std::optional<Platform> parse_platform(std::string_view name) {
  for (Platform p : kAllPlatforms) {
    if (platform_name(p) == name) return p;
  }
  return std::nullopt;
}

}  // namespace idlespec
