#include "transport/redaction.hpp"
#include "core/ascii.hpp"

#include <algorithm>
#include <bit>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

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

// The scans below look at each place with the byte after it, for what may start a match of a
// secret that begins `first`, `second`: `first` followed by `second` or by a backslash (the
// second character escaped), or a backslash followed by 'u' (an escape, perhaps of the first
// character, at the end of its run of backslashes). Most places where the first character
// occurs alone (an 's' of "sk-..." in English text) are passed over in the same pass that looks
// for escapes, rather than each stopping a search of its own.
#if defined(__x86_64__) && defined(__GNUC__)
// 32 places at a time: every request body and reply is scanned whole for each secret, and this
// scan is most of what redacting them costs. Where `p` stops: at a block holding a place that
// may start a match (its first place, left for the caller's narrower loop to find again), or
// with fewer than 33 bytes left.
__attribute__((target("avx2"))) const char* past_wide_blocks(const char* p, const char* end,
                                                             char first, char second) {
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i u = _mm256_set1_epi8('u');
  const __m256i first_char = _mm256_set1_epi8(first);
  const __m256i second_char = _mm256_set1_epi8(second);
  while (end - p >= 33) {  // the block and the byte after it
    const __m256i here = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i after = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1));
    const __m256i plain = _mm256_and_si256(_mm256_cmpeq_epi8(here, first_char),
                                           _mm256_or_si256(_mm256_cmpeq_epi8(after, second_char),
                                                           _mm256_cmpeq_epi8(after, backslash)));
    const __m256i escape =
        _mm256_and_si256(_mm256_cmpeq_epi8(here, backslash), _mm256_cmpeq_epi8(after, u));
    if (_mm256_movemask_epi8(_mm256_or_si256(plain, escape)) != 0) return p;
    p += 32;
  }
  return p;
}

const bool kWideBlocks = [] {
  __builtin_cpu_init();  // a static's initialiser may run before the feature bits are read
  return __builtin_cpu_supports("avx2") != 0;
}();
#endif

// The first place at or after `from` that may start a match of a secret beginning `first`,
// `second` (see above), or npos; never the last byte, since a secret has at least 4
// characters. Sixteen places at a time with SSE2 (baseline on x86-64), 32 with AVX2 where the
// processor has it.
std::size_t next_candidate(std::string_view text, std::size_t from, char first, char second) {
  const char* p = text.data() + from;
  const char* const end = text.data() + text.size();
#if defined(__x86_64__) && defined(__GNUC__)
  if (kWideBlocks) p = past_wide_blocks(p, end, first, second);
#endif
#if defined(__SSE2__)
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i u = _mm_set1_epi8('u');
  const __m128i first_char = _mm_set1_epi8(first);
  const __m128i second_char = _mm_set1_epi8(second);
  // Bit i: place block + i may start a match (the block's 16 bytes and the byte after them).
  const auto places = [&](const char* block) {
    const __m128i here = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block));
    const __m128i after = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block + 1));
    const __m128i plain = _mm_and_si128(
        _mm_cmpeq_epi8(here, first_char),
        _mm_or_si128(_mm_cmpeq_epi8(after, second_char), _mm_cmpeq_epi8(after, backslash)));
    const __m128i escape = _mm_and_si128(_mm_cmpeq_epi8(here, backslash), _mm_cmpeq_epi8(after, u));
    return static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(plain, escape)));
  };
  for (; end - p >= 17; p += 16) {
    if (const unsigned found = places(p); found != 0)
      return static_cast<std::size_t>(p - text.data()) + std::countr_zero(found);
  }
  // The last places (fewer than 16 left, but the last byte): the block that ends with the text,
  // its places before `p`, looked at already, masked off. Every scan ends here, most with no
  // match: one block instead of a loop over up to 15 places.
  if (end - p >= 2 && text.size() >= 17) {
    const char* block = end - 17;
    const unsigned found = places(block) & (~0U << (p - block));
    if (found == 0) return std::string_view::npos;
    return static_cast<std::size_t>(block - text.data()) + std::countr_zero(found);
  }
#endif
  // The rest of a short text (or all, without SSE2), place by place.
  for (; end - p >= 2; ++p) {
    if ((p[0] == first && (p[1] == second || p[1] == '\\')) || (p[0] == '\\' && p[1] == 'u'))
      return static_cast<std::size_t>(p - text.data());
  }
  return std::string_view::npos;
}

// The next occurrence of `secret` (at least 4 characters) at or after `from`, as {start, end};
// start is npos when there is none.
std::pair<std::size_t, std::size_t> find_match(std::string_view text, std::size_t from,
                                               std::string_view secret) {
  constexpr auto npos = std::string_view::npos;
  for (std::size_t next = from;;) {
    std::size_t at = next_candidate(text, next, secret[0], secret[1]);
    if (at == npos) return {npos, npos};
    // An escape starts at the first backslash of its run (those before `next` were tried).
    if (text[at] == '\\' && text[at + 1] == 'u') {
      while (at > next && text[at - 1] == '\\') --at;
    }
    if (const auto end = match_end(text, at, secret); end != npos) return {at, end};
    next = at + 1;
    if (text[at] == '\\' && secret.front() != '\\') {
      // A match from a later backslash of this run would fail the same way: skip the run, so a
      // body of backslashes stays linear. Not for a secret that itself begins with a backslash
      // (the piece of a key cut at a stream's continuation can): it may begin at any of them.
      next = std::min(text.find_first_not_of('\\', at), text.size());
    }
  }
}

}  // namespace

Spans secret_spans(std::string_view text, std::string_view secret) {
  Spans spans;
  const auto add_matches = [&](std::string_view one) {
    if (one.size() < 4 || text.size() < one.size()) return;
    for (auto span = find_match(text, 0, one); span.first != std::string_view::npos;
         span = find_match(text, span.second, one)) {
      spans.push_back(span);
    }
  };
  // The whole key, then each part of a key joined with ':' (AWS credentials: the secret half and
  // the session token travel on their own).
  add_matches(secret);
  if (secret.find(':') == std::string_view::npos) return spans;
  for (std::size_t from = 0; from <= secret.size();) {
    const std::size_t colon = std::min(secret.find(':', from), secret.size());
    add_matches(secret.substr(from, colon - from));
    from = colon + 1;
  }
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

void redact_in_place(std::string& text, std::string_view secret) {
  const Spans spans = secret_spans(text, secret);
  if (spans.empty()) return;  // the usual case: nothing copied
  text = redact_spans(text, spans);
}

std::string redact_secret(std::string text, std::string_view secret) {
  redact_in_place(text, secret);
  return text;
}

}  // namespace accord::detail
