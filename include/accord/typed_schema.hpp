#pragma once
// A Schema derived from a C++ type declared once (typed_types.hpp lists the types it knows):
//
//   enum class Currency { EUR, USD };
//   BOOST_DESCRIBE_ENUM(Currency, EUR, USD)
//   struct Refund { std::string orderId; double amount; Currency currency;
//                   std::optional<std::string> note; };
//   BOOST_DESCRIBE_STRUCT(Refund, (), (orderId, amount, currency, note))
//
//   schema_of<Refund>()  // object({{"orderId", string()}, {"amount", number()},
//                        //         {"currency", enumeration({"EUR", "USD"})},
//                        //         {"note", string().optional()}})
//
// A struct member of type std::optional is an optional field; std::optional anywhere else
// (an array item, a map value) is nullable. Rules on members come from typed_rules.hpp. A
// std::variant without a Tag whose later alternative an earlier one shadows (typed_variant.hpp)
// throws SchemaError here, at the alternative's path (`accounts[]|1`).
//
// A struct that contains itself (a std::vector or std::map of itself, directly or through other
// structs) is a named definition (Schema::named) under its unqualified type name, and each place
// it recurs is a ref() to it: `struct Tree { std::string label; std::vector<Tree> children; }`
// is object({{"label", string()}, {"children", array(ref("Tree"))}}).named("Tree").

#include <boost/core/demangle.hpp>
#include <string>
#include <typeinfo>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/typed_variant.hpp"

namespace accord {

template <class T>
[[nodiscard]] Schema schema_of();

namespace typed_detail {

// The name a recursive struct's definition gets: its unqualified C++ name, with the characters a
// definition name cannot hold (template brackets, commas, spaces) as '_'.
template <class T>
std::string definition_name() {
  const std::string full = boost::core::demangle(typeid(T).name());
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i < full.size(); ++i) {
    if (full[i] == '<') ++depth;
    if (full[i] == '>') --depth;
    if (depth == 0 && full[i] == ':') start = i + 1;
  }
  std::string name;
  for (const char c : full.substr(start)) {
    const bool kept = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    name += kept ? c : '_';
  }
  return name;
}

// `Seen` lists the structs being built around this one (outermost first): meeting one of them
// again is the recursion, written as a ref to its definition.
template <class T, class Seen>
Schema schema_in();

template <class T, class Seen>
Schema field_schema() {
  if constexpr (is_optional<T>::value) {
    return schema_in<typename T::value_type, Seen>().optional();
  } else {
    return schema_in<T, Seen>();
  }
}

// The name of the Tag member every alternative starts with, when they all share one; else "".
template <class... Alternatives>
std::string common_tag() {
  std::vector<std::string> tags;
  auto tag_of = []<class A>(A* /*alternative*/) {
    std::string name;
    if constexpr (DescribedStruct<A>) {
      boost::mp11::mp_for_each<described_members<A>>([&](auto member) {
        if (name.empty() && is_tag<member_type_t<decltype(member)>>::value) name = member.name;
      });
    }
    return name;
  };
  (tags.push_back(tag_of(static_cast<Alternatives*>(nullptr))), ...);
  const bool shared =
      !tags.front().empty() &&
      std::all_of(tags.begin(), tags.end(), [&](const auto& t) { return t == tags.front(); });
  return shared ? tags.front() : std::string();
}

// `build()`, with the paths of a SchemaError it throws starting at `segment`: a variant deep
// inside a struct is named by where it sits.
template <class Build>
Schema built_under(const PathSegment& segment, const Build& build) {
  try {
    return build();
  } catch (const SchemaError& error) {
    auto problems = error.problems();
    for (auto& problem : problems) problem.path = Path{segment} + problem.path;
    throw SchemaError(std::move(problems));
  }
}

// Without a common Tag, a value is read as the first alternative it is valid for, so each must
// be the first for some value (typed_variant.hpp).
template <class Seen, class... Alternatives>
Schema variant_schema(std::variant<Alternatives...>* /*type*/) {
  std::size_t index = 0;
  std::vector<Schema> options{built_under("|" + std::to_string(index++),
                                          [] { return schema_in<Alternatives, Seen>(); })...};
  auto tag = common_tag<Alternatives...>();
  if (!tag.empty()) return discriminated_union(std::move(tag), std::move(options));
  check_alternatives_differ(options);
  return union_(std::move(options));
}

// The members of a described struct U as fields, built with U among the structs being built.
template <class U, class Seen>
std::vector<Field> struct_fields() {
  using Inside = boost::mp11::mp_push_back<Seen, U>;
  std::vector<Field> fields;
  boost::mp11::mp_for_each<described_members<U>>([&](auto member) {
    fields.push_back({member.name, built_under(std::string(member.name), [] {
                        return field_schema<member_type_t<decltype(member)>, Inside>();
                      })});
  });
  return fields;
}

// A struct's object schema, named when the struct contains itself (a ref inside points to it).
template <class U>
Schema struct_schema(Schema object_schema) {
  if constexpr (contains_itself<U>) {
    return object_schema.named(definition_name<U>());
  } else {
    return object_schema;
  }
}

// Fails to compile, naming the type, for a type the layer does not know.
template <class T, class Seen>
Schema schema_in() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>) {
    return boolean();
  } else if constexpr (std::is_integral_v<U>) {
    return integer();
  } else if constexpr (std::is_floating_point_v<U>) {
    return number();
  } else if constexpr (std::is_same_v<U, std::string>) {
    return string();
  } else if constexpr (std::is_same_v<U, std::monostate>) {
    return null_();
  } else if constexpr (is_tag<U>::value) {
    return literal(std::string(U::value));
  } else if constexpr (DescribedEnum<U>) {
    std::vector<std::string> names;
    boost::mp11::mp_for_each<boost::describe::describe_enumerators<U>>(
        [&](auto enumerator) { names.emplace_back(enumerator.name); });
    return enumeration(std::move(names));
  } else if constexpr (is_optional<U>::value) {
    return schema_in<typename U::value_type, Seen>().nullable();
  } else if constexpr (is_vector<U>::value || is_std_array<U>::value) {
    auto items = array(
        built_under(std::string("[]"), [] { return schema_in<typename U::value_type, Seen>(); }));
    if constexpr (is_std_array<U>::value) return items.length(std::tuple_size_v<U>);
    return items;
  } else if constexpr (is_string_map<U>::value) {
    return record(
        built_under(std::string("{}"), [] { return schema_in<typename U::mapped_type, Seen>(); }));
  } else if constexpr (is_variant<U>::value) {
    return variant_schema<Seen>(static_cast<U*>(nullptr));
  } else if constexpr (DescribedStruct<U>) {
    if constexpr (boost::mp11::mp_contains<Seen, U>::value) {
      return ref(definition_name<U>());
    } else {
      return struct_schema<U>(object(struct_fields<U, Seen>()));
    }
  } else {
    static_assert(always_false<U>,
                  "accord: no schema for this C++ type; use bool, an arithmetic type, std::string, "
                  "std::optional, std::vector, std::array, std::map<std::string, T>, std::variant, "
                  "accord::Tag, or a struct/enum described with BOOST_DESCRIBE_STRUCT/_ENUM");
  }
}

}  // namespace typed_detail

template <class T>
Schema schema_of() {
  return typed_detail::schema_in<T, boost::mp11::mp_list<>>();
}

}  // namespace accord
