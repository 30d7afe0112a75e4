#pragma once
// A value a thread reuses from one document to the next, for typed reading (typed_rules.hpp,
// typed_validator.hpp). No part of the API.
//
// A typed refinement runs on every validation of its node, and reads the node's C++ value to hand
// it to the predicate: into a fresh value, each string would be a new allocation every time. Read
// into the thread's reused value instead, a string keeps its capacity (typed_value.hpp's
// overwrite), so once warm a refinement allocates nothing. A value that grew large is reset when
// its lease ends, so one huge document does not stay resident in every thread that read it.

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "accord/json_view.hpp"
#include "accord/typed_types.hpp"

namespace accord::typed_detail {

// A reused value is kept while it holds what a text of about this size leaves in it.
inline constexpr std::size_t kept_text_bytes = std::size_t{1} << 20;

// The heap bytes a value's strings, vectors and maps hold (capacities; a map's node as its pair's
// size), walked member by member: less work than reading the value was.
template <class T>
std::size_t held_bytes(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return value.capacity();
  } else if constexpr (is_optional<T>::value) {
    return value ? held_bytes(*value) : 0;
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value || is_string_map<T>::value) {
    std::size_t bytes = 0;
    if constexpr (is_vector<T>::value) bytes = value.capacity() * sizeof(typename T::value_type);
    for (const auto& item : value) {
      if constexpr (is_string_map<T>::value) {
        bytes += held_bytes(item.first) + sizeof(item) + held_bytes(item.second);
      } else {
        bytes += held_bytes(item);
      }
    }
    return bytes;
  } else if constexpr (is_variant<T>::value) {
    return std::visit([](const auto& alternative) { return held_bytes(alternative); }, value);
  } else if constexpr (DescribedStruct<T>) {
    std::size_t bytes = 0;
    boost::mp11::mp_for_each<described_members<T>>(
        [&](auto member) { bytes += held_bytes(value.*member.pointer); });
    return bytes;
  } else {
    return 0;  // numbers, enums, tags: nothing on the heap
  }
}

// Whether a reused value holds more than a text of kept_text_bytes leaves: a value's heap bytes
// are about its text's; a document's are about three times its text's (the tape's 16 bytes per 8
// of text, the copy of the text) and up to once more (escaped strings decoded after the copy).
template <class T>
bool holds_a_large_text(const T& value) {
  return held_bytes(value) > kept_text_bytes;
}
inline bool holds_a_large_text(const JsonDocument& document) {
  return document.bytes() > 4 * kept_text_bytes;
}

// This thread's reused T while the lease lives; reset to T{} when the lease ends holding a large
// text (holds_a_large_text). A lease taken while the thread's T is out (a predicate that
// validates again on the same thread) gets a fresh T of its own, so nothing a caller is still
// reading is overwritten.
template <class T>
class ScratchLease {
 public:
  ScratchLease() {
    Slot& slot = thread_slot();
    if (slot.leased) {
      own_.emplace();
      value_ = &*own_;
    } else {
      slot.leased = true;
      value_ = &slot.value;
    }
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  ~ScratchLease() {
    if (own_) return;
    Slot& slot = thread_slot();
    if (holds_a_large_text(slot.value)) {
      // Swapped out, not assigned: a std::string assigned an empty one keeps its buffer.
      T released{};
      std::swap(slot.value, released);
    }
    slot.leased = false;
  }
  T& operator*() const { return *value_; }
  T* operator->() const { return value_; }

 private:
  struct Slot {
    T value{};
    bool leased = false;
  };
  static Slot& thread_slot() {
    thread_local Slot slot;
    return slot;
  }
  std::optional<T> own_;
  T* value_ = nullptr;
};

}  // namespace accord::typed_detail
