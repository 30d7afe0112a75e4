#pragma once
// The values of an object's declared properties, found in one pass over its members: the object
// keywords (validate/keywords/object.cpp) fill it, and the object's declarative rules
// (schema/rule_evaluation.hpp) read their fields from it instead of looking each one up again.

#include <array>
#include <cstddef>
#include <cstdint>

#include "accord/json_view.hpp"

namespace accord::detail {

// A value by its property's place among the declared properties: a slot is written only for a
// property the object has (`present_` says which), so the buffer costs nothing to set up.
class MemberValues {
 public:
  // An object node with at most this many properties has their values found in one pass, into
  // this buffer; one with more looks each property up.
  static constexpr std::size_t kCapacity = 16;

  void keep(std::uint32_t place, JsonView value) {
    slots_[place].value = value;
    present_ |= std::uint32_t{1} << place;
  }
  [[nodiscard]] const JsonView* find(std::size_t place) const {
    return (present_ >> place & 1U) != 0 ? &slots_[place].value : nullptr;
  }
  // This buffer becomes `other`, whose places from `count` on are unused: only the places before
  // it are copied.
  void copy_places(const MemberValues& other, std::size_t count) {
    for (std::size_t place = 0; place < count; ++place) slots_[place] = other.slots_[place];
    present_ = other.present_;
    filled_ = other.filled_;
  }
  // Whether every declared property was looked for (absent ones are then absent from the object).
  [[nodiscard]] bool filled() const { return filled_; }
  void mark_filled() { filled_ = true; }

 private:
  union Slot {
    // Left unset: copying the buffer copies the bytes (defined for a union), and a slot is read
    // as a value only after keep() wrote it.
    Slot() {}
    JsonView value;
  };
  std::array<Slot, kCapacity> slots_;
  std::uint32_t present_ = 0;
  bool filled_ = false;
  static_assert(kCapacity <= 32);
};

}  // namespace accord::detail
