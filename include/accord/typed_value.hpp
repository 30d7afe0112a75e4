#pragma once
// A typed value to JSON and back, for the types typed_types.hpp lists, without exceptions:
//
//   nlohmann::json j = to_json_value(refund);
//   Converted<Refund> back = from_json_value<Refund>(j);
//   if (!back) std::cerr << back.error().message << " at " << back.error().path.to_string();
//
// A value that passed its schema may still not fit the C++ type: 3000000000 in an int32_t,
// 1e39 in a float. Such a value is a ConversionError with the path of the part that did not fit.
// An absent struct member is an error unless it is a std::optional (or the schema gives it a
// default: from_json_value(schema, value) reads that default in its place); keys the struct does
// not name are ignored. A std::variant without a Tag is read as the alternative the schema takes
// the value for (the first option of its union the value is valid for), not the first that
// converts: a value with a key only the second alternative names is the second, not the first
// without it.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "accord/json_view.hpp"
#include "accord/path.hpp"
#include "accord/same_bytes.hpp"
#include "accord/schema.hpp"
#include "accord/typed_member_plan.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/typed_variant.hpp"

// Forced inlining of a lambda: GNU compilers take it only in the __attribute__ spelling there
// ([[gnu::always_inline]] after the parameters names the lambda's type and is ignored); others
// get a plain lambda.
#if defined(__GNUC__)
#define ACCORD_INLINED_LAMBDA __attribute__((always_inline))
#else
#define ACCORD_INLINED_LAMBDA
#endif

namespace accord {

struct ConversionError {
  Path path;            // where in the JSON value
  std::string message;  // one line: what did not fit
};

// A converted value, or why it did not convert.
template <class T>
class Converted {
 public:
  Converted(T value) : value_(std::move(value)) {}                // NOLINT: implicit by design
  Converted(ConversionError error) : error_(std::move(error)) {}  // NOLINT
  [[nodiscard]] bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const T& value() const& { return *value_; }
  [[nodiscard]] T&& value() && { return std::move(*value_); }
  [[nodiscard]] const ConversionError& error() const { return error_; }

