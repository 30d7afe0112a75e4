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
// default: from_json_value(schema, value) fills defaults in first); keys the struct does not name
// are ignored. A std::variant without a Tag is read as the alternative the schema takes the value
// for (the first option of its union the value is valid for), not the first that converts: a
// value with a key only the second alternative names is the second, not the first without it.

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "accord/path.hpp"
#include "accord/schema.hpp"
#include "accord/typed_schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/typed_variant.hpp"

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

// The <cstdint> name of an integer type of I's size and sign: what a message calls it.
template <class I>
std::string integer_name() {
  return (std::numeric_limits<I>::is_signed ? "int" : "uint") + std::to_string(sizeof(I) * 8) +
         "_t";
}

template <class I>
Failure read_integer(const json& j, I& out) {
  if (!j.is_number()) return fail("expected an integer, got " + std::string(j.type_name()));
  bool fits = false;
  if (j.is_number_unsigned()) {
    fits = std::in_range<I>(j.get<std::uint64_t>());
  } else if (j.is_number_integer()) {
    fits = std::in_range<I>(j.get<std::int64_t>());
  } else {
    const double d = j.get<double>();
    if (std::trunc(d) != d) return fail(j.dump() + " is not a whole number");
    const double limit = std::ldexp(1.0, std::numeric_limits<I>::digits);  // exclusive
    fits = d < limit && (std::numeric_limits<I>::is_signed ? d >= -limit : d >= 0);
  }
  if (!fits) return fail(j.dump() + " does not fit in " + integer_name<I>());
  out = j.is_number_float() ? static_cast<I>(j.get<double>()) : j.get<I>();
  return std::nullopt;
}

// Where the value being read sits in its schema, as the Report writes paths, and the schema's
// union choices: how a std::variant is read as the alternative its value is valid for. Only a
// type holding a variant keeps one; every other reading passes none and builds no path.
struct UnionSite {
  const UnionChoices& choices;
  std::vector<PathSegment> segments;
};

// `site` (when there is one) one step further in, for the life of this object.
class SiteStep {
 public:
  SiteStep(UnionSite* site, std::string_view key) : site_(site) {
    if (site_ != nullptr) site_->segments.emplace_back(std::string(key));
  }
  SiteStep(UnionSite* site, std::size_t union_option) : site_(site) {
    if (site_ != nullptr) site_->segments.emplace_back("|" + std::to_string(union_option));
  }
  SiteStep(const SiteStep&) = delete;
  SiteStep& operator=(const SiteStep&) = delete;
  ~SiteStep() {
    if (site_ != nullptr) site_->segments.pop_back();
  }

 private:
  UnionSite* site_;
};

template <class T>
Failure read(const json& j, T& out, UnionSite* site);

template <class T>
void write(const T& value, json& out);

