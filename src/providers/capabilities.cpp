#include "accord/providers/capabilities.hpp"

namespace accord {
namespace {

std::string yes_no(bool yes, const char* otherwise = "no: stated in words, enforced locally") {
  return yes ? "yes" : otherwise;
}

std::string joined(const std::set<std::string, std::less<>>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> capability_rows(const SchemaCapabilities& c) {
  const std::string lengths = c.lengths == LengthSupport::enforced ? "yes"
                              : c.lengths == LengthSupport::not_guaranteed
                                  ? "kept, not guaranteed: also stated in words"
                                  : "no: stated in words, enforced locally";
  const std::string min_items =
      c.max_min_items < 0 ? "yes"
                          : "up to " + std::to_string(c.max_min_items) + "; larger in words";
  std::vector<std::pair<std::string, std::string>> rows = {
      {"formats",
       c.formats.empty() ? "none kept: stated in words" : joined(c.formats) + "; others in words"},
      {"numeric bounds (minimum, maximum, exclusive*, multipleOf)", yes_no(c.numeric_bounds)},
      {"minLength / maxLength", lengths},
      {"minItems", min_items},
      {"maxItems", yes_no(c.max_items)},
      {"anyOf", "yes"},
      {"oneOf",
       "as anyOf when the options exclude each other; else anyOf + \"exactly one\" in words"},
      {"allOf", c.all_of ? "yes; object branches merged into one object"
                         : "object branches merged into one object; others in words"},
      {"recursion ($defs + $ref cycles)",
       c.recursion ? "yes" : "no: unrolled 3 levels, deeper values cannot be sent"},
      {"default", c.defaults ? "yes" : "no: stated in words"},
      {"pattern", !c.patterns          ? "no: stated in words, enforced locally"
                  : c.complex_patterns ? "yes"
                                       : "simple patterns only; lookaround, backreferences, \\b "
                                         "and repeats over 100 in words"},
      {"objects and arrays in enum/const", yes_no(c.structured_enums)},
      {"optional properties",
       c.all_required ? "no: sent required and nullable, null means absent" : "yes"},
      {"maps (additionalProperties with a schema)",
       "no: sent as a list of {key, value} entries, turned back before validation"},
      {"unknown keys", "no: every object is closed"},
      {"root type", "object only; other roots are sent as {\"value\": ...}"},
      {"x-accord-rules", c.rule_branches ? "as anyOf branches where the subset can say them; "
                                           "else in words"
                                         : "in words"},
      {"documented size limits", c.size_limits},
  };
  if (c.full_schema) {
    // Local servers get the schema as written; the rows say so rather than what lowering would do.
    for (auto& [name, value] : rows) {
      if (name != "documented size limits") value = "sent as written (strict is only a hint)";
    }
  }
  return rows;
}

}  // namespace accord