 private:
  std::optional<T> value_;
  ConversionError error_;
};

namespace typed_detail {

using json = nlohmann::json;
using Failure = std::optional<ConversionError>;

// Paths are relative to the value being read and built only for a failure, on the way back up:
// a value that converts (what a refinement sees on every call) allocates no path.
inline Failure fail(std::string message) {
  return ConversionError{Path{}, std::move(message)};
}
inline Failure under(PathSegment segment, Failure failure) {
  if (failure) failure->path = Path{std::move(segment)} + failure->path;
  return failure;
}

// The failures a reading words, built out of line: a reading runs for every value and fails
// rarely, and kept inline their strings would take room and registers on every call.
// "expected <what>, got <the value's type>".
template <class V>
[[gnu::cold, gnu::noinline]] Failure expected(const char* what, const V& j) {
  return fail(std::string("expected ") + what + ", got " + j.type_name());
}
// The value's text followed by `what`.
template <class V>
[[gnu::cold, gnu::noinline]] Failure dumped(const V& j, std::string_view what) {
  std::string message = j.dump();
  message += what;
  return fail(std::move(message));
}
// The failure `inner` of the struct member `name`.
[[gnu::cold, gnu::noinline]] inline Failure under_member(const char* name, Failure inner) {
  return under(std::string(name), std::move(inner));
}
[[gnu::cold, gnu::noinline]] inline Failure missing_member(const char* name) {
  return under(std::string(name), fail("missing"));
}

// The <cstdint> name of an integer type of I's size and sign: what a message calls it.
template <class I>
std::string integer_name() {
  return (std::numeric_limits<I>::is_signed ? "int" : "uint") + std::to_string(sizeof(I) * 8) +
         "_t";
}

// The few reads nlohmann::json spells its own way; the reader below is written once over these.
inline bool bool_of(const json& j) {
  return j.get<bool>();
}
inline std::uint64_t unsigned_of(const json& j) {
  return j.get<std::uint64_t>();
}
inline std::int64_t integer_of(const json& j) {
  return j.get<std::int64_t>();
}
inline double double_of(const json& j) {
  return j.get<double>();
}
inline std::string_view string_of(const json& j) {
  return j.get_ref<const std::string&>();
}
inline const json* member_of(const json& j, std::string_view key) {
  const auto found = j.find(key);
  return found == j.end() ? nullptr : &*found;
}
inline const json& items_of(const json& j) {
  return j;
}
template <class F>
void for_each_member(const json& j, const F& visit) {
  for (const auto& [key, item] : j.items()) visit(std::string_view(key), item);
}
// What a union's choice is judged on (UnionChoices takes a tree).
inline const json& tree_of(const json& j) {
  return j;
}

// The same reads on a parsed document (accord/json_view.hpp), which has no tree to hand out.
inline bool bool_of(JsonView j) {
  return j.get_bool();
}
inline std::uint64_t unsigned_of(JsonView j) {
  return j.get_unsigned();
}
inline std::int64_t integer_of(JsonView j) {
  return j.get_integer();
}
inline double double_of(JsonView j) {
  return j.get_double();
}
inline std::string_view string_of(JsonView j) {
  return j.get_string();
}
inline std::optional<JsonView> member_of(JsonView j, std::string_view key) {
  return j.find(key);
}
inline JsonView::Items items_of(JsonView j) {
  return j.items();
}
template <class F>
void for_each_member(JsonView j, const F& visit) {
  for (const JsonMember& member : j.members()) visit(member.key, member.value);
}
// A variant's value alone becomes a tree, for its union's choice.
inline json tree_of(JsonView j) {
  return j.to_json();
}

// The schema a value is read with, for the defaults of absent members: each value's node, a ref
// followed into its definition, as with_defaults follows them: `root`'s own, else, for a typed
// refinement's reading, the validated schema's (a recursive struct's `children` is
// array(ref("TreeNode")), defined only by the whole TreeNode; src/schema/schema.cpp). Lives while
// one reading does.
class SchemaDefaults {
 public:
  explicit SchemaDefaults(const SchemaNode& root) : root_(root) {}
  [[nodiscard]] const SchemaNode* root() const { return resolved(&root_); }
  // `node` itself, or the definition a ref stands for; nullptr for none.
  [[nodiscard]] const SchemaNode* resolved(const SchemaNode* node) const {
    return node == nullptr || node->kind != Kind::ref ? node : definition(*node);
  }

 private:
  struct Definitions;  // `root`'s own, collected at the first ref (src/schema/schema.cpp)
  [[nodiscard]] const SchemaNode* definition(const SchemaNode& ref) const;

