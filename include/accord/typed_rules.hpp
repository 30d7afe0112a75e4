#pragma once
// Rules on a struct's members, with the members' C++ types:
//
//   const auto refund = typed<Refund>()
//       .field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))
//       .field(&Refund::amount, positive())
//       .field(&Refund::note, refine([](const std::string& note) { return !has_link(note); },
//                                    "note must not contain links"))
//       .refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
//               "refundDate is before orderDate", {.path = {"refundDate"}});
//
// A TypedSchema<T> is schema_of<T>() with rules added: each rule is the DSL's own (Schema::regex,
// Schema::refine, Schema::rule, ...), so it gets the DSL's Report entry, its words on the wire and
// its local check. A member refinement receives the member's C++ value (a std::optional member's
// refinement may take the value inside: it runs only when the field is present); an object
// refinement receives `const T&`. A TypedSchema<U> is itself a rule for a member holding a U
// (`.field(&Invoice::lines, typed<Line>().field(&Line::sku, regex(...)))`): its schema, rules
// included, takes the U's place.
//
// A refinement reads its value as extract<T> reads it, with the defaults of absent fields filled
// in at any depth, a ref its member's part of the schema does not define (a recursive struct's
// `children`: array(ref("TreeNode"))) followed into the validated schema's definitions, as Zod's
// predicate sees the parsed value. A value that does not read as the predicate's type is not
// judged by it: a wrong JSON type is the type check's issue, and a valid value that does not fit
// (3000000000 for an int32_t) is the reading's ConversionError (extract<T>, TypedValidator).

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/rules.hpp"
#include "accord/schema.hpp"
#include "accord/typed_root_reading.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_scratch.hpp"
#include "accord/typed_value.hpp"

