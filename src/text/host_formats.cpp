// Host names (RFC 1123, IDNA2008) and email addresses (RFC 5321, RFC 6531).
//
// libidn2 carries IDNA2008's Unicode-version tables (PVALID/DISALLOWED, CONTEXTJ, Bidi classes)
// and Punycode; what it leaves to the caller is checked here: the label separators, lengths, the
// CONTEXTO rules of RFC 5892 Appendix A and the domain-wide part of RFC 5893's Bidi rule.
#include "text/host_formats.hpp"

#include <idn2.h>

#include <memory>
#include <string>
#include <vector>

#include "core/ascii.hpp"
#include "core/utf8.hpp"
#include "text/uri_formats.hpp"

namespace accord::detail {
namespace {

bool ascii(std::string_view text) {
  for (char c : text) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}
char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// A string libidn2 allocated, freed with idn2_free.
using IdnString = std::unique_ptr<char, decltype(&idn2_free)>;

// The A-label form of a U-label; nullopt when IDNA2008 (as libidn2 reads it) refuses it. Plain
// IDNA2008, without UTS #46's mapping, which would turn a DISALLOWED "É" into "é" and accept it.
std::optional<std::string> to_a_label(std::string_view label) {
  const std::string input(label);
  uint8_t* out = nullptr;
  const int rc = idn2_lookup_u8(reinterpret_cast<const uint8_t*>(input.c_str()), &out,
                                IDN2_NFC_INPUT | IDN2_NO_TR46);
  const IdnString owned(reinterpret_cast<char*>(out), &idn2_free);
  if (rc != IDN2_OK) return std::nullopt;
  return std::string(owned.get());
}

// The U-label an `xn--` label encodes; nullopt when its Punycode is broken.
std::optional<std::string> from_a_label(std::string_view label) {
  const std::string input(label);
  char* out = nullptr;
  const int rc = idn2_to_unicode_8z8z(input.c_str(), &out, 0);
  const IdnString owned(out, &idn2_free);
  if (rc != IDN2_OK) return std::nullopt;
  return std::string(owned.get());
}

// Script tests for the contextual rules; the ranges are the scripts' main blocks.
bool greek(char32_t c) {
  return (c >= 0x370 && c <= 0x3FF && c != 0x375 && c != 0x37E && c != 0x387) ||
         (c >= 0x1F00 && c <= 0x1FFF);
}
bool hebrew(char32_t c) {
  return (c >= 0x591 && c <= 0x5F4) || (c >= 0xFB1D && c <= 0xFB4F);
}
bool japanese(char32_t c) {  // Hiragana, Katakana or Han, not the middle dot itself
  return (c >= 0x3040 && c <= 0x30FF && c != 0x30FB) || (c >= 0x31F0 && c <= 0x31FF) ||
         (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
         (c >= 0xF900 && c <= 0xFAFF) || (c >= 0x20000 && c <= 0x3FFFF);
}
bool right_to_left(char32_t c) {  // Bidi classes R and AL, and Arabic digits (AN), not EN
  if (c >= 0x6F0 && c <= 0x6F9) return false;
  return (c >= 0x590 && c <= 0x8FF) || (c >= 0xFB1D && c <= 0xFDFF) ||
         (c >= 0xFE70 && c <= 0xFEFF) || (c >= 0x10800 && c <= 0x10FFF) ||
         (c >= 0x1E800 && c <= 0x1EFFF);
}
bool european_digit(char32_t c) {  // Bidi class EN
  return (c >= '0' && c <= '9') || (c >= 0x6F0 && c <= 0x6F9);
}
bool arabic_digit(char32_t c) {  // Bidi class AN
  return c >= 0x660 && c <= 0x669;
}

// RFC 5892 Appendix A's CONTEXTO rules (CONTEXTJ is libidn2's).
bool context_rules_hold(const std::u32string& label) {
  bool has_arabic_digit = false;
  bool has_extended_digit = false;
  bool has_japanese = false;
  bool has_katakana_dot = false;
  for (std::size_t i = 0; i < label.size(); ++i) {
    const char32_t c = label[i];
    const char32_t before = i > 0 ? label[i - 1] : 0;
    const char32_t after = i + 1 < label.size() ? label[i + 1] : 0;
    if (c == 0xB7 && (before != 'l' || after != 'l')) return false;
    if (c == 0x375 && !greek(after)) return false;
    if ((c == 0x5F3 || c == 0x5F4) && !hebrew(before)) return false;
    has_arabic_digit = has_arabic_digit || arabic_digit(c);
    has_extended_digit = has_extended_digit || (c >= 0x6F0 && c <= 0x6F9);
    has_japanese = has_japanese || japanese(c);
    has_katakana_dot = has_katakana_dot || c == 0x30FB;
  }
  return !(has_arabic_digit && has_extended_digit) && (!has_katakana_dot || has_japanese);
}

// RFC 952/1123 letter-digit-hyphen label: 1-63 characters, no hyphen at either end.
bool ldh_label(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') {
    return false;
  }
  for (char c : label) {
    if (!ascii_alnum(c) && c != '-') return false;
  }
  return true;
}

// Checks one label and appends its code points to `labels`; adds its A-label length to `length`.
bool idn_label(std::string_view label, std::vector<std::u32string>& labels, std::size_t& length) {
  std::string u_label;
  if (ascii(label)) {
    if (!ldh_label(label)) return false;
    const bool reserved = label.size() >= 4 && label[2] == '-' && label[3] == '-';
    if (!reserved) {
      length += label.size();
      labels.push_back(*decode_utf8(label));
      return true;
    }
    // Only "xn--" may have hyphens in the third and fourth places, and then it must be the
    // canonical encoding of a real U-label.
    if (lower(label[0]) != 'x' || lower(label[1]) != 'n') return false;
    auto decoded = from_a_label(label);
    if (!decoded || ascii(*decoded)) return false;
    auto encoded = to_a_label(*decoded);
    std::string canonical;
    for (char c : label) canonical += lower(c);
    if (!encoded || *encoded != canonical) return false;
    u_label = std::move(*decoded);
  } else {
    u_label = std::string(label);
  }
  const auto a_label = to_a_label(u_label);
  if (!a_label || a_label->size() > 63) return false;
  auto points = decode_utf8(u_label);
  if (!points || !context_rules_hold(*points)) return false;
  length += a_label->size();
  labels.push_back(std::move(*points));
  return true;
}

// The domain-wide part of RFC 5893: once any label is right-to-left, every label must start
// with a letter, and a right-to-left label may not mix European and Arabic digits.
bool bidi_domain_holds(const std::vector<std::u32string>& labels) {
  bool bidi = false;
  for (const auto& label : labels) {
    for (char32_t c : label) bidi = bidi || right_to_left(c);
  }
  if (!bidi) return true;
  for (const auto& label : labels) {
    if (european_digit(label.front()) || arabic_digit(label.front())) return false;
    bool rtl = false;
    bool en = false;
    bool an = false;
    for (char32_t c : label) {
      rtl = rtl || right_to_left(c);
      en = en || european_digit(c);
      an = an || arabic_digit(c);
    }
    if (rtl && en && an) return false;
  }
  return true;
}

// Splits at the label separators (only "." unless `idn`) and checks every label.
bool domain(std::string_view text, bool idn) {
  static constexpr std::string_view kIdnDots[] = {".", "\u3002", "\uFF0E", "\uFF61"};
  if (text.empty()) return false;
  std::vector<std::u32string> labels;
  std::size_t length = 0;
  std::size_t start = 0;
  while (true) {
    std::size_t end = std::string_view::npos;
    std::size_t dot_size = 0;
    for (std::string_view dot : kIdnDots) {
      if (!idn && dot != ".") continue;
      const auto at = text.find(dot, start);
      if (at < end) end = at, dot_size = dot.size();
    }
    const auto label = text.substr(start, end - start);
    if (!idn && !ascii(label)) return false;
    if (!idn_label(label, labels, length)) return false;
    if (end == std::string_view::npos) break;
    ++length;
    start = end + dot_size;
  }
  return length <= 253 && bidi_domain_holds(labels);
}

// RFC 5321 address-literal: [IPv4] or [IPv6:...].
bool address_literal(std::string_view text) {
  if (text.size() < 2 || text.front() != '[' || text.back() != ']') return false;
  const auto inside = text.substr(1, text.size() - 2);
  if (inside.starts_with("IPv6:")) return is_ipv6(inside.substr(5));
  return is_ipv4(inside);
}

bool atext(char c, bool utf8) {
  return ascii_alnum(c) ||
         std::string_view("!#$%&'*+-/=?^_`{|}~").find(c) != std::string_view::npos ||
         (utf8 && static_cast<unsigned char>(c) >= 0x80);
}

// RFC 5321 Mailbox, with RFC 6531's UTF-8 in the local part and an IDN domain when `idn`.
bool mailbox(std::string_view text, bool idn) {
  if (idn && !is_valid_utf8(text)) return false;
  std::size_t at = 0;
  if (!text.empty() && text[0] == '"') {
    for (at = 1; at < text.size() && text[at] != '"'; ++at) {
      const auto c = static_cast<unsigned char>(text[at]);
      if (c == '\\') {
        if (++at >= text.size() || text[at] < 0x20 || text[at] > 0x7E) return false;
      } else if ((c < 0x20 || c > 0x7E) && !(idn && c >= 0x80)) {
        return false;
      }
    }
    if (at >= text.size()) return false;
    ++at;  // the closing quote
  } else {
    at = text.find('@');
    if (at == std::string_view::npos) return false;
    const auto local = text.substr(0, at);
    if (local.empty() || local.front() == '.' || local.back() == '.' ||
        local.find("..") != std::string_view::npos) {
      return false;
    }
    for (char c : local) {
      if (c != '.' && !atext(c, idn)) return false;
    }
  }
  if (at >= text.size() || text[at] != '@') return false;
  const auto host = text.substr(at + 1);
  return address_literal(host) || domain(host, idn);
}

}  // namespace

bool is_hostname(std::string_view text) {
  return domain(text, false);
}

bool is_idn_hostname(std::string_view text) {
  return domain(text, true);
}

bool is_rfc5321_email(std::string_view text) {
  return mailbox(text, false);
}

bool is_idn_email(std::string_view text) {
  return mailbox(text, true);
}

}  // namespace accord::detail
