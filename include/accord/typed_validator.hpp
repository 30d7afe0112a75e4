#pragma once
// Text to a validated struct, compiled once and reused, with no nlohmann::json tree:
//
//   const TypedValidator validator(refund);  // a TypedSchema<Refund>: compiles its Validator
//   Parsed<Refund> parsed = validator.parse(line);
//   if (parsed) use(parsed.value());
//   else if (parsed.conversion()) std::cerr << parsed.conversion()->message;
//   else std::cerr << prettify(parsed.issues());
//
// The text is parsed to a document and judged by the Validator (parse_and_validate: an invalid
// JSON text is one invalid_json issue, any other its Zod-worded issues), and a valid value is read
// as a T straight from the document, the schema's defaults read in place (from_json_value). A valid
// value that does not fit T (3000000000 in an int32_t) is a ConversionError with its path, as
// extract<T> reports it.

#include <optional>
#include <string_view>
#include <utility>

#include "accord/issue.hpp"
#include "accord/json_text.hpp"
#include "accord/json_view.hpp"
#include "accord/schema.hpp"
#include "accord/typed_root_reading.hpp"
#include "accord/typed_rules.hpp"
#include "accord/typed_scratch.hpp"
#include "accord/typed_value.hpp"
#include "accord/validate.hpp"

namespace accord {

template <class T>
class TypedValidator;

// A T read from text, or why not: the issues of a text that is not valid JSON or not valid for
// the schema, or the ConversionError of a valid value that does not fit T.
template <class T>
class Parsed {
 public:
  Parsed(T value) : value_(std::move(value)) {}                     // NOLINT: implicit
  Parsed(Issues issues) : issues_(std::move(issues)) {}             // NOLINT
  Parsed(ConversionError error) : conversion_(std::move(error)) {}  // NOLINT
  [[nodiscard]] bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  [[nodiscard]] const T& value() const& { return *value_; }
  [[nodiscard]] T&& value() && { return std::move(*value_); }
  // Empty unless the text was invalid JSON or invalid for the schema.
  [[nodiscard]] const Issues& issues() const { return issues_; }
  // Set when the value was valid but did not fit T.
  [[nodiscard]] const std::optional<ConversionError>& conversion() const { return conversion_; }

 private:
  // TypedValidator::parse reads into the T held here and returns this object by name, which GCC
  // and Clang return in place (a move of a struct of strings cost a third of its reading).
  friend class TypedValidator<T>;
  Parsed() : value_(std::in_place) {}
  void fail(Issues issues) {
    value_.reset();
    issues_ = std::move(issues);
  }
  void fail(ConversionError error) {
    value_.reset();
    conversion_ = std::move(error);
  }

  std::optional<T> value_;
  Issues issues_;
  std::optional<ConversionError> conversion_;
};

// Safe to use from several threads at once, as the Validator it holds.
template <class T>
class TypedValidator {
  static_assert(KnownType<T>, "accord: TypedValidator reads a type typed_types.hpp lists");

 public:
  // Throws SchemaError for a schema with mistakes, as Validator does.
  explicit TypedValidator(const Schema& schema)
      : schema_(schema), plan_(schema_), validator_(schema) {}
  // The schema T derives (schema_of<T>()).
  TypedValidator() : TypedValidator(schema_of<T>()) {}

  [[nodiscard]] Parsed<T> parse(std::string_view text, ParseLimits limits = {}) const {
    // The text is read into this thread's reused document (its tape keeps its capacity, unless it
    // grew large: typed_scratch.hpp), and the root's object refinements read the struct this
    // returns: read once, not again after.
    const typed_detail::ScratchLease<JsonDocument> document;
    Parsed<T> parsed;
    T& out = *parsed.value_;
    std::optional<typed_detail::RootReading<T>> root;
    if constexpr (typed_detail::root_read_once<T>) {
      root.emplace(document->root(), schema_, plan_, out);
    }
    Issues issues = validator_.parse_and_validate(text, *document, limits);
    typed_detail::Failure failure;
    if (issues.empty()) {
      failure = root && root->was_read()
                    ? std::move(root->failure())
                    : typed_detail::read_into(&schema_, document->root(), out, plan_.get());
    }
    if (!issues.empty()) {
      parsed.fail(std::move(issues));
    } else if (failure) {
      parsed.fail(std::move(*failure));
    }
    return parsed;
  }

  [[nodiscard]] const Validator& validator() const { return validator_; }

 private:
  Schema schema_;
  typed_detail::RootPlan<T> plan_;  // made once, for every text read (typed_member_plan.hpp)
  Validator validator_;
};

template <class T>
TypedValidator(const TypedSchema<T>&) -> TypedValidator<T>;

}  // namespace accord
