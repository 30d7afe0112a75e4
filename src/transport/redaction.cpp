#include "transport/redaction.hpp"
#include "core/ascii.hpp"

#include <algorithm>
#include <utility>

namespace accord::detail {
namespace {

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

// The next occurrence of `secret` at or after `from`, as {start, end}; start is npos when there
// is none. Candidates are the secret's first character and backslashes (which may begin an
// escape of it), each found with a memchr-speed search rather than a look at every byte.
std::pair<std::size_t, std::size_t> find_match(std::string_view text, std::size_t from,
                                               std::string_view secret) {
  constexpr auto npos = std::string_view::npos;
  std::size_t plain = text.find(secret.front(), from);
  std::size_t escape = text.find('\\', from);
  while (plain != npos || escape != npos) {
    const std::size_t at = std::min(plain, escape);
    if (const auto end = match_end(text, at, secret); end != npos) return {at, end};
    std::size_t next = at + 1;
    if (text[at] == '\\') {
      // A match from a later backslash of this run would fail the same way: skip the run, so a
      // body of backslashes stays linear.
      next = std::min(text.find_first_not_of('\\', at), text.size());
    }
    if (plain < next) plain = text.find(secret.front(), next);
    if (escape < next) escape = text.find('\\', next);
  }
  return {npos, npos};
}

}  // namespace

Spans secret_spans(std::string_view text, std::string_view secret) {
  Spans spans;
  // The whole key, then each part of a key joined with ':' (AWS credentials: the secret half and
  // the session token travel on their own).
  std::vector<std::string_view> secrets{secret};
  if (secret.find(':') != std::string_view::npos) {
    for (std::size_t from = 0; from <= secret.size();) {
      const std::size_t colon = std::min(secret.find(':', from), secret.size());
      secrets.push_back(secret.substr(from, colon - from));
      from = colon + 1;
    }
  }
  for (const std::string_view one : secrets) {
    if (one.size() < 4 || text.size() < one.size()) continue;
    for (auto span = find_match(text, 0, one); span.first != std::string_view::npos;
         span = find_match(text, span.second, one)) {
      spans.push_back(span);
    }
  }
  if (secrets.size() == 1) return spans;
  // In order and apart: overlapping matches (a part inside the whole) become one span.
  std::sort(spans.begin(), spans.end());
  Spans merged;
  for (const auto& span : spans) {
    if (!merged.empty() && span.first <= merged.back().second) {
      merged.back().second = std::max(merged.back().second, span.second);
    } else {
      merged.push_back(span);
    }
  }
  return merged;
}

std::string redact_spans(std::string_view text, const Spans& spans) {
  std::string out;
  out.reserve(text.size());
  std::size_t copied = 0;
  for (const auto& [start, end] : spans) {
    out.append(text.substr(copied, start - copied));
    out += kRedacted;
    copied = end;
  }
  out.append(text.substr(copied));
  return out;
}

std::string redact_secret(std::string text, std::string_view secret) {
  const Spans spans = secret_spans(text, secret);
  if (spans.empty()) return text;  // the usual case: nothing copied
  return redact_spans(text, spans);
}

}  // namespace accord::detail