// Whether `j` carries a different value in a Tag member of the alternative struct A: then A is
// not the alternative meant, and its failure explains little.
template <class A>
bool tag_differs(const json& j) {
  bool differs = false;
  if constexpr (DescribedStruct<A>) {
    boost::mp11::mp_for_each<described_members<A>>([&](auto member) {
      using M = member_type_t<decltype(member)>;
      if constexpr (is_tag<M>::value) {
        const auto found = j.find(member.name);
        differs = differs || (found != j.end() && *found != std::string(M::value));
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

template <std::size_t I, class Variant>
Failure read_as(const json& j, Variant& out, UnionSite* site) {
  std::variant_alternative_t<I, Variant> candidate{};
  const SiteStep step(site, I);
  if (auto failure = read(j, candidate, site)) return failure;
  out.template emplace<I>(std::move(candidate));
  return std::nullopt;
}

// The alternative the schema takes the value for, when it knows; else the first that converts.
template <class Variant, std::size_t... I>
Failure read_variant(const json& j, Variant& out, UnionSite* site,
                     std::index_sequence<I...> /*alternatives*/) {
  const auto chosen =
      site != nullptr ? site->choices.option(j, Path(site->segments)) : std::nullopt;
  if (chosen && *chosen < sizeof...(I)) {
    Failure failure;
    ((I == *chosen ? (void)(failure = read_as<I>(j, out, site)) : void()), ...);
    return failure;
  }
  VariantFailure best;
  const auto fits = [&]<std::size_t A>(std::integral_constant<std::size_t, A> /*alternative*/) {
    auto failure = read_as<A>(j, out, site);
    if (!failure) return true;
    best.offer(std::move(*failure), !tag_differs<std::variant_alternative_t<A, Variant>>(j));
    return false;
  };
  if ((fits(std::integral_constant<std::size_t, I>{}) || ...)) return std::nullopt;
  return best.failure;
}

template <class T>
Failure read(const json& j, T& out, UnionSite* site) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean()) return fail("expected a boolean, got " + std::string(j.type_name()));
    out = j.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    return read_integer(j, out);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number()) return fail("expected a number, got " + std::string(j.type_name()));
    const double d = j.get<double>();
    if (std::isfinite(d) && std::abs(d) > static_cast<double>(std::numeric_limits<T>::max())) {
      return fail(j.dump() + " does not fit in " + (sizeof(T) == 4 ? "float" : "double"));
    }
    out = static_cast<T>(d);
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string()) return fail("expected a string, got " + std::string(j.type_name()));
    out = j.get_ref<const std::string&>();
  } else if constexpr (std::is_same_v<T, std::monostate>) {
    if (!j.is_null()) return fail("expected null, got " + std::string(j.type_name()));
  } else if constexpr (is_tag<T>::value) {
    if (!j.is_string() || j.get_ref<const std::string&>() != T::value) {
      return fail("expected \"" + std::string(T::value) + "\", got " + j.dump());
    }
  } else if constexpr (DescribedEnum<T>) {
    if (!j.is_string()) return fail("expected a string, got " + std::string(j.type_name()));
    if (!boost::describe::enum_from_string(j.get_ref<const std::string&>().c_str(), out)) {
      return fail(j.dump() + " names no enumerator");
    }
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) {
      out.reset();
    } else {
      typename T::value_type inner{};
      if (auto failure = read(j, inner, site)) return failure;
      out = std::move(inner);
    }
  } else if constexpr (is_vector<T>::value || is_std_array<T>::value) {
    if (!j.is_array()) return fail("expected an array, got " + std::string(j.type_name()));
    if constexpr (is_vector<T>::value) {
      out.resize(j.size());
    } else if (j.size() != out.size()) {
      return fail("expected " + std::to_string(out.size()) + " items, got " +
                  std::to_string(j.size()));
    }
    const SiteStep items(site, "[]");
    for (std::size_t i = 0; i < j.size(); ++i) {
      if (auto failure = read(j[i], out[i], site)) return under(i, std::move(failure));
    }
  } else if constexpr (is_string_map<T>::value) {
    if (!j.is_object()) return fail("expected an object, got " + std::string(j.type_name()));
    out.clear();
    const SiteStep values(site, "{}");
    for (const auto& [key, item] : j.items()) {
      if (auto failure = read(item, out[key], site)) return under(key, std::move(failure));
    }
  } else if constexpr (is_variant<T>::value) {
    return read_variant(j, out, site, std::make_index_sequence<std::variant_size_v<T>>{});
  } else if constexpr (DescribedStruct<T>) {
    if (!j.is_object()) return fail("expected an object, got " + std::string(j.type_name()));
    Failure failure;
    boost::mp11::mp_for_each<described_members<T>>([&](auto member) {
      if (failure) return;
      using M = member_type_t<decltype(member)>;
      const auto found = j.find(std::string_view(member.name));
      if (found != j.end()) {
        const SiteStep step(site, member.name);
        if (auto inner = read(*found, out.*member.pointer, site)) {
          failure = under(std::string(member.name), std::move(inner));
        }
      } else if constexpr (is_optional<M>::value) {
        (out.*member.pointer).reset();
      } else {
        failure = under(std::string(member.name), fail("missing"));
      }
    });
    return failure;
  } else {
    static_assert(always_false<T>,
                  "accord: no JSON conversion for this C++ type (typed_types.hpp)");
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

// `value` as a T, a variant in it read as the alternative `schema` (or, without one,
// schema_of<T>()) takes its value for.
template <class T>
Converted<T> read_value(const Schema* schema, const nlohmann::json& value) {
  T out{};
  Failure failure;
  if constexpr (holds_variant<T>) {
    static const Schema derived = schema_of<T>();
    UnionSite site{*union_choices(schema != nullptr ? *schema : derived), {}};
    failure = read(value, out, &site);
  } else {
    failure = read(value, out, nullptr);
  }
  if (failure) return std::move(*failure);
  return out;
}

}  // namespace typed_detail

// Requires T (and every struct inside it) to be default-constructible. A std::variant is read as
// the first alternative schema_of<T>() takes the value for (typed_variant.hpp); a T whose
// variant's alternatives cannot be told apart has no schema, and throws SchemaError here.
template <class T>
[[nodiscard]] Converted<T> from_json_value(const nlohmann::json& value) {
  return typed_detail::read_value<T>(nullptr, value);
}

// `value` as a T the way its schema reads it: absent fields with defaults filled in
// (with_defaults), then converted. The one reading extract<T>, extract_async<T>, typed tools and
// typed refinements share.
template <class T>
[[nodiscard]] Converted<T> from_json_value(const Schema& schema, const nlohmann::json& value) {
  return typed_detail::read_value<T>(&schema, with_defaults(schema, value));
}

}  // namespace accord