namespace accord {

// A DSL rule for one member: a Schema builder method applied to the member's schema (any other
// can be written as MemberRule{[](const Schema& s) { return s.examples({...}); }}).
struct MemberRule {
  std::function<Schema(const Schema&)> change;
  template <class M>
  [[nodiscard]] Schema apply(const Schema& schema, const M& /*initial*/) const {
    return change(schema);
  }
};

namespace typed_detail {

template <auto Method, class... Args>
MemberRule bind_rule(Args... args) {
  return {[=](const Schema& schema) { return (schema.*Method)(args...); }};
}

// Calls `predicate` with the value read as M on a view of the parsed document, into this thread's
// reused M (typed_scratch.hpp): once warm, no allocation. The root struct a TypedValidator reads
// is read into the struct it hands back, once for every refinement of the root
// (typed_root_reading.hpp).
template <class M, class F>
bool call_on_view(const F& predicate, const Schema& schema, const RootPlan<M>& plan,
                  JsonView value) {
  if constexpr (std::is_same_v<M, std::string>) {
    if (!value.is_string()) return true;
    if constexpr (std::is_invocable_r_v<bool, const F&, std::string_view>) {
      return predicate(value.get_string());
    } else {
      const ScratchLease<std::string> text;
      overwrite(*text, value.get_string());
      return predicate(std::as_const(*text));
    }
  } else {
    if constexpr (root_read_once<M>) {
      if (RootReading<M>* root = RootReading<M>::current();
          root != nullptr && root->covers(schema, value)) {
        const M* read = root->read();
        return read == nullptr || predicate(*read);
      }
    }
    const ScratchLease<M> scratch;
    return read_into(&schema, value, *scratch, plan.get()).has_value() ||
           predicate(std::as_const(*scratch));
  }
}

// The plan of the value a predicate taking `F` reads from a node of values M: the value inside a
// std::optional when the predicate takes that.
template <class M, class F>
struct PredicateValue {
  using type = M;
};
template <class M, class F>
requires(is_optional<M>::value &&
         !std::is_invocable_r_v<bool, const F&, const M&>) struct PredicateValue<M, F> {
  using type = typename M::value_type;
};

// Calls `predicate` with the value read as extract<T> reads it (with `schema`: its defaults and
// its unions' choices); a value that does not convert passes (its type check or its reading
// reports it). `value` is a tree or a view of the parsed document (accord/json_view.hpp): one
// reading for both. M is what the predicate takes (PredicateValue).
template <class M, class F, class V>
bool call_typed(const F& predicate, const Schema& schema, const RootPlan<M>& plan, const V& value) {
  static_assert(std::is_invocable_r_v<bool, const F&, const M&>,
                "accord: a typed refinement takes the C++ type of what it refines");
  if constexpr (std::is_same_v<V, JsonView>) {
    return call_on_view<M>(predicate, schema, plan, value);
  } else if constexpr (std::is_same_v<M, std::string>) {
    return !value.is_string() || predicate(value.template get_ref<const std::string&>());
  } else {
    const auto converted = read_value<M>(&schema, value, plan.get());
    return !converted || predicate(converted.value());
  }
}

// A typed refinement of a node whose values read as M: the engine calls its view predicate, which
// reads M straight from the parsed document; the tree predicate serves a caller of the Schema
// that has a tree. A struct's member plan is made here, once, for every value read after.
template <class M, class F>
Refinement typed_refinement(const F& predicate, const Schema& schema, std::string message,
                            RefineOptions options) {
  using Read = typename PredicateValue<M, F>::type;
  const RootPlan<Read> plan(schema);
  return {[predicate, schema, plan](const nlohmann::json& value) {
            return call_typed<Read>(predicate, schema, plan, value);
          },
          std::move(message), std::move(options),
          [predicate, schema, plan](JsonView value) {
            return call_typed<Read>(predicate, schema, plan, value);
          },
          true};
}

}  // namespace typed_detail

// The Schema methods as member rules, named as they are there.
inline MemberRule describe(std::string text) {
  return typed_detail::bind_rule<&Schema::describe>(std::move(text));
}
inline MemberRule min(double value) {
  return typed_detail::bind_rule<&Schema::min>(value);
}
inline MemberRule max(double value) {
  return typed_detail::bind_rule<&Schema::max>(value);
}
inline MemberRule length(std::size_t value) {
  return typed_detail::bind_rule<&Schema::length>(value);
}
inline MemberRule nonempty() {
  return typed_detail::bind_rule<&Schema::nonempty>();
}
inline MemberRule regex(std::string pattern) {
  return typed_detail::bind_rule<&Schema::regex>(std::move(pattern));
}
inline MemberRule starts_with(std::string prefix) {
  return typed_detail::bind_rule<&Schema::starts_with>(std::move(prefix));
}
inline MemberRule ends_with(std::string suffix) {
  return typed_detail::bind_rule<&Schema::ends_with>(std::move(suffix));
}
inline MemberRule includes(std::string part) {
  return typed_detail::bind_rule<&Schema::includes>(std::move(part));
}
inline MemberRule format(StringFormat format) {
  return typed_detail::bind_rule<&Schema::format>(format);
}
inline MemberRule email() {
  return format(StringFormat::email);
}
inline MemberRule uri() {
  return format(StringFormat::uri);
}
inline MemberRule uuid() {
  return format(StringFormat::uuid);
}
inline MemberRule date() {
  return format(StringFormat::date);
}
inline MemberRule date_time() {
  return format(StringFormat::date_time);
}
inline MemberRule time() {
  return format(StringFormat::time);
}
inline MemberRule gt(double value) {
  return typed_detail::bind_rule<&Schema::gt>(value);
}
inline MemberRule gte(double value) {
  return typed_detail::bind_rule<&Schema::gte>(value);
}
inline MemberRule lt(double value) {
  return typed_detail::bind_rule<&Schema::lt>(value);
}
inline MemberRule lte(double value) {
  return typed_detail::bind_rule<&Schema::lte>(value);
}
inline MemberRule positive() {
  return gt(0);
}
inline MemberRule negative() {
  return lt(0);
}
inline MemberRule nonnegative() {
  return gte(0);
}
inline MemberRule nonpositive() {
  return lte(0);
}
inline MemberRule multiple_of(double value) {
  return typed_detail::bind_rule<&Schema::multiple_of>(value);
}

// The member's value in a default-constructed struct is its default: the field may be absent,
// and is read as that value.
struct Defaulted {
  template <class M>
  [[nodiscard]] Schema apply(const Schema& schema, const M& initial) const {
    return schema.default_(to_json_value(initial));
  }
};
inline Defaulted defaulted() {
  return {};
}

// A refinement of one member; see the file comment.
template <class F>
struct TypedRefine {
  F predicate;
  std::string message;
  RefineOptions options;
  template <class M>
  [[nodiscard]] Schema apply(const Schema& schema, const M& /*initial*/) const {
    return schema.refine(typed_detail::typed_refinement<M>(predicate, schema, message, options));
  }
};
template <class F>
TypedRefine<F> refine(F predicate, std::string message, RefineOptions options = {}) {
  return {std::move(predicate), std::move(message), std::move(options)};
}

// The JSON name of a described member of T (or of one of its described bases); throws
// SchemaError when BOOST_DESCRIBE_STRUCT does not list it.
template <class T, class C, class M>
[[nodiscard]] std::string member_name(M C::*member) {
  static_assert(std::is_base_of_v<C, T>, "accord: the member belongs to another struct");
  std::string name;
  boost::mp11::mp_for_each<described_members<T>>([&](auto descriptor) {
    if constexpr (std::is_same_v<std::remove_cv_t<decltype(descriptor.pointer)>, M C::*>) {
      if (descriptor.pointer == member) name = descriptor.name;
    }
  });
  if (name.empty()) {
    throw SchemaError({{Path{}, "a rule names a member that BOOST_DESCRIBE_STRUCT does not list"}});
  }
  return name;
}

namespace typed_detail {

// `whole` with its part at `at` (from `depth` on; `[]` items, `{}` record values) replaced by
// `part`, which keeps what the replaced node's place said: optional, nullable, its default and
// description (src/schema/schema.cpp).
[[nodiscard]] Schema with_part(const Schema& whole, const std::vector<PathSegment>& at,
                               const Schema& part, std::size_t depth = 0);

inline std::vector<PathSegment> inside(PathSegment container, std::vector<PathSegment> place) {
  place.insert(place.begin(), std::move(container));
  return place;
}

// Where a U sits in the schema of a member of type M: M itself, or inside a std::optional,
// std::vector, std::array or std::map<std::string, ...> of it, at any depth.
template <class U, class M>
std::vector<PathSegment> place_of() {
  if constexpr (std::is_same_v<M, U>) {
    return {};
  } else if constexpr (is_optional<M>::value) {
    return place_of<U, typename M::value_type>();
  } else if constexpr (is_vector<M>::value || is_std_array<M>::value) {
    return inside(std::string("[]"), place_of<U, typename M::value_type>());
  } else if constexpr (is_string_map<M>::value) {
    return inside(std::string("{}"), place_of<U, typename M::mapped_type>());
  } else {
    static_assert(always_false<M>,
                  "accord: typed<U>() is the rule set of a member of type U, or of a "
                  "std::optional, std::vector, std::array or std::map<std::string, ...> of U");
    return {};
  }
}

}  // namespace typed_detail

template <DescribedStruct T>
class TypedSchema {
 public:
  TypedSchema() : fields_(typed_detail::struct_fields<T, boost::mp11::mp_list<>>()) {
    built_ = build();
  }

