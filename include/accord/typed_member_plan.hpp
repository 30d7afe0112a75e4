#pragma once
// Where each member of a described struct sits in the object node it is read with: its value's
// node and its field's default, resolved once per schema instead of looked up by name for every
// document (typed_value.hpp reads with it). No part of the API.
//
// A typed refinement, a TypedValidator and a typed tool make the plan of their struct when they
// are built, and the reading of the struct's root uses it; a struct read with a node no plan was
// made for (a nested struct, a from_json_value call) makes its own on the way, which costs what
// the lookups always did.

#include <array>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>

#include "accord/schema.hpp"
#include "accord/typed_types.hpp"

namespace accord::typed_detail {

// The field `name` of an object node (looked for first at `position`, where a derived schema
// has it), or nullptr.
inline const Field* object_field(const SchemaNode* node, std::string_view name,
                                 std::size_t position) {
  if (node == nullptr || node->kind != Kind::object) return nullptr;
  if (position < node->fields.size() && node->fields[position].name == name) {
    return &node->fields[position];
  }
  for (const auto& field : node->fields) {
    if (field.name == name) return &field;
  }
  return nullptr;
}
// The node of the values of a record node, or nullptr.
inline const SchemaNode* record_values(const SchemaNode* node) {
  if (node == nullptr || node->kind != Kind::object || node->elements.empty()) return nullptr;
  return &node->elements.front().node();
}

// The address that tells the plans of two types apart when they are handed down untyped. Not
// const: identical constants may be folded into one address by a linker, variables may not.
template <class T>
inline char plan_type = 0;

// What a reading carries down without knowing the struct's type: the node a plan was made for
// and the type it was made for.
struct AnyMemberPlan {
  const SchemaNode* object = nullptr;
  const void* type = nullptr;
};

// T's members against `object` (nullptr: no schema), by their place in BOOST_DESCRIBE_STRUCT: the
// node each member's value is read with (its field's, or the record's values'; nullptr: none)
// and its field's default (nullptr: none). Points into the schema's nodes, which never change:
// valid while the Schema they belong to lives. T is a described struct (unconstrained, so that
// a type can name MemberPlan<T> for any T it will not make one for).
template <class T>
struct MemberPlan : AnyMemberPlan {
  static constexpr std::size_t count = boost::mp11::mp_size<described_members<T>>::value;
  std::array<const SchemaNode*, count> nodes{};
  std::array<const nlohmann::json*, count> defaults{};

  explicit MemberPlan(const SchemaNode* node) : AnyMemberPlan{node, &plan_type<T>} {
    std::size_t i = 0;
    boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
      const Field* field = object_field(node, member.name, i);
      nodes[i] = field != nullptr ? &field->schema.node() : record_values(node);
      if (field != nullptr && field->schema.node().default_value) {
        defaults[i] = &*field->schema.node().default_value;
      }
      ++i;
    });
  }

  // `given` when it is T's plan for `node`, else nullptr.
  static const MemberPlan* matching(const AnyMemberPlan* given, const SchemaNode* node) {
    if (given == nullptr || given->object != node || given->type != &plan_type<T>) return nullptr;
    return static_cast<const MemberPlan*>(given);
  }
};

}  // namespace accord::typed_detail
