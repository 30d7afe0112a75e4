#include "accord/repair.hpp"

#include "accord/json_text.hpp"
#include "accord/printable.hpp"
#include "core/ascii.hpp"
#include "repair/json_slips.hpp"
#include "repair/value_coercion.hpp"

namespace accord {
namespace {

using repair::read_with_slips;
using repair::SlipRead;

bool blank(std::string_view text) {
  return detail::trim_blanks(text).empty();
}

const ParseLimits kReplyLimits{.refuse_repeated_keys = true};

// A slip read with the value its strict text parses to: the slips written out must make JSON a
// strict parser takes (a JSON5 number JSON lacks does not), without a repeated key (two readings).
struct Reading {
  SlipRead read;
  nlohmann::json value;
};

std::optional<Reading> strict_reading(std::optional<SlipRead> read) {
  if (!read) return std::nullopt;
  auto parsed = parse_json(read->json, kReplyLimits);
  if (!parsed.value) return std::nullopt;
  return Reading{std::move(*read), std::move(*parsed.value)};
}

// `text` read whole as one value, blanks and comments around it allowed.
std::optional<Reading> whole(std::string_view text) {
  auto read = read_with_slips(text, 0);
  if (read && !blank(text.substr(read->end))) return std::nullopt;
  return strict_reading(std::move(read));
}

// The contents of each ``` fenced block of `text` (the fence's language tag dropped).
std::vector<std::string_view> fenced_blocks(std::string_view text) {
  std::vector<std::string_view> blocks;
  std::size_t at = 0;
  auto open = std::string_view::npos;  // where the open block's contents start
  while (at < text.size()) {
    const auto end = std::min(text.find('\n', at), text.size());
    const auto line = detail::trim_blanks(text.substr(at, end - at));
    if (line.starts_with("```")) {
      if (open != std::string_view::npos) {
        blocks.push_back(text.substr(open, at - open));
        open = std::string_view::npos;
      } else {
        open = std::min(end + 1, text.size());
      }
    }
    at = end + 1;
  }
  return blocks;
}

// Just past the bracket that closes the one opening at `at`, or npos; strings skipped.
std::size_t past_close(std::string_view text, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"' || c == '\'') {
      for (++i; i < text.size() && text[i] != c; ++i)
        if (text[i] == '\\') ++i;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string_view::npos;
}

// The JSON values standing in prose, each whole: a bracket that opens a value that cannot be
// read is stepped over to its close, so no part of a broken value is taken for the reply.
std::optional<std::vector<Reading>> values_in_prose(std::string_view text,
                                                    std::optional<bool> root_is_array) {
  std::vector<Reading> found;
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    if (text.substr(at).starts_with("/*")) {
      // What a comment holds is set aside, not meant: a value in one is no reading, and text
      // after a comment left open may all be inside it.
      const auto close = text.find("*/", at + 2);
      if (close == std::string_view::npos) return std::nullopt;
      at = close + 2;
      continue;
    }
    if (c != '{' && c != '[') {
      ++at;
      continue;
    }
    if (auto reading = strict_reading(read_with_slips(text, at))) {
      at = reading->read.end;
      if (!root_is_array || *root_is_array == (c == '[')) found.push_back(std::move(*reading));
      continue;
    }
    const auto after = past_close(text, at);
    if (after == std::string_view::npos) return std::nullopt;  // an unclosed value: no reading
    at = after;
  }
  return found;
}

RepairedText with_text_dropped(std::string_view text, SlipRead read) {
  Repairs repairs{{RepairKind::text_around_json, Path{}, repair::shortened(text),
                   repair::shortened(read.json)}};
  repairs.insert(repairs.end(), read.slips.begin(), read.slips.end());
  return RepairedText{std::move(read.json), std::move(repairs)};
}

// What repair_json_text gives, with the value its text parses to; nullopt as there.
std::optional<std::pair<RepairedText, nlohmann::json>> repaired_reading(
    std::string_view text, RepairPolicy policy, std::optional<bool> root_is_array) {
  if (policy == RepairPolicy::off) return std::nullopt;
  if (auto reading = whole(text)) {
    if (reading->read.slips.empty()) return std::nullopt;  // strict JSON already
    return std::pair{RepairedText{std::move(reading->read.json), std::move(reading->read.slips)},
                     std::move(reading->value)};
  }
  std::vector<Reading> found;
  for (const auto block : fenced_blocks(text))
    if (auto reading = whole(block)) found.push_back(std::move(*reading));
  if (found.empty()) {
    auto in_prose = values_in_prose(text, root_is_array);
    if (!in_prose) return std::nullopt;
    found = std::move(*in_prose);
  }
  if (found.size() != 1) return std::nullopt;  // none, or two readings
  auto& only = found.front();
  return std::pair{with_text_dropped(text, std::move(only.read)), std::move(only.value)};
}

}  // namespace

