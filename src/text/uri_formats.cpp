// RFC 3986/3987 references, RFC 6570 templates and IP address text, parsed by their grammars.
#include "text/uri_formats.hpp"

#include <string>

#include "core/ascii.hpp"
#include "core/utf8.hpp"

namespace accord::detail {
namespace {

bool unreserved(char c) {
  return ascii_alpha(c) || ascii_digit(c) || c == '-' || c == '.' || c == '_' || c == '~';
}
bool sub_delim(char c) {
  return std::string_view("!$&'()*+,;=").find(c) != std::string_view::npos;
}

// Every character of `text` is allowed by `ok`, a %-escape, or (for IRIs) a non-ASCII character
// of valid UTF-8.
template <typename Allowed>
bool all_chars(std::string_view text, bool iri, Allowed ok) {
  if (iri && !is_valid_utf8(text)) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%') {
      if (i + 2 >= text.size() || !ascii_hex(text[i + 1]) || !ascii_hex(text[i + 2])) return false;
      i += 2;
    } else if (!(ok(c) || (iri && static_cast<unsigned char>(c) >= 0x80))) {
      return false;
    }
  }
  return true;
}

bool pchar(char c) {
  return unreserved(c) || sub_delim(c) || c == ':' || c == '@';
}

// What a query or a fragment may hold.
bool query_char(char c) {
  return pchar(c) || c == '/' || c == '?';
}

bool dec_octet(std::string_view text) {
  if (text.empty() || text.size() > 3 || (text.size() > 1 && text[0] == '0')) return false;
  int value = 0;
  for (char c : text) {
    if (!ascii_digit(c)) return false;
    value = value * 10 + (c - '0');
  }
  return value <= 255;
}

// RFC 3986 IP-literal contents: IPv6 or IPvFuture ("v" HEX+ "." ...).
bool ip_literal(std::string_view text) {
  if (!text.empty() && (text[0] == 'v' || text[0] == 'V')) {
    const auto dot = text.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == text.size()) return false;
    for (std::size_t i = 1; i < dot; ++i) {
      if (!ascii_hex(text[i])) return false;
    }
    for (char c : text.substr(dot + 1)) {
      if (!unreserved(c) && !sub_delim(c) && c != ':') return false;
    }
    return true;
  }
  return is_ipv6(text);
}

bool authority(std::string_view text, bool iri) {
  const auto at = text.find('@');
  if (at != std::string_view::npos) {
    const auto userinfo = text.substr(0, at);
    if (!all_chars(userinfo, iri, [](char c) { return unreserved(c) || sub_delim(c) || c == ':'; }))
      return false;
    text = text.substr(at + 1);
  }
  std::string_view port;
  if (!text.empty() && text[0] == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos || !ip_literal(text.substr(1, close - 1))) return false;
    const auto after = text.substr(close + 1);
    if (!after.empty() && after[0] != ':') return false;
    port = after.empty() ? after : after.substr(1);
  } else {
    const auto colon = text.find(':');
    if (colon != std::string_view::npos) port = text.substr(colon + 1);
    if (!all_chars(text.substr(0, colon), iri,
                   [](char c) { return unreserved(c) || sub_delim(c); })) {
      return false;
    }
  }
  for (char c : port) {
    if (!ascii_digit(c)) return false;
  }
  return true;
}

