#include "accord/rule_id.hpp"

namespace accord {

std::string RuleId::to_string() const {
  std::string out = pointer_ + "#" + kind_;
  if (ordinal_ > 0) out += "[" + std::to_string(ordinal_) + "]";
  return out;
}

std::string schema_pointer(const Path& path) {
  std::string out;
  const auto& segments = path.segments();
  std::size_t i = 0;
  // A definition's own paths (a provider lowering `$defs`) start with its name.
  if (segments.size() >= 2) {
    const auto* first = std::get_if<std::string>(&segments[0]);
    const auto* name = std::get_if<std::string>(&segments[1]);
    if (first && name && (*first == "$defs" || *first == "definitions")) {
      out += Path{*first, *name}.to_pointer();
      i = 2;
    }
  }
  for (; i < segments.size(); ++i) {
    if (const auto* index = std::get_if<std::size_t>(&segments[i])) {
      out += "/prefixItems/" + std::to_string(*index);
      continue;
    }
    const auto& key = std::get<std::string>(segments[i]);
    if (key == "[]") {
      out += "/items";
    } else if (key == "{}") {
      out += "/additionalProperties";
    } else if (key.size() > 1 && key[0] == '|') {
      out += "/anyOf/" + key.substr(1);
    } else {
      out += "/properties" + Path{key}.to_pointer();
    }
  }
  return out;
}

}  // namespace accord
