#include "accord/providers/capabilities.hpp"

#include <initializer_list>
#include <map>

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

std::string handling_words(KeywordHandling handling) {
  switch (handling) {
    case KeywordHandling::enforced:
      return "yes";
    case KeywordHandling::skipped:
      return "no: its grammar skips it silently; not sent, stated in words, enforced locally";
    case KeywordHandling::rejected:
      return "no: the server rejects it; not sent, stated in words, enforced locally";
    case KeywordHandling::unknown:
      return "sent, not known to be enforced; also stated in words, enforced locally";
  }
  return "";
}

KeywordHandling handling_of(const SchemaCapabilities& c, std::string_view keyword) {
  const auto found = c.keyword_handling.find(keyword);
  return found == c.keyword_handling.end() ? KeywordHandling::enforced : found->second;
}

// One row for several keywords: "yes" when the server enforces them all, else each handling with
// the keywords it applies to.
std::string keywords_row(const SchemaCapabilities& c, std::initializer_list<const char*> keywords) {
  std::map<KeywordHandling, std::string> groups;
  for (const char* keyword : keywords) {
    auto& names = groups[handling_of(c, keyword)];
    names += (names.empty() ? "" : ", ") + std::string(keyword);
  }
  if (groups.size() == 1) return handling_words(groups.begin()->first);
  std::string out;
  for (const auto& [handling, names] : groups) {
    out += (out.empty() ? "" : "; ") + names + ": " + handling_words(handling);
  }
  return out;
}

// A row with a case that depends on the node (a bound on a non-integer, an unanchored pattern).
std::string with_case(std::string row, KeywordHandling handling, const char* which) {
  if (handling == KeywordHandling::enforced) return row;
  return row + "; " + which + ": " + handling_words(handling);
}

// The rows for a server that takes the whole schema, from its keyword handling.
void full_schema_rows(const SchemaCapabilities& c,
                      std::vector<std::pair<std::string, std::string>>& rows) {
  for (auto& [name, value] : rows) {
    if (name == "formats") {
      value = c.other_formats == KeywordHandling::enforced
                  ? "yes"
                  : (c.formats.empty() ? std::string("none known") : joined(c.formats)) +
                        "; others: " + handling_words(c.other_formats);
    } else if (name.starts_with("numeric bounds")) {
      value = with_case(keywords_row(c, {"minimum", "maximum", "exclusiveMinimum",
                                         "exclusiveMaximum", "multipleOf"}),
                        c.bounds_beside_numbers, "bounds on a non-integer");
    } else if (name == "minLength / maxLength") {
      value = with_case(keywords_row(c, {"minLength", "maxLength"}), c.lengths_beside_pattern,
                        "beside a pattern or format");
    } else if (name == "oneOf") {
      // Grammars have no "exactly one": they read oneOf as anyOf.
      value = "sent as written, read as anyOf; exactly one checked locally";
    } else if (name == "minItems" || name == "maxItems" || name == "allOf" || name == "pattern") {
      value = keywords_row(c, {name.c_str()});
      if (name == "pattern") value = with_case(value, c.unanchored_patterns, "without ^ and $");
    } else if (name.starts_with("recursion") || name.starts_with("shared definitions")) {
      value = keywords_row(c, {"$ref"});
    } else if (name == "objects and arrays in enum/const") {
      value = keywords_row(c, {"enum", "const"});
    } else if (name == "x-accord-rules") {
      const auto conditionals = handling_of(c, "if");
      value = conditionals == KeywordHandling::enforced || conditionals == KeywordHandling::unknown
                  ? "as if/then where a rule compares a field to literals; else in words"
                  : "in words";
    } else if (name == "uniqueItems, contains, not, if/then/else") {
      value = keywords_row(c, {"uniqueItems", "contains", "not", "if"});
    } else if (name != "documented size limits" && name != "forced tool") {
      value = "sent as written";
    }
  }
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
      {"shared definitions ($defs + $ref)",
       c.recursion || c.references
           ? std::string("yes: sent once, referred to") +
                 (c.bare_references ? " (no description beside a $ref)" : "")
           : "no: inlined at each use, within the wire bound (1 MiB by default)"},
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
      {"uniqueItems, contains, not, if/then/else", "no: stated in words, enforced locally"},
      {"forced tool", c.forces_tool ? "yes" : "not known to be honoured (see Local servers)"},
      {"documented size limits", c.size_limits},
  };
  // Local servers get the schema as written, less what their grammar cannot take.
  if (c.full_schema) full_schema_rows(c, rows);
  return rows;
}

}  // namespace accord
