#include "text/condition_words.hpp"

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

namespace accord::detail {
namespace {

using ojson = nlohmann::ordered_json;

std::string joined(const std::vector<std::string>& parts, std::string_view last) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += (i + 1 == parts.size()) ? std::string(last) : std::string(", ");
    out += parts[i];
  }
  return out;
}

// What a property's schema asks of its value, as phrases after "is" / "must be"; empty when it
// asks nothing those words can say.
std::vector<std::string> value_phrases(const ojson& schema) {
  std::vector<std::string> out;
  if (!schema.is_object()) return out;
  for (const auto& [key, value] : schema.items()) {
    if (key == "const") {
      out.push_back(value.dump());
    } else if (key == "enum" && value.is_array()) {
      std::vector<std::string> options;
      for (const auto& option : value) options.push_back(option.dump());
      out.push_back("one of " + joined(options, " or "));
    } else if (key == "minimum") {
      out.push_back("at least " + value.dump());
    } else if (key == "maximum") {
      out.push_back("at most " + value.dump());
    } else if (key == "exclusiveMinimum") {
      out.push_back("greater than " + value.dump());
    } else if (key == "exclusiveMaximum") {
      out.push_back("less than " + value.dump());
    } else if (key == "minLength" || key == "maxLength") {
      out.push_back((key == "minLength" ? "at least " : "at most ") + value.dump() +
                    (value == 1 ? " character" : " characters") + " long");
    } else if (key == "type" && value.is_string()) {
      const std::string type = value.get<std::string>();
      out.push_back(
          type == "null"
              ? "null"
              : (type == "integer" || type == "object" || type == "array" ? "an " : "a ") + type);
    } else if (key == "pattern" && value.is_string()) {
      out.push_back("a string matching /" + value.get<std::string>() + "/");
    } else if (key != "description" && key != "title" && key != "$comment") {
      out.push_back("valid for " + ojson{{key, value}}.dump());
    }
  }
  return out;
}

std::string property_clause(const std::string& name, const ojson* schema, bool required,
                            Mood mood) {
  const std::string quoted = ojson(name).dump();
  const auto phrases = schema != nullptr ? value_phrases(*schema) : std::vector<std::string>{};
  const std::string verb = mood == Mood::condition ? " is " : " must be ";
  if (phrases.empty()) return quoted + verb + "present";
  const std::string when_present = required ? "" : ", when present,";
  return quoted + when_present + verb + joined(phrases, " and ");
}

}  // namespace

std::string branch_words(const ojson& branch, Mood mood) {
  static const std::set<std::string, std::less<>> kWorded = {"properties", "required", "type",
                                                             "description", "$comment"};
  const bool plain = branch.is_object() && !branch.empty() &&
                     (!branch.contains("type") || branch["type"] == "object") &&
                     std::all_of(branch.items().begin(), branch.items().end(),
                                 [](const auto& item) { return kWorded.count(item.key()) > 0; });
  if (!plain) {
    return (mood == Mood::condition ? "the object matches " : "the object must match ") +
           branch.dump();
  }
  std::vector<std::string> required;
  if (const auto names = branch.find("required"); names != branch.end() && names->is_array()) {
    for (const auto& name : *names) {
      if (name.is_string()) required.push_back(name.get<std::string>());
    }
  }
  const auto is_required = [&](const std::string& name) {
    return std::find(required.begin(), required.end(), name) != required.end();
  };
  std::vector<std::string> clauses;
  const ojson* properties = nullptr;
  if (const auto found = branch.find("properties"); found != branch.end() && found->is_object()) {
    properties = &*found;
    for (const auto& [name, schema] : found->items()) {
      clauses.push_back(property_clause(name, &schema, is_required(name), mood));
    }
  }
  for (const auto& name : required) {
    if (properties == nullptr || !properties->contains(name)) {
      clauses.push_back(property_clause(name, nullptr, true, mood));
    }
  }
  if (clauses.empty())
    return mood == Mood::condition ? "the value is an object" : "it must be an object";
  return joined(clauses, " and ");
}

std::string conditional_words(const ojson& if_branch, const ojson* then_branch,
                              const ojson* else_branch) {
  const std::string condition = branch_words(if_branch, Mood::condition);
  std::string out;
  if (then_branch != nullptr) {
    out = "If " + condition + ", then " + branch_words(*then_branch, Mood::requirement);
    if (else_branch != nullptr)
      out += "; otherwise " + branch_words(*else_branch, Mood::requirement);
  } else if (else_branch != nullptr) {
    out = "Unless " + condition + ", " + branch_words(*else_branch, Mood::requirement);
  } else {
    return "";  // an `if` alone asks nothing
  }
  return out + ".";
}

}  // namespace accord::detail