  const SchemaNode& root_;
  mutable std::shared_ptr<const Definitions> definitions_;
};

// The node of item `index` of an array or tuple node, or nullptr.
inline const SchemaNode* item_node(const SchemaNode* node, std::size_t index) {
  if (node == nullptr || node->elements.empty()) return nullptr;
  if (node->kind == Kind::array) return &node->elements.front().node();
  if (node->kind == Kind::tuple && index < node->elements.size()) {
    return &node->elements[index].node();
  }
  return nullptr;
}

template <class E>
bool enumerator_named(std::string_view name, E& out) {
  bool found = false;
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<E>>([&](auto enumerator) {
    if (found || name != enumerator.name) return;
    out = enumerator.value;
    found = true;
  });
  return found;
}

// `text` into `out`, keeping its capacity. A text of the length `out` has (a date, an id: the
// same length in each document a reused value reads) is copied over it in place, as two words
// for 8 to 16 bytes; any other clears it and appends, without assign's check for a text that
// overlaps the string (the value's text never lies in `out`).
[[gnu::always_inline]] inline void overwrite(std::string& out, std::string_view text) {
  const std::size_t size = text.size();
  if (size != out.size()) {
    out.clear();
    out.append(text.data(), size);
  } else if (size >= 8 && size <= 16) {
    bytes_detail::copy_words<std::uint64_t>(out.data(), text.data(), size);
  } else if (size != 0) {
    std::memcpy(out.data(), text.data(), size);
  }
}

template <class I, class V>
Failure read_integer(const V& j, I& out) {
  if (!j.is_number()) return expected("an integer", j);
  bool fits = false;
  if (j.is_number_unsigned()) {
    fits = std::in_range<I>(unsigned_of(j));
  } else if (j.is_number_integer()) {
    fits = std::in_range<I>(integer_of(j));
  } else {
    const double d = double_of(j);
    if (std::trunc(d) != d) return dumped(j, " is not a whole number");
    const double limit = std::ldexp(1.0, std::numeric_limits<I>::digits);  // exclusive
    fits = d < limit && (std::numeric_limits<I>::is_signed ? d >= -limit : d >= 0);
  }
  if (!fits) return dumped(j, " does not fit in " + integer_name<I>());
  if (j.is_number_unsigned()) {
    out = static_cast<I>(unsigned_of(j));
  } else if (j.is_number_integer()) {
    out = static_cast<I>(integer_of(j));
  } else {
    out = static_cast<I>(double_of(j));
  }
  return std::nullopt;
}

// Where the value being read sits in its schema, as the Report writes paths, and the schema's
// union choices: how a std::variant is read as the alternative its value is valid for. Its path
// is stepped only into members, items and values that hold a variant, the only readings that
// consult it (below any other, the site is left as it was and is not read).
struct UnionSite {
  const UnionChoices& choices;
  std::vector<PathSegment> segments;
};

// `site` (when there is one) one step further in, for the life of this object. Inlined, so that
// a step with no site (site_into) costs nothing.
class SiteStep {
 public:
  [[gnu::always_inline]] SiteStep(UnionSite* site, std::string_view key) : site_(site) {
    if (site_ != nullptr) site_->segments.emplace_back(std::string(key));
  }
  SiteStep(UnionSite* site, std::size_t union_option) : site_(site) {
    if (site_ != nullptr) site_->segments.emplace_back("|" + std::to_string(union_option));
  }
  SiteStep(const SiteStep&) = delete;
  SiteStep& operator=(const SiteStep&) = delete;
  [[gnu::always_inline]] ~SiteStep() {
    if (site_ != nullptr) site_->segments.pop_back();
  }

