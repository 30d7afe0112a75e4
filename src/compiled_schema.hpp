#pragma once
// A JSON Schema made safe for valijson: `pattern`, `format` and string lengths moved to accord's
// own keywords (RE2, C++ format checks, code-point counts), 2020-12 tuples rewritten to draft-07,
// recursive `$ref`s and keywords valijson would silently ignore rejected up front.

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>

namespace re2 {
class RE2;
}
namespace valijson {
class Schema;
}

namespace accord::detail {

using ojson = nlohmann::ordered_json;

inline constexpr const char* kPatternKey = "x-accord-pattern";
inline constexpr const char* kFormatKey = "x-accord-format";
inline constexpr const char* kMinLengthKey = "x-accord-minLength";
inline constexpr const char* kMaxLengthKey = "x-accord-maxLength";
inline constexpr const char* kMultipleOfKey = "x-accord-multipleOf";

struct CompiledSchema {
  ojson document;  // the rewritten schema, in the original key order
  // Every `pattern` of the document, compiled once, by its ECMA-262 source. Read-only after load.
  std::unordered_map<std::string, std::shared_ptr<const re2::RE2>> regexes;
  // Each `$ref` string of the document -> the JSON pointer (in `document`) it resolves to.
  std::unordered_map<std::string, std::string> ref_targets;
  std::shared_ptr<const valijson::Schema> valijson;
};

// Throws SchemaError naming the path (JSON Schema keywords) of each problem.
[[nodiscard]] CompiledSchema compile_schema(const ojson& json_schema);

// valijson's verdict. `deepest` (optional) receives the longest error context, as value path
// segments, when the value is invalid. Never throws; an exception inside valijson is "invalid".
[[nodiscard]] bool valijson_accepts(const CompiledSchema& compiled, const nlohmann::json& value,
                                    std::vector<std::string>* deepest);

// multipleOf decided on the decimal digits as written (4.35 is a multiple of 0.01), as Zod does;
// valijson's binary floating-point remainder says it is not.
[[nodiscard]] bool is_multiple_of(const nlohmann::json& value, const nlohmann::json& divisor);

// UTF-8 code points in `text` (JSON Schema's string length; a NUL counts like any character).
[[nodiscard]] std::size_t code_points(std::string_view text);

}  // namespace accord::detail
