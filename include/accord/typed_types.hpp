#pragma once
// The C++ types the typed layer maps to JSON: which ones it knows, and the Tag that marks a
// union alternative.
//
//   struct Refund { std::string orderId; double amount; std::optional<std::string> note; };
//   BOOST_DESCRIBE_STRUCT(Refund, (), (orderId, amount, note))
//
// Structs and enums are read through Boost.Describe (BOOST_DESCRIBE_STRUCT, BOOST_DESCRIBE_ENUM):
// one macro line beside the declaration lists the members once, and the library gives their
// names, pointers and order at compile time. Besides described structs and enums the layer knows
// bool, the arithmetic types, std::string, std::optional, std::vector, std::array,
// std::map<std::string, T>, std::variant (std::monostate is null) and Tag.

#include <algorithm>
#include <array>
#include <boost/describe.hpp>
#include <boost/mp11.hpp>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

namespace accord {

// A string usable as a template argument: Tag<"card">.
template <std::size_t N>
struct FixedString {
  std::array<char, N> text{};
  constexpr FixedString(const char (&value)[N]) {  // NOLINT: implicit by design
    std::copy_n(value, N, text.begin());
  }
  [[nodiscard]] constexpr std::string_view view() const { return {text.data(), N - 1}; }
};

// A member that always holds the one string `Value`: in JSON a literal. A std::variant whose
// alternatives are structs with a Tag member of one name becomes a discriminated union on it.
template <FixedString Value>
struct Tag {
  static constexpr std::string_view value = Value.view();
  friend bool operator==(const Tag&, const Tag&) = default;
};

namespace typed_detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_std_array : std::false_type {};
template <class T, std::size_t N>
struct is_std_array<std::array<T, N>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};

template <class T>
struct is_variant : std::false_type {};
template <class... T>
struct is_variant<std::variant<T...>> : std::true_type {};

template <class T>
struct is_tag : std::false_type {};
template <FixedString V>
struct is_tag<Tag<V>> : std::true_type {};

template <class T>
inline constexpr bool always_false = false;

}  // namespace typed_detail

template <class T>
concept DescribedStruct = std::is_class_v<T> && boost::describe::has_describe_members<T>::value;
template <class T>
concept DescribedEnum = std::is_enum_v<T> && boost::describe::has_describe_enumerators<T>::value;

// The members the layer reads: public ones, those of described bases included, in order.
template <class T>
using described_members = boost::describe::describe_members<T, boost::describe::mod_public |
                                                                   boost::describe::mod_inherited>;

namespace typed_detail {

template <class Pointer>
struct member_type;
template <class C, class M>
struct member_type<M C::*> {
  using type = M;
};
template <class Descriptor>
using member_type_t = typename member_type<std::remove_cv_t<decltype(Descriptor::pointer)>>::type;

template <class Test, class T, class Seen>
constexpr bool some_part();

template <class Test, class Seen, template <class...> class List, class... Ts>
constexpr bool any_part(List<Ts...>* /*types*/) {
  return (some_part<Test, Ts, Seen>() || ...);
}

// Whether T or a part of it (an item, a value, an alternative, a member, at any depth) is one
// `Test::found<U, Seen>()` is true for; `Seen` lists the structs walked around U, so a cycle ends.
template <class Test, class T, class Seen>
constexpr bool some_part() {
  using U = std::remove_cv_t<T>;
  if constexpr (Test::template found<U, Seen>()) {
    return true;
  } else if constexpr (is_optional<U>::value || is_vector<U>::value || is_std_array<U>::value) {
    return some_part<Test, typename U::value_type, Seen>();
  } else if constexpr (is_string_map<U>::value) {
    return some_part<Test, typename U::mapped_type, Seen>();
  } else if constexpr (is_variant<U>::value) {
    return any_part<Test, Seen>(static_cast<U*>(nullptr));
  } else if constexpr (DescribedStruct<U> && !boost::mp11::mp_contains<Seen, U>::value) {
    using Members = boost::mp11::mp_transform<member_type_t, described_members<U>>;
    return any_part<Test, boost::mp11::mp_push_back<Seen, U>>(static_cast<Members*>(nullptr));
  } else {
    return false;
  }
}

// A struct met again inside itself.
struct RecurringStruct {
  template <class U, class Seen>
  static constexpr bool found() {
    return DescribedStruct<U> && boost::mp11::mp_contains<Seen, U>::value;
  }
};

template <class Target>
struct SameAs {
  template <class U, class Seen>
  static constexpr bool found() {
    return std::is_same_v<U, Target>;
  }
};

struct Variant {
  template <class U, class Seen>
  static constexpr bool found() {
    return is_variant<U>::value;
  }
};

// A described struct one of whose members can hold the struct itself.
template <class T>
constexpr bool self_recursive() {
  if constexpr (DescribedStruct<T>) {
    using Members = boost::mp11::mp_transform<member_type_t, described_members<T>>;
    return any_part<SameAs<T>, boost::mp11::mp_list<T>>(static_cast<Members*>(nullptr));
  } else {
    return false;
  }
}

template <class T>
constexpr bool known();

template <template <class...> class List, class... Ts>
constexpr bool all_known(List<Ts...>* /*types*/) {
  return (known<Ts>() && ...);
}

template <class T>
constexpr bool known() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_arithmetic_v<U> || std::is_same_v<U, std::string> ||
                std::is_same_v<U, std::monostate> || is_tag<U>::value ||
                (std::is_enum_v<U> && boost::describe::has_describe_enumerators<U>::value)) {
    return true;
  } else if constexpr (is_optional<U>::value || is_vector<U>::value || is_std_array<U>::value) {
    return known<typename U::value_type>();
  } else if constexpr (is_string_map<U>::value) {
    return known<typename U::mapped_type>();
  } else if constexpr (is_variant<U>::value) {
    return all_known(static_cast<U*>(nullptr));
  } else if constexpr (DescribedStruct<U>) {
    return true;  // its members are checked as it is converted
  } else {
    return false;
  }
}

}  // namespace typed_detail

// A type the typed layer converts: every part of it is one typed_types.hpp lists.
template <class T>
concept KnownType = typed_detail::known<T>();

// T holds a struct that contains itself: its schema has named definitions and refs.
template <class T>
inline constexpr bool is_recursive_type =
    typed_detail::some_part<typed_detail::RecurringStruct, T, boost::mp11::mp_list<>>();

// T holds a std::variant: reading it needs the schema's judgement of which alternative a value is.
template <class T>
inline constexpr bool holds_variant =
    typed_detail::some_part<typed_detail::Variant, T, boost::mp11::mp_list<>>();

// T is a struct that contains itself: its schema is a named definition (Schema::named).
template <class T>
inline constexpr bool contains_itself = typed_detail::self_recursive<T>();

}  // namespace accord
