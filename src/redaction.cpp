#include "redaction.hpp"

namespace accord::detail {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Where one character `wanted` written at `at` ends (plain, or backslashes + uXXXX), or npos.
std::size_t char_end(std::string_view text, std::size_t at, char wanted) {
  if (at >= text.size()) return std::string_view::npos;
  if (text[at] == wanted) return at + 1;
  if (text[at] != '\\') return std::string_view::npos;
  std::size_t u = at;
  while (u < text.size() && text[u] == '\\') ++u;
  if (u + 5 > text.size() || text[u] != 'u') return std::string_view::npos;
  int code = 0;
  for (std::size_t k = u + 1; k < u + 5; ++k) {
    const int digit = hex_value(text[k]);
    if (digit < 0) return std::string_view::npos;
    code = code * 16 + digit;
  }
  return code == static_cast<unsigned char>(wanted) ? u + 5 : std::string_view::npos;
}

// Where an occurrence of `secret` starting at `at` ends, or npos.
std::size_t match_end(std::string_view text, std::size_t at, std::string_view secret) {
  for (const char c : secret) {
    at = char_end(text, at, c);
    if (at == std::string_view::npos) return at;
  }
  return at;
}

}  // namespace

std::string redact_secret(std::string text, std::string_view secret) {
  if (secret.size() < 4 || text.size() < secret.size()) return text;
  const bool escapes = text.find('\\') != std::string::npos;
  if (!escapes && text.find(secret) == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  const std::string_view view(text);
  for (std::size_t i = 0; i < view.size();) {
    const char c = view[i];
    if (c == secret.front() || (escapes && c == '\\')) {
      if (const auto end = match_end(view, i, secret); end != std::string_view::npos) {
        out += kRedacted;
        i = end;
        continue;
      }
      if (c == '\\') {
        // A match from a later backslash of this run would fail the same way: skip the run, so a
        // body of backslashes stays linear.
        const std::size_t run_end = view.find_first_not_of('\\', i);
        const std::size_t stop = run_end == std::string_view::npos ? view.size() : run_end;
        out.append(view.substr(i, stop - i));
        i = stop;
        continue;
      }
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace accord::detail