  // Applies each rule to the member's schema, in order.
  template <class C, class M, class... Rules>
  [[nodiscard]] TypedSchema field(M C::*member, const Rules&... rules) const {
    TypedSchema out = *this;
    const auto name = member_name<T>(member);
    const M initial = T{}.*member;
    for (auto& field : out.fields_) {
      if (field.name == name)
        ((field.schema = rules.template apply<M>(field.schema, initial)), ...);
    }
    out.built_ = out.build();
    return out;
  }

  template <class F>
  [[nodiscard]] TypedSchema refine(F predicate, std::string message,
                                   RefineOptions options = {}) const {
    static_assert(std::is_invocable_r_v<bool, const F&, const T&>,
                  "accord: an object refinement takes const T&");
    return changed([predicate = std::move(predicate), message = std::move(message),
                    options = std::move(options)](const Schema& schema) {
      return schema.refine(typed_detail::typed_refinement<T>(predicate, schema, message, options));
    });
  }

  // A declarative rule between members (rules.hpp); compare() and when() take member pointers.
  template <class R>
  [[nodiscard]] TypedSchema rule(R between, std::string message, RuleOptions options = {}) const {
    return changed([between = std::move(between), message = std::move(message),
                    options = std::move(options)](const Schema& schema) {
      return schema.rule(between, message, options);
    });
  }

