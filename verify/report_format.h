// What every command's report writer shares (verify, check, validate,
// review, series, matrix): a JSON string and list in the project's escaping,
// XML text for JUnit, and a figure with a fixed number of decimals.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace idlespec::verify {

// A JSON string: impl/json.h's json_escape, quoted.
std::string json_string(std::string_view s);
// A JSON array of strings, each as json_string().
std::string json_list(const std::vector<std::string>& v);
// XML text or attribute value: & < > " escaped, a control character other
// than newline and tab as a space (XML 1.0 has no way to write it).
std::string xml_text(std::string_view s);
// A usage error as the commands print it on stdout under --json:
// {"error":"MESSAGE","exit_code":CODE} and a newline.
std::string json_error(std::string_view message, int exit_code);
// x with `digits` decimals ("%.*f").
std::string fixed(double x, int digits);

}  // namespace idlespec::verify
