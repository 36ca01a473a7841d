// Mail intake with GMime 3: see extract/mbox.h.
#include "extract/mbox.h"

#include <gmime/gmime.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <mutex>
#include <regex>

#include "sandbox/process.h"

namespace idlespec::extraction {
namespace {

constexpr size_t kMaxInput = 64u << 20;

void init_gmime() {
  static std::once_flag once;
  std::call_once(once, [] { g_mime_init(); });
}

std::string own(char* s) {  // a g_malloc'd string, freed
  std::string out = s ? s : "";
  g_free(s);
  return out;
}

std::string str(const char* s) { return s ? s : ""; }

std::string strip_brackets(std::string id) {
  while (!id.empty() && (id.front() == '<' || std::isspace(static_cast<unsigned char>(id.front()))))
    id.erase(id.begin());
  while (!id.empty() && (id.back() == '>' || std::isspace(static_cast<unsigned char>(id.back()))))
    id.pop_back();
  return id;
}

std::vector<std::string> message_ids(const char* header) {
  std::vector<std::string> out;
  if (!header) return out;
  if (GMimeReferences* refs = g_mime_references_parse(nullptr, header)) {
    for (int i = 0; i < g_mime_references_length(refs); ++i)
      out.push_back(strip_brackets(str(g_mime_references_get_message_id(refs, i))));
    g_mime_references_free(refs);
  }
  return out;
}

std::string addresses(GMimeMessage* msg, GMimeAddressType type) {
  InternetAddressList* list = g_mime_message_get_addresses(msg, type);
  return list ? own(internet_address_list_to_string(list, nullptr, FALSE)) : "";
}

bool ends_with(const std::string& s, const char* tail) {
  const size_t n = std::char_traits<char>::length(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

struct BodyWalk {
  MailMessage* out;
  int html_parts = 0;
};

// A part's content, transfer encoding undone, converted to UTF-8, CRLF as LF.
void add_text_part(GMimeObject* part, BodyWalk& walk) {
  if (!GMIME_IS_PART(part)) return;  // multiparts: their children come by themselves
  GMimeContentType* ct = g_mime_object_get_content_type(part);
  const std::string type = str(g_mime_content_type_get_media_type(ct));
  std::string sub = str(g_mime_content_type_get_media_subtype(ct));
  std::transform(sub.begin(), sub.end(), sub.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  const std::string name = str(g_mime_part_get_filename(GMIME_PART(part)));
  const bool text = g_ascii_strcasecmp(type.c_str(), "text") == 0;
  const bool patch_file = ends_with(name, ".patch") || ends_with(name, ".diff");
  if (text && sub == "html") {
    ++walk.html_parts;
    return;
  }
  if (!(text && (sub == "plain" || sub == "x-patch" || sub == "x-diff")) && !patch_file) {
    walk.out->notes.push_back("a " + type + "/" + sub + " part was left out");
    return;
  }
  const GMimeContentEncoding enc = g_mime_part_get_content_encoding(GMIME_PART(part));
  if (enc == GMIME_CONTENT_ENCODING_BASE64 || enc == GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE)
    walk.out->transfer_encoded = true;
  GMimeDataWrapper* content = g_mime_part_get_content(GMIME_PART(part));
  if (!content) return;
  GMimeStream* mem = g_mime_stream_mem_new();
  GMimeStream* filtered = g_mime_stream_filter_new(mem);
  const std::string charset = str(g_mime_object_get_content_type_parameter(part, "charset"));
  if (!charset.empty() && g_ascii_strcasecmp(charset.c_str(), "utf-8") != 0 &&
      g_ascii_strcasecmp(charset.c_str(), "us-ascii") != 0) {
    if (GMimeFilter* conv = g_mime_filter_charset_new(charset.c_str(), "UTF-8")) {
      g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), conv);
      g_object_unref(conv);
    } else {
      walk.out->notes.push_back("charset " + charset + " is unknown: the part is read as it is");
    }
  }
  GMimeFilter* crlf = g_mime_filter_dos2unix_new(FALSE);
  g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), crlf);
  g_object_unref(crlf);
  g_mime_data_wrapper_write_to_stream(content, filtered);
  g_mime_stream_flush(filtered);
  GByteArray* bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(mem));
  std::string decoded(reinterpret_cast<const char*>(bytes->data), bytes->len);
  g_object_unref(filtered);
  g_object_unref(mem);
  if (!walk.out->body.empty() && walk.out->body.back() != '\n') walk.out->body += '\n';
  walk.out->body += decoded;
}

void each_part(GMimeObject*, GMimeObject* part, gpointer data) {
  add_text_part(part, *static_cast<BodyWalk*>(data));
}

MailMessage from_gmime(GMimeMessage* msg, const std::string& origin) {
  MailMessage m;
  m.origin = origin;
  m.message_id = strip_brackets(str(g_mime_message_get_message_id(msg)));
  GMimeObject* obj = GMIME_OBJECT(msg);
  const std::vector<std::string> irt = message_ids(g_mime_object_get_header(obj, "In-Reply-To"));
  if (!irt.empty()) m.in_reply_to = irt.front();
  m.references = message_ids(g_mime_object_get_header(obj, "References"));
  m.subject = str(g_mime_message_get_subject(msg));
  m.from = addresses(msg, GMIME_ADDRESS_TYPE_FROM);
  m.to = addresses(msg, GMIME_ADDRESS_TYPE_TO);
  m.cc = addresses(msg, GMIME_ADDRESS_TYPE_CC);
  m.date = str(g_mime_object_get_header(obj, "Date"));
  BodyWalk walk{&m};
  if (GMimeObject* top = g_mime_message_get_mime_part(msg)) {
    if (GMIME_IS_MULTIPART(top))
      g_mime_message_foreach(msg, each_part, &walk);
    else
      add_text_part(top, walk);
  }
  if (walk.html_parts && m.body.empty())
    m.notes.push_back("the message has only HTML: no text to read (the lists refuse HTML mail)");
  return m;
}