std::string_view to_string(RepairPolicy policy) {
  switch (policy) {
    case RepairPolicy::off:
      return "off";
    case RepairPolicy::lossless:
      return "lossless";
    case RepairPolicy::lenient:
      return "lenient";
  }
  return "unknown";
}

std::optional<RepairPolicy> repair_policy_named(std::string_view name) {
  for (const auto policy : {RepairPolicy::off, RepairPolicy::lossless, RepairPolicy::lenient})
    if (to_string(policy) == name) return policy;
  return std::nullopt;
}

std::string_view to_string(RepairKind kind) {
  switch (kind) {
    case RepairKind::text_around_json:
      return "text_around_json";
    case RepairKind::trailing_comma:
      return "trailing_comma";
    case RepairKind::comment:
      return "comment";
    case RepairKind::single_quoted_string:
      return "single_quoted_string";
    case RepairKind::unquoted_key:
      return "unquoted_key";
    case RepairKind::number_from_string:
      return "number_from_string";
    case RepairKind::boolean_from_string:
      return "boolean_from_string";
    case RepairKind::wrapped_in_array:
      return "wrapped_in_array";
    case RepairKind::enum_letter_case:
      return "enum_letter_case";
    case RepairKind::key_letter_case:
      return "key_letter_case";
    case RepairKind::string_from_number:
      return "string_from_number";
  }
  return "unknown";
}

bool lossless(RepairKind kind) {
  return kind != RepairKind::key_letter_case && kind != RepairKind::string_from_number;
}

std::optional<RepairedText> repair_json_text(std::string_view text, RepairPolicy policy,
                                             std::optional<bool> root_is_array) {
  auto reading = repaired_reading(text, policy, root_is_array);
  if (!reading) return std::nullopt;
  return std::move(reading->first);
}

std::string describe(const Repair& repair) {
  const auto at = repair.path.empty() ? std::string() : " at " + printable(repair.path.to_string());
  return std::string(to_string(repair.kind)) + at + ": " + printable(repair.before) + " -> " +
         printable(repair.after);
}

std::vector<RepairAllowance> repairs_allowed(const nlohmann::ordered_json& json_schema,
                                             RepairPolicy policy) {
  std::vector<RepairAllowance> out;
  if (policy == RepairPolicy::off) return out;
  for (const auto kind :
       {RepairKind::text_around_json, RepairKind::trailing_comma, RepairKind::comment,
        RepairKind::single_quoted_string, RepairKind::unquoted_key})
    out.push_back({Path{}, kind});
  auto values = repair::allowed_repairs(json_schema, policy);
  out.insert(out.end(), values.begin(), values.end());
  return out;
}

Repairs repair_value(nlohmann::json& value, const nlohmann::ordered_json& json_schema,
                     RepairPolicy policy) {
  return repair::coerce_value(value, json_schema, policy);
}

RepairedParse parse_with_repairs(std::string_view text, RepairPolicy policy,
                                 std::optional<bool> root_is_array) {
  RepairedParse out{parse_json(text, kReplyLimits), {}};
  if (out.parsed.value) return out;
  if (auto reading = repaired_reading(text, policy, root_is_array)) {
    out.parsed = ParsedJson{std::move(reading->second), {}};
    out.repairs = std::move(reading->first.repairs);
  }
  return out;
}

Repairs repair_to_valid(nlohmann::json& value, const nlohmann::ordered_json& json_schema,
                        const Validator& validator, RepairPolicy policy) {
  auto coerced = value;
  auto changes = repair_value(coerced, json_schema, policy);
  if (changes.empty() || !validator.validate(coerced).empty()) return {};
  value = std::move(coerced);
  return changes;
}

RepairedVerdict judge_with_repairs(std::string_view text, const Validator& validator,
                                   const nlohmann::ordered_json& json_schema, RepairPolicy policy,
                                   std::optional<bool> root_is_array) {
  auto [parsed, repairs] = parse_with_repairs(text, policy, root_is_array);
  if (!parsed.value) return {std::nullopt, std::move(parsed.issues), {}};
  auto issues = validator.validate(*parsed.value);
  RepairedVerdict out{std::move(parsed.value), std::move(issues), {}};
  if (!out.issues.empty() && policy != RepairPolicy::off) {
    auto coerced = repair_to_valid(*out.value, json_schema, validator, policy);
    if (!coerced.empty()) out.issues.clear();
    repairs.insert(repairs.end(), coerced.begin(), coerced.end());
  }
  out.repairs = std::move(repairs);
  return out;
}

}  // namespace accord
