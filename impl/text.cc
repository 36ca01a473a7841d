#include "impl/text.h"

namespace idlespec {

namespace {

// The length of the UTF-8 sequence at s[i] (2-4), or 0 when it is not a
// valid one (overlong forms, surrogates and values past U+10FFFF are not).
size_t utf8_sequence(std::string_view s, size_t i, uint32_t& cp) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = b(0);
  size_t n = 0;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (b(k) & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

void hex_byte(std::string& out, unsigned char c) {
  static const char digits[] = "0123456789abcdef";
  out += "\\x";
  out += digits[c >> 4];
  out += digits[c & 15];
}

}  // namespace

static std::string neutralised(std::string_view raw, size_t max_bytes, bool keep_newlines,
                               bool keep_backslashes) {
  const std::string_view s = raw.substr(0, std::min(raw.size(), max_bytes));
  std::string out;
  out.reserve(s.size() + 16);
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (c == '\n' && keep_newlines)
        out += '\n';
      else if (c == '\n')
        out += "\\n";
      else if (c == '\r')
        out += "\\r";
      else if (c == '\t' && keep_backslashes)
        out += '\t';
      else if (c == '\t')
        out += "\\t";
      else if (c == 0x1b)
        out += "\\e";
      else if (c == '\\' && !keep_backslashes)
        out += "\\\\";
      else if (c < 0x20 || c == 0x7f)
        hex_byte(out, c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t n = utf8_sequence(s, i, cp);
    if (n == 0) {
      hex_byte(out, c);
      ++i;
    } else if (cp <= 0x9f) {  // a C1 control
      for (size_t k = 0; k < n; ++k) hex_byte(out, static_cast<unsigned char>(s[i + k]));
      i += n;
    } else if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      static const char digits[] = "0123456789abcdef";
      out += "\\u{";
      for (int shift = 12; shift >= 0; shift -= 4) out += digits[(cp >> shift) & 15];
      out += '}';
      i += n;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  if (raw.size() > s.size())
    out += " ... (" + std::to_string(raw.size() - s.size()) + " more bytes)";
  return out;
}

std::string untrusted_text(std::string_view raw, size_t max_bytes, bool keep_newlines) {
  return neutralised(raw, max_bytes, keep_newlines, false);
}

std::string report_text(std::string_view text, size_t max_bytes) {
  return neutralised(text, max_bytes, true, true);
}

}  // namespace idlespec