// A text with no mail header in front: a plain diff, or a mail archive's
// rendering. It is a body as it stands.
bool starts_with_headers(std::string_view text) {
  static const std::regex header(R"(^(From |[A-Za-z][A-Za-z0-9-]*:))");
  const size_t nl = text.find('\n');
  const std::string first(text.substr(0, nl == std::string_view::npos ? text.size() : nl));
  return std::regex_search(first, header);
}

}  // namespace

Mailbox parse_mail_text(std::string_view text, const std::string& label) {
  Mailbox box;
  if (!starts_with_headers(text)) {
    MailMessage m;
    m.had_headers = false;
    m.origin = label;
    m.body = std::string(text);
    box.messages.push_back(std::move(m));
    return box;
  }
  init_gmime();
  const bool mbox = text.substr(0, 5) == "From ";
  GMimeStream* stream = g_mime_stream_mem_new_with_buffer(text.data(), text.size());
  GMimeParser* parser = g_mime_parser_new_with_stream(stream);
  g_mime_parser_set_format(parser, mbox ? GMIME_FORMAT_MBOX : GMIME_FORMAT_MESSAGE);
  int n = 0;
  while (!g_mime_parser_eos(parser)) {
    GMimeMessage* msg = g_mime_parser_construct_message(parser, nullptr);
    if (!msg) break;
    ++n;
    box.messages.push_back(
        from_gmime(msg, mbox ? label + ", message " + std::to_string(n) : label));
    g_object_unref(msg);
    if (!mbox) break;
  }
  g_object_unref(parser);
  g_object_unref(stream);
  if (box.messages.empty()) box.error = label + ": no mail message in it";
  return box;
}

Mailbox read_mail(const std::vector<std::string>& paths) {
  Mailbox box;
  for (const auto& path : paths) {
    std::vector<std::string> files;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
      for (const auto& e : std::filesystem::directory_iterator(path, ec)) {
        const std::string f = e.path().string();
        if (ends_with(f, ".patch") || ends_with(f, ".eml") || ends_with(f, ".mbox") ||
            ends_with(f, ".mbx") || ends_with(f, ".cover"))
          files.push_back(f);
      }
      std::sort(files.begin(), files.end());
      if (files.empty()) {
        box.error = path + ": no *.patch, *.eml, *.mbox, *.mbx or *.cover file in the directory";
        return box;
      }
    } else {
      files.push_back(path);
    }
    for (const auto& f : files) {
      std::string text;
      if (const std::string why = sandbox::read_input_file(f, kMaxInput, text); !why.empty()) {
        box.error = "cannot read " + f + ": " + why;
        return box;
      }
      Mailbox one = parse_mail_text(text, f);
      if (!one.error.empty()) {
        box.error = one.error;
        return box;
      }
      for (auto& m : one.messages) box.messages.push_back(std::move(m));
    }
  }
  return box;
}

SubjectTag parse_subject_tag(std::string_view subject) {
  SubjectTag t;
  std::string s(subject);
  auto trim = [](std::string& x) {
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.front()))) x.erase(x.begin());
    while (!x.empty() && std::isspace(static_cast<unsigned char>(x.back()))) x.pop_back();
  };
  trim(s);
  // Reply prefixes, any number, any case ("Re: Re:", "RE:", "Aw:", "Fwd:").
  static const std::regex reply(R"(^(re|aw|sv|fwd?)\s*:\s*)", std::regex::icase);
  for (std::smatch m; std::regex_search(s, m, reply);) {
    t.reply = true;
    s = m.suffix();
  }
  // The first bracketed tag naming PATCH or RFC; lists prepend their own
  // ("[linux-pm]") before it.
  static const std::regex word(R"(^\[([^\]]*)\]\s*)");
  for (std::smatch m; std::regex_search(s, m, word);) {
    const std::string inner = m[1];
    const std::string rest = m.suffix();
    std::string upper = inner;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char c) { return std::toupper(c); });
    s = rest;
    if (upper.find("PATCH") == std::string::npos && upper.find("RFC") == std::string::npos)
      continue;
    t.tagged = true;
    static const std::regex version(R"(^[vV]([0-9]{1,4})$)");
    static const std::regex numbers(R"(^([0-9]{1,4})/([0-9]{1,4})$)");
    std::string prefix;
    size_t at = 0;
    while (at < inner.size()) {
      while (at < inner.size() && std::isspace(static_cast<unsigned char>(inner[at]))) ++at;
      size_t end = at;
      while (end < inner.size() && !std::isspace(static_cast<unsigned char>(inner[end]))) ++end;
      const std::string w = inner.substr(at, end - at);
      at = end;
      if (w.empty()) continue;
      std::string W = w;
      std::transform(W.begin(), W.end(), W.begin(),
                     [](unsigned char c) { return std::toupper(c); });
      std::smatch wm;
      if (W == "PATCH") continue;
      if (W == "RFC") {
        t.rfc = true;
      } else if (W == "RESEND") {
        t.resend = true;
      } else if (std::regex_match(w, wm, version)) {
        t.version = std::stoi(wm[1]);
      } else if (std::regex_match(w, wm, numbers)) {
        t.number = std::stoi(wm[1]);
        t.total = std::stoi(wm[2]);
        t.numbered = true;
      } else {
        prefix += (prefix.empty() ? "" : " ") + w;
      }
    }
    t.prefix = prefix;
    break;
  }
  if (!t.numbered) t.number = t.total = 1;
  trim(s);
  t.title = s;
  return t;
}

}  // namespace idlespec::extraction