  [[nodiscard]] TypedSchema describe(std::string text) const {
    return changed(
        [text = std::move(text)](const Schema& schema) { return schema.describe(text); });
  }

  // As the rule set of a member that holds a T (a T, or a std::optional, std::vector, std::array
  // or std::map of it): `.field(&Invoice::lines, typed<Line>().field(&Line::qty, positive()))`
  // puts this schema, its rules included, in the T's place in the member's schema.
  template <class M>
  [[nodiscard]] Schema apply(const Schema& schema, const M& /*initial*/) const {
    return typed_detail::with_part(schema, typed_detail::place_of<T, M>(), built_);
  }

  // The same Schema (one node) every time: a Client caches its Contract by that node.
  [[nodiscard]] const Schema& schema() const { return built_; }
  operator Schema() const { return built_; }  // NOLINT: implicit by design

 private:
  // A T that contains itself is named last, so its rules hold at every depth of the recursion.
  [[nodiscard]] Schema build() const {
    Schema out = object(fields_);
    for (const auto& change : object_changes_) out = change(out);
    return typed_detail::struct_schema<T>(std::move(out));
  }

  TypedSchema changed(std::function<Schema(const Schema&)> change) const {
    TypedSchema out = *this;
    out.object_changes_.push_back(std::move(change));
    out.built_ = out.build();
    return out;
  }

  std::vector<Field> fields_;
  std::vector<std::function<Schema(const Schema&)>> object_changes_;
  Schema built_{Kind::object};
};

template <DescribedStruct T>
[[nodiscard]] TypedSchema<T> typed() {
  return {};
}

namespace typed_detail {

// A literal for a rule: an enum by its name, anything else as JSON takes it.
template <class V>
Operand typed_operand(V&& value) {
  if constexpr (DescribedEnum<std::remove_cvref_t<V>>) {
    return Operand(to_json_value(value));
  } else {
    return Operand(std::forward<V>(value));
  }
}

}  // namespace typed_detail

// compare(&Refund::refundDate, Op::gte, &Refund::orderDate): the rules.hpp forms with member
// pointers, and enum literals by name.
template <class C, class M, class C2, class M2>
[[nodiscard]] Comparison compare(M C::*left, Op op, M2 C2::*right) {
  return compare(member_name<C>(left), op, field(member_name<C2>(right)));
}
template <class C, class M, class V>
requires(!std::is_member_object_pointer_v<std::remove_cvref_t<V>>) [[nodiscard]] Comparison
    compare(M C::*left, Op op, V&& right) {
  return compare(member_name<C>(left), op, typed_detail::typed_operand(std::forward<V>(right)));
}

struct TypedWhen {
  Comparison condition;
  template <class C, class M, class V>
  [[nodiscard]] Conditional then(M C::*left, Op op, V&& right) const {
    return {condition, compare(left, op, std::forward<V>(right))};
  }
};
template <class C, class M, class V>
[[nodiscard]] TypedWhen when(M C::*left, Op op, V&& right) {
  return {compare(left, op, std::forward<V>(right))};
}

}  // namespace accord
