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
// (an array item, a map value) is nullable. Rules on members come from typed_rules.hpp.

#include <string>
#include <vector>

#include "accord/schema.hpp"
#include "accord/typed_types.hpp"

namespace accord {

template <class T>
[[nodiscard]] Schema schema_of();

namespace typed_detail {

template <class T>
Schema field_schema() {
  if constexpr (is_optional<T>::value) {
    return schema_of<typename T::value_type>().optional();
  } else {
    return schema_of<T>();
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

template <class... Alternatives>
Schema variant_schema(std::variant<Alternatives...>* /*type*/) {
  std::vector<Schema> options{schema_of<Alternatives>()...};
  auto tag = common_tag<Alternatives...>();
  return tag.empty() ? union_(std::move(options))
                     : discriminated_union(std::move(tag), std::move(options));
}

}  // namespace typed_detail

// Fails to compile, naming the type, for a type the layer does not know and for a recursive type
// (the schema DSL has no named definitions yet, so it cannot describe one).
template <class T>
Schema schema_of() {
  using namespace typed_detail;
  using U = std::remove_cv_t<T>;
  static_assert(!is_recursive_type<U>,
                "accord: a recursive type needs named definitions ($ref), which the schema DSL "
                "does not have yet");
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
    return schema_of<typename U::value_type>().nullable();
  } else if constexpr (is_vector<U>::value) {
    return array(schema_of<typename U::value_type>());
  } else if constexpr (is_std_array<U>::value) {
    return array(schema_of<typename U::value_type>()).length(std::tuple_size_v<U>);
  } else if constexpr (is_string_map<U>::value) {
    return record(schema_of<typename U::mapped_type>());
  } else if constexpr (is_variant<U>::value) {
    return variant_schema(static_cast<U*>(nullptr));
  } else if constexpr (DescribedStruct<U>) {
    std::vector<Field> fields;
    boost::mp11::mp_for_each<described_members<U>>([&](auto member) {
      fields.push_back({member.name, field_schema<member_type_t<decltype(member)>>()});
    });
    return object(std::move(fields));
  } else {
    static_assert(always_false<U>,
                  "accord: no schema for this C++ type; use bool, an arithmetic type, std::string, "
                  "std::optional, std::vector, std::array, std::map<std::string, T>, std::variant, "
                  "accord::Tag, or a struct/enum described with BOOST_DESCRIBE_STRUCT/_ENUM");
  }
}

}  // namespace accord