 private:
  UnionSite* site_;
};

// What one reading carries down: the schema's defaults and the union site, each when there is
// one. A value's schema node travels beside it (nullptr: no defaults at or below it).
// `plan`: the member plan made for the root's struct, when the caller keeps one
// (typed_member_plan.hpp).
struct Reading {
  const SchemaDefaults* defaults = nullptr;
  UnionSite* site = nullptr;
  const AnyMemberPlan* plan = nullptr;
};

// The site a step into a part of type M carries: none when M holds no variant, as nothing read
// below it asks the site then.
template <class M>
UnionSite* site_into(const Reading& reading) {
  if constexpr (holds_variant<M>) {
    return reading.site;
  } else {
    return nullptr;
  }
}

// Whether reading a T consults its schema node: for its parts' nodes and defaults, or its union's
// choices. A boolean, number, string, null, enum or tag is read without it, and a std::optional
// hands it on to the value inside.
template <class T>
inline constexpr bool reads_node =
    is_vector<T>::value || is_std_array<T>::value || is_string_map<T>::value ||
    is_variant<T>::value || DescribedStruct<T>;
// Whether a T is a boolean, number, string, null, enum or tag (or a type with no conversion, which
// read_alone reports): read alone, neither with its node nor in parts.
template <class T>
inline constexpr bool reads_alone = !reads_node<T> && !is_optional<T>::value;

template <class T, class V>
Failure read(const V& j, T& out, const SchemaNode* node, const Reading& reading);
template <class T, class V>
Failure read_alone(const V& j, T& out);

template <class T>
void write(const T& value, json& out);

// Whether `j` carries a different value in a Tag member of the alternative struct A: then A is
// not the alternative meant, and its failure explains little.
template <class A, class V>
bool tag_differs(const V& j) {
  bool differs = false;
  if constexpr (DescribedStruct<A>) {
    boost::mp11::mp_for_each<described_members<A>>([&](auto member) {
      using M = member_type_t<decltype(member)>;
      if constexpr (is_tag<M>::value) {
        if (!j.is_object()) return;
        const auto found = member_of(j, member.name);
        differs =
            differs ||
            (found && !(found->is_string() && string_of(*found) == std::string_view(M::value)));
      }
    });
  }
  return differs;
}

// The failure that explains a variant's mismatch best: one of an alternative whose tag matched,
// then the one that got furthest into the value.
struct VariantFailure {
  Failure failure;
  bool tag_matched = false;
  void offer(ConversionError error, bool matched) {
    const bool better = !failure || (matched && !tag_matched) ||
                        (matched == tag_matched && error.path.size() > failure->path.size());
    if (!better) return;
    failure = std::move(error);
    tag_matched = matched;
  }
};

// Alternative I read with its option's node when `node` is the variant's union (a ref there
// followed like any other): Zod's union hands on the option it parsed, its defaults filled in.
template <std::size_t I, class Variant, class V>
Failure read_as(const V& j, Variant& out, const SchemaNode* node, const Reading& reading) {
  std::variant_alternative_t<I, Variant> candidate{};
  const SiteStep step(reading.site, I);
  if (node != nullptr && node->kind == Kind::union_) {
    node = I < node->elements.size() ? &node->elements[I].node() : nullptr;
  }
  if (auto failure = read(j, candidate, node, reading)) return failure;
  out.template emplace<I>(std::move(candidate));
  return std::nullopt;
}

// The alternative the schema takes the value for, when it knows; else the first that converts.
template <class Variant, class V, std::size_t... I>
Failure read_variant(const V& j, Variant& out, const SchemaNode* node, const Reading& reading,
                     std::index_sequence<I...> /*alternatives*/) {
  UnionSite* site = reading.site;
  std::optional<std::size_t> chosen;
  if (site != nullptr) chosen = site->choices.option(tree_of(j), Path(site->segments));
  if (chosen && *chosen < sizeof...(I)) {
    Failure failure;
    ((I == *chosen ? (void)(failure = read_as<I>(j, out, node, reading)) : void()), ...);
    return failure;
  }
  VariantFailure best;
  const auto fits = [&]<std::size_t A>(std::integral_constant<std::size_t, A> /*alternative*/) {
    auto failure = read_as<A>(j, out, node, reading);
    if (!failure) return true;
    best.offer(std::move(*failure), !tag_differs<std::variant_alternative_t<A, Variant>>(j));
    return false;
  };
  if ((fits(std::integral_constant<std::size_t, I>{}) || ...)) return std::nullopt;
  return best.failure;
}

// T's described member names, and their places among them in key order, worked out once per
// type.
template <class T>
struct MemberNames {
  static constexpr std::size_t count = boost::mp11::mp_size<described_members<T>>::value;
  std::array<std::string_view, count> names{};
  std::array<std::size_t, count> by_name{};
  std::array<std::size_t, count> rank{};  // a member's place in by_name

  // The place of the member named `key`, or `count` when T names none.
  [[nodiscard]] std::size_t place_of(std::string_view key) const {
    const auto at = std::lower_bound(
        by_name.begin(), by_name.end(), key,
        [&](std::size_t place, std::string_view wanted) { return names[place] < wanted; });
    return at != by_name.end() && names[*at] == key ? *at : count;
  }

