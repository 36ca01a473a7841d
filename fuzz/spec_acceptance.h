// Whether the spec accepts a violation of a clause for a subject (its
// "- Accepted for" lines, read from the spec built into the binary): the
// fuzz targets abort on every violation but those.
#pragma once

#include <string_view>

namespace idlespec::fuzz {

bool spec_accepts(std::string_view clause, std::string_view subject);

}  // namespace idlespec::fuzz
