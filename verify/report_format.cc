// What every command's report writer shares: a JSON string and list, XML
// text, a figure with fixed decimals (verify/report_format.h).
#include "verify/report_format.h"

#include <cstdio>

#include "impl/json.h"

namespace idlespec::verify {

std::string json_string(std::string_view s) {
  std::string quoted = "\"";
  quoted += json_escape(s);
  return quoted += '"';
}

std::string json_list(const std::vector<std::string>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) o += ',';
    o += json_string(v[i]);
  }
  return o + "]";
}

std::string json_error(std::string_view message, int exit_code) {
  return "{\"error\":" + json_string(message) + ",\"exit_code\":" + std::to_string(exit_code) +
         "}\n";
}

std::string xml_text(std::string_view s) {
  std::string o;
  for (const unsigned char c : s) {
    switch (c) {
      case '&':
        o += "&amp;";
        break;
      case '<':
        o += "&lt;";
        break;
      case '>':
        o += "&gt;";
        break;
      case '"':
        o += "&quot;";
        break;
      default:
        if (c < 0x20 && c != '\n' && c != '\t')
          o += ' ';
        else
          o += static_cast<char>(c);
    }
  }
  return o;
}

std::string fixed(double x, int digits) {
  char b[32];
  std::snprintf(b, sizeof(b), "%.*f", digits, x);
  return b;
}

}  // namespace idlespec::verify