  static const MemberNames& get() {
    static const MemberNames table = [] {
      MemberNames out;
      std::size_t i = 0;
      boost::mp11::mp_for_each<described_members<T>>(
          [&](auto member) { out.names[i++] = member.name; });
      for (i = 0; i < count; ++i) out.by_name[i] = i;
      std::sort(out.by_name.begin(), out.by_name.end(),
                [&](std::size_t a, std::size_t b) { return out.names[a] < out.names[b]; });
      for (i = 0; i < count; ++i) out.rank[out.by_name[i]] = i;
      return out;
    }();
    return table;
  }
};

// The value of each of T's members in `j`, by the member's place: a lookup per member in a tree;
// in a parsed document one pass over the object's members as the text wrote them.
template <class T>
std::array<const json*, MemberNames<T>::count> members_found(const json& j) {
  const auto& table = MemberNames<T>::get();
  std::array<const json*, MemberNames<T>::count> found{};
  for (std::size_t i = 0; i < found.size(); ++i) found[i] = member_of(j, table.names[i]);
  return found;
}
using bytes_detail::same_text;

template <class T>
std::array<std::optional<JsonView>, MemberNames<T>::count> members_found(JsonView j) {
  const auto& table = MemberNames<T>::get();
  std::array<std::optional<JsonView>, MemberNames<T>::count> found;
  // A text mostly names every member in the struct's order (a model writes them as the schema
  // lists them): then each key is the next member's name, found with one comparison.
  const JsonView::Members members = j.members_as_written();
  auto member = members.begin();
  std::size_t index = 0;
  for (; member != members.end() && index < table.count; ++member) {
    const JsonMember key_and_value = *member;
    if (!same_text(key_and_value.key, table.names[index])) break;
    found[index++] = key_and_value.value;
  }
  // Every member found: the keys after them name none, because a document's keys are unique.
  if (index == table.count) return found;
  // Else from the key out of place on, a key is compared first with the name after the last one
  // found in the struct's order, then in key order (a document built from a tree has them so),
  // and looked up among all of them only when it is neither.
  std::size_t next = index;
  std::size_t next_by_name = index == 0 ? 0 : table.rank[index - 1] + 1;
  const auto is = [&](std::string_view key, std::size_t place) {
    return place < table.count && same_text(key, table.names[place]);
  };
  for (; member != members.end(); ++member) {
    const JsonMember key_and_value = *member;
    std::size_t place = next;
    if (!is(key_and_value.key, place)) {
      place = next_by_name < table.count ? table.by_name[next_by_name] : table.count;
      if (!is(key_and_value.key, place)) place = table.place_of(key_and_value.key);
      if (place == table.count) continue;  // a key the struct does not name
    }
    found[place] = key_and_value.value;
    next = place + 1;
    next_by_name = table.rank[place] + 1;
  }
  return found;
}

// A described struct, member by member: an absent member reads its field's default when the
// schema gives one (not filled in further, as with_defaults leaves a default as it is).
template <class T, class V>
Failure read_struct(const V& j, T& out, const SchemaNode* node, const Reading& reading) {
  if (!j.is_object()) return expected("an object", j);
  // The caller's plan when it was made for this node, else one made now.
  const MemberPlan<T>* plan = MemberPlan<T>::matching(reading.plan, node);
  std::optional<MemberPlan<T>> made;
  if (plan == nullptr) plan = &made.emplace(node);
  Failure failure;
  const auto values = members_found<T>(j);
  std::size_t position = 0;
  // Each member's reading is inlined into one straight run: a call per member costs more than
  // reading most of them, and left to itself the compiler calls some and inlines others.
  boost::mp11::mp_for_each<described_members<T>>([&](auto member) ACCORD_INLINED_LAMBDA {
    const std::size_t index = position++;
    if (failure) return;
    using M = member_type_t<decltype(member)>;
    const auto read_member = [&](const auto& value,
                                 const SchemaNode* member_node) ACCORD_INLINED_LAMBDA {
      const SiteStep step(site_into<M>(reading), member.name);
      if constexpr (reads_alone<M>) {
        if (auto inner = read_alone(value, out.*member.pointer)) {
          failure = under_member(member.name, std::move(inner));
        }
      } else if (auto inner = read(value, out.*member.pointer, member_node, reading)) {
        failure = under_member(member.name, std::move(inner));
      }
    };
    if (const auto& found = values[index]) {
      read_member(*found, plan->nodes[index]);
    } else if (const nlohmann::json* fallback = plan->defaults[index]) {
      read_member(*fallback, nullptr);
    } else if constexpr (is_optional<M>::value) {
      (out.*member.pointer).reset();
    } else {
      failure = missing_member(member.name);
    }
  });
  return failure;
}

// A boolean, number, string, null, enum or tag (reads_alone), inlined where its part of a struct
// is read.
template <class T, class V>
[[gnu::always_inline]] inline Failure read_alone(const V& j, T& out) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return expected("a boolean", j);
    out = bool_of(j);
  } else if constexpr (std::is_integral_v<T>) {
    return read_integer(j, out);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return expected("a number", j);
    const double d = double_of(j);
    if (std::isfinite(d) && std::abs(d) > static_cast<double>(std::numeric_limits<T>::max())) {
      return dumped(j, sizeof(T) == 4 ? " does not fit in float" : " does not fit in double");
    }
    out = static_cast<T>(d);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) return expected("a string", j);
    overwrite(out, string_of(j));
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    if (!j.is_null()) return expected("null", j);
  } else if constexpr (is_tag<T>::value) {
    if (!j.is_string() || string_of(j) != std::string_view(T::value)) {
      return fail("expected \"" + std::string(T::value) + "\", got " + j.dump());
    }
  } else if constexpr (DescribedEnum<T>) {
    if (!j.is_string()) return expected("a string", j);
    if (!enumerator_named(string_of(j), out)) return dumped(j, " names no enumerator");
  } else {
    static_assert(always_false<T>,
                  "accord: no JSON conversion for this C++ type (typed_types.hpp)");
  }
  return std::nullopt;
}

