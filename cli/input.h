// Inputs of the idlespec commands (decode's buffer, simulate's --trace and
// --table): read bounded, so /dev/zero, a FIFO or a 1 GB file is refused at
// once with the file's name and the limit instead of filling memory. Files
// go through validate's read_input_file (validate/process.h), stdin ("-")
// through a read of at most the limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace idlespec::cli {

// The most any command reads from one input file or stdin.
inline constexpr size_t kInputLimit = 8u << 20;

// Reads PATH ("-": stdin) into `out`: "" on success, else why not, naming
// the file (or "stdin") and, for a file too large, the limit.
std::string read_input(const std::string& path, std::string& out);

// Text from an input (a line of a trace, a file name) made safe to echo on a
// terminal or in JSON: control characters, DEL, backslash and bytes that are
// not valid UTF-8 become \xHH (backslash: \\); valid UTF-8 stays as it is.
std::string escape_input_text(std::string_view text);

}  // namespace idlespec::cli