bool scheme_at_start(std::string_view text, std::size_t& colon) {
  colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || !ascii_alpha(text[0])) return false;
  for (char c : text.substr(0, colon)) {
    if (!ascii_alpha(c) && !ascii_digit(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return true;
}

// The part after the scheme (or the whole of a relative reference): hier-part or relative-part,
// then query and fragment.
bool reference_rest(std::string_view text, bool iri, bool relative) {
  const auto hash = text.find('#');
  if (hash != std::string_view::npos) {
    if (!all_chars(text.substr(hash + 1), iri, query_char)) return false;
    text = text.substr(0, hash);
  }
  const auto question = text.find('?');
  if (question != std::string_view::npos) {
    if (!all_chars(text.substr(question + 1), iri, query_char)) return false;
    text = text.substr(0, question);
  }
  std::string_view path = text;
  if (text.starts_with("//")) {
    const auto slash = text.find('/', 2);
    if (!authority(text.substr(2, slash - 2), iri)) return false;
    path = slash == std::string_view::npos ? std::string_view() : text.substr(slash);
  } else if (relative) {
    // path-noscheme: a colon in the first segment would make it read as a scheme.
    if (text.substr(0, text.find('/')).find(':') != std::string_view::npos) return false;
  }
  return all_chars(path, iri, [](char c) { return pchar(c) || c == '/'; });
}

// RFC 6570 varspec: varname [":" max-length | "*"].
bool varspec(std::string_view text) {
  std::string_view name = text;
  if (text.ends_with("*")) {
    name = text.substr(0, text.size() - 1);
  } else if (const auto colon = text.find(':'); colon != std::string_view::npos) {
    name = text.substr(0, colon);
    const auto length = text.substr(colon + 1);
    if (length.empty() || length.size() > 4 || length[0] == '0') return false;
    for (char c : length) {
      if (!ascii_digit(c)) return false;
    }
  }
  if (name.empty() || name.front() == '.' || name.back() == '.' ||
      name.find("..") != std::string_view::npos) {
    return false;
  }
  return all_chars(name, false,
                   [](char c) { return ascii_alpha(c) || ascii_digit(c) || c == '_' || c == '.'; });
}

bool template_expression(std::string_view text) {
  if (!text.empty() && std::string_view("+#./;?&").find(text[0]) != std::string_view::npos) {
    text = text.substr(1);
  }
  std::size_t start = 0;
  while (true) {
    const auto comma = text.find(',', start);
    if (!varspec(text.substr(start, comma - start))) return false;
    if (comma == std::string_view::npos) return true;
    start = comma + 1;
  }
}

}  // namespace

bool is_ipv4(std::string_view text) {
  std::size_t start = 0;
  for (int part = 0; part < 4; ++part) {
    const auto dot = text.find('.', start);
    if ((part < 3) == (dot == std::string_view::npos)) return false;
    if (!dec_octet(text.substr(start, dot - start))) return false;
    start = dot + 1;
  }
  return true;
}

bool is_ipv6(std::string_view text) {
  // Up to 8 groups of 1-4 hex digits, at most one "::" standing for one or more zero groups,
  // and a dotted IPv4 address allowed in place of the last two groups.
  const auto gap = text.find("::");
  if (gap != std::string_view::npos && text.find("::", gap + 1) != std::string_view::npos) {
    return false;
  }
  int groups = 0;
  const auto count = [&groups](std::string_view part, bool last) {
    if (part.empty()) return true;
    std::size_t start = 0;
    while (true) {
      const auto colon = part.find(':', start);
      const auto group = part.substr(start, colon - start);
      if (colon == std::string_view::npos && last && group.find('.') != std::string_view::npos) {
        groups += 2;
        return is_ipv4(group);
      }
      if (group.empty() || group.size() > 4) return false;
      for (char c : group) {
        if (!ascii_hex(c)) return false;
      }
      ++groups;
      if (colon == std::string_view::npos) return true;
      start = colon + 1;
    }
  };
  if (gap == std::string_view::npos) return count(text, true) && groups == 8;
  return count(text.substr(0, gap), false) && count(text.substr(gap + 2), true) && groups < 8;
}

bool is_rfc3986_uri(std::string_view text, bool iri) {
  std::size_t colon = 0;
  return scheme_at_start(text, colon) && reference_rest(text.substr(colon + 1), iri, false);
}

bool is_uri_reference(std::string_view text, bool iri) {
  return is_rfc3986_uri(text, iri) || reference_rest(text, iri, true);
}

bool is_uri_template(std::string_view text) {
  std::size_t literal_start = 0;
  while (literal_start <= text.size()) {
    const auto open = text.find('{', literal_start);
    const auto literal = text.substr(literal_start, open - literal_start);
    // RFC 6570 literals, with the apostrophe the suite accepts (the RFC leaves it out).
    if (!all_chars(literal, true, [](char c) {
          return c > 0x20 && c != 0x7F &&
                 std::string_view("\"<>\\^`{|}").find(c) == std::string_view::npos;
        })) {
      return false;
    }
    if (open == std::string_view::npos) return true;
    const auto close = text.find('}', open);
    if (close == std::string_view::npos ||
        !template_expression(text.substr(open + 1, close - open - 1)))
      return false;
    literal_start = close + 1;
  }
  return true;
}

}  // namespace accord::detail