template <class T, class V>
Failure read(const V& j, T& out, const SchemaNode* node, const Reading& reading) {
  if constexpr (reads_node<T>) {
    if (node != nullptr) node = reading.defaults->resolved(node);
  }
  if constexpr (reads_alone<T>) {
    return read_alone(j, out);
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) {
      out.reset();
    } else {
      // Into the value it holds, whose capacity a reused T keeps; on failure `out` is unspecified
      // (the caller drops it).
      if (!out) out.emplace();
      return read(j, *out, node, reading);
    }
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    if (!j.is_array()) return expected("an array", j);
    if constexpr (is_vector<T>::value) {
      out.resize(j.size());
    } else if (j.size() != out.size()) {
      return fail("expected " + std::to_string(out.size()) + " items, got " +
                  std::to_string(j.size()));
    }
    const SiteStep items(site_into<typename T::value_type>(reading), "[]");
    std::size_t i = 0;
    for (const auto& item : items_of(j)) {
      if (auto failure = read(item, out[i], item_node(node, i), reading)) {
        return under(i, std::move(failure));
      }
      ++i;
    }
  } else if constexpr (is_string_map<T>::value) {
    if (!j.is_object()) return expected("an object", j);
    out.clear();
    const SiteStep values(site_into<typename T::mapped_type>(reading), "{}");
    const SchemaNode* values_node = record_values(node);
    Failure failure;
    for_each_member(j, [&](std::string_view key, const auto& item) {
      if (failure) return;
      std::string name(key);
      if (auto inner = read(item, out[name], values_node, reading)) {
        failure = under(std::move(name), std::move(inner));
      }
    });
    return failure;
  } else if constexpr (is_variant<T>::value) {
    return read_variant(j, out, node, reading, std::make_index_sequence<std::variant_size_v<T>>{});
  } else {
    static_assert(DescribedStruct<T>);  // any other type is read alone
    return read_struct(j, out, node, reading);
  }
  return std::nullopt;
}

template <class T>
void write(const T& value, json& out) {
  if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
    out = value;
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    out = nullptr;
  } else if constexpr (is_tag<T>::value) {
    out = std::string(T::value);
  } else if constexpr (DescribedEnum<T>) {
    const char* name = boost::describe::enum_to_string(value, nullptr);
    out = name != nullptr ? json(name) : json(nullptr);  // an undescribed value has no name
  } else if constexpr (is_optional<T>::value) {
    if (value) {
      write(*value, out);
    } else {
      out = nullptr;
    }
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    out = json::array();
    for (const auto& item : value) write(item, out.emplace_back());
  } else if constexpr (is_string_map<T>::value) {
    out = json::object();
    for (const auto& [key, item] : value) write(item, out[key]);
  } else if constexpr (is_variant<T>::value) {
    std::visit([&](const auto& alternative) { write(alternative, out); }, value);
  } else if constexpr (DescribedStruct<T>) {
    out = json::object();
    boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
      const auto& field = value.*member.pointer;
      if constexpr (is_optional<std::remove_cvref_t<decltype(field)>>::value) {
        if (!field) return;  // an absent optional member is an absent key
      }
      write(field, out[member.name]);
    });
  } else {
    static_assert(always_false<T>,
                  "accord: no JSON conversion for this C++ type (typed_types.hpp)");
  }
}

}  // namespace typed_detail

