#pragma once
// Equality (and copying) of a few bytes without a call: the texts a schema fixes (property names,
// enum options, a pattern's literal start) are short, and memcmp's call costs more than comparing
// them.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

// Public only because the typed headers match member names with it; not part of the API.
namespace accord::bytes_detail {

// Two words that overlap in the middle: `size` from one to two words' worth of bytes.
template <class Word>
[[gnu::always_inline]] inline bool same_words(const char* a, const char* b, std::size_t size) {
  Word a0, b0, a1, b1;
  std::memcpy(&a0, a, sizeof(Word));
  std::memcpy(&b0, b, sizeof(Word));
  std::memcpy(&a1, a + size - sizeof(Word), sizeof(Word));
  std::memcpy(&b1, b + size - sizeof(Word), sizeof(Word));
  return ((a0 ^ b0) | (a1 ^ b1)) == 0;
}

// The `size` bytes at `from` to `to` as two words that overlap in the middle, as same_words reads
// them: `size` from one to two words' worth of bytes.
template <class Word>
[[gnu::always_inline]] inline void copy_words(char* to, const char* from, std::size_t size) {
  Word head, tail;
  std::memcpy(&head, from, sizeof(Word));
  std::memcpy(&tail, from + size - sizeof(Word), sizeof(Word));
  std::memcpy(to, &head, sizeof(Word));
  std::memcpy(to + size - sizeof(Word), &tail, sizeof(Word));
}

// Whether the `size` bytes at `a` and `b` are equal, reading only those bytes.
[[gnu::always_inline]] inline bool same_bytes(const char* a, const char* b, std::size_t size) {
  if (size > 16) return std::memcmp(a, b, size) == 0;
  if (size >= 8) return same_words<std::uint64_t>(a, b, size);
  if (size >= 4) return same_words<std::uint32_t>(a, b, size);
  if (size == 0) return true;
  // One to three bytes: the first, the middle and the last are all of them, compared without a
  // loop (a currency code, a short key).
  const std::size_t middle = size / 2;
  return ((a[0] ^ b[0]) | (a[middle] ^ b[middle]) | (a[size - 1] ^ b[size - 1])) == 0;
}

// Whether two texts are equal (a key and a member or property name, mostly).
[[gnu::always_inline]] inline bool same_text(std::string_view a, std::string_view b) {
  return a.size() == b.size() && same_bytes(a.data(), b.data(), a.size());
}

}  // namespace accord::bytes_detail
