// Mail intake for `idlespec review` of a series (issue 51).
//
// A reviewer has a series as mail: an mbox written by `b4 am` or saved from
// lore (a cover letter, N patches, replies, often more than one version), a
// `git format-patch` directory, or a few patch files. read_mail() turns any
// of these into messages whose headers and bodies are decoded: RFC 2047
// words in Subject and From, quoted-printable and base64 bodies, and every
// declared charset converted to UTF-8. The MIME work is GMime 3's (Debian's
// libgmime-3.0-dev; docs/review.md says why), never done by hand here.
//
// parse_subject_tag() reads the "[PATCH v2 1/2]" of a subject: what b4 and
// patchwork read to order a series and tell a cover letter and a reply
// apart.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace idlespec::extraction {

struct MailMessage {
  std::string message_id;               // without the angle brackets; "" when absent
  std::string in_reply_to;              // the first id of In-Reply-To, without brackets
  std::vector<std::string> references;  // References, oldest first, without brackets
  std::string subject;                  // decoded (RFC 2047), unfolded, UTF-8
  std::string from, date;               // From decoded; Date as written
  std::string to, cc;                   // decoded address lists, as written after decoding
  // The text parts (text/plain; text/x-patch and text/x-diff attachments; a
  // part named *.patch or *.diff) in order, transfer encoding undone and
  // converted to UTF-8, line ends as "\n".
  std::string body;
  bool had_headers = true;         // false: a plain diff, no mail headers at all
  bool transfer_encoded = false;   // a part was quoted-printable or base64
  std::string origin;              // "FILE" or "FILE, message N"
  std::vector<std::string> notes;  // "an HTML part was left out", "charset x unknown: ..."
};

struct Mailbox {
  std::vector<MailMessage> messages;  // in the order read
  std::string error;                  // non-empty: nothing could be read
};

// One message or an mbox (several "From " separated messages), as text.
// `label` names it in MailMessage::origin.
Mailbox parse_mail_text(std::string_view text, const std::string& label);

// Every path: a file (an mbox, one message or a plain diff) or a directory,
// whose *.patch, *.eml, *.mbox files (what `git format-patch -o DIR`
// writes) and *.mbx, *.cover files (what `b4 am -o DIR` writes) are read in
// name order. Files over 64 MiB, FIFOs and devices are
// refused.
Mailbox read_mail(const std::vector<std::string>& paths);

struct SubjectTag {
  bool reply = false;     // "Re:" (or "Aw:", "Sv:", "Fwd:") before the tag
  bool tagged = false;    // a "[...PATCH...]" or "[RFC...]" tag was found
  bool rfc = false;       // RFC among the tag's words
  bool resend = false;    // RESEND among them
  int version = 1;        // "vN"; 1 when none
  int number = 0;         // "M/K": M (0 = cover letter); 1 and 1 when not numbered
  int total = 0;          // K
  bool numbered = false;  // the tag had M/K
  std::string prefix;     // the other words of the tag ("net-next")
  std::string title;      // the subject after the tag
};
SubjectTag parse_subject_tag(std::string_view subject);

}  // namespace idlespec::extraction