template <class T>
[[nodiscard]] nlohmann::json to_json_value(const T& value) {
  nlohmann::json out;
  typed_detail::write(value, out);
  return out;
}

namespace typed_detail {

// `value` read into `out`: absent members with defaults read as them when `schema` is given, a
// variant in it read as the alternative `schema` (or, without one, schema_of<T>()) takes its value
// for. Every part of `out` is overwritten, and a string or vector in it keeps its capacity: a T
// read again and again allocates only for a longer string or a longer array. On failure `out`
// holds part of the value.
// `plan`: the root's member plan (RootPlan), when the caller keeps one made with `schema`.
template <class T, class V>
Failure read_into(const Schema* schema, const V& value, T& out,
                  const AnyMemberPlan* plan = nullptr) {
  std::optional<SchemaDefaults> defaults;
  if (schema != nullptr) defaults.emplace(schema->node());
  const SchemaNode* root = defaults ? defaults->root() : nullptr;
  Reading reading{defaults ? &*defaults : nullptr, nullptr, plan};
  Failure failure;
  if constexpr (holds_variant<T>) {
    static const Schema derived = schema_of<T>();
    const auto choices = union_choices(schema != nullptr ? *schema : derived);
    UnionSite site{*choices, {}};
    reading.site = &site;
    failure = read(value, out, root, reading);
  } else {
    failure = read(value, out, root, reading);
  }
  return failure;
}

// `value` as a new T, as read_into reads it.
template <class T, class V>
Converted<T> read_value(const Schema* schema, const V& value, const AnyMemberPlan* plan = nullptr) {
  T out{};
  if (auto failure = read_into(schema, value, out, plan)) return std::move(*failure);
  return out;
}

// The member plan of a T read with `schema` as its root, made once and kept beside the schema
// by whoever reads many values with it (a typed refinement, a TypedValidator, a typed tool):
// a described struct's, else none. Valid while `schema` (or a copy of it) lives.
template <class T>
class RootPlan {
 public:
  explicit RootPlan(const Schema& schema) {
    if constexpr (DescribedStruct<T>) plan_.emplace(SchemaDefaults(schema.node()).root());
  }
  [[nodiscard]] const AnyMemberPlan* get() const {
    if constexpr (DescribedStruct<T>) {
      return &*plan_;
    } else {
      return nullptr;
    }
  }

 private:
  std::conditional_t<DescribedStruct<T>, std::optional<MemberPlan<T>>, std::monostate> plan_;
};

}  // namespace typed_detail

// Requires T (and every struct inside it) to be default-constructible. A std::variant is read as
// the first alternative schema_of<T>() takes the value for (typed_variant.hpp); a T whose
// variant's alternatives cannot be told apart has no schema, and throws SchemaError here.
template <class T>
[[nodiscard]] Converted<T> from_json_value(const nlohmann::json& value) {
  return typed_detail::read_value<T>(nullptr, value);
}

// `value` as a T the way its schema reads it: an absent member whose field has a default reads
// that default (as with_defaults would fill it in, without copying the value), the rest converted.
// The one reading extract<T>, extract_async<T>, typed tools and typed refinements share.
template <class T>
[[nodiscard]] Converted<T> from_json_value(const Schema& schema, const nlohmann::json& value) {
  return typed_detail::read_value<T>(&schema, value);
}

// The same readings from a parsed document (parse_document, accord/json_view.hpp), with no tree
// built: the struct's strings are copied out of the document once. Only a std::variant's value
// becomes a tree, for its union to choose the alternative.
template <class T>
[[nodiscard]] Converted<T> from_json_value(JsonView value) {
  return typed_detail::read_value<T>(nullptr, value);
}
template <class T>
[[nodiscard]] Converted<T> from_json_value(const Schema& schema, JsonView value) {
  return typed_detail::read_value<T>(&schema, value);
}

}  // namespace accord

#undef ACCORD_INLINED_LAMBDA
