#include "schema/rule_fields.hpp"

#include "schema/local_ref.hpp"

namespace accord::detail {

bool valid_field_path(std::string_view path) {
  if (path.empty()) return false;
  bool start = true;
  for (char c : path) {
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (start ? !field_name_start(c) : !field_name_char(c)) {
      return false;
    } else {
      start = false;
    }
  }
  return !start;
}

std::vector<std::string> field_segments(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const auto dot = path.find('.', start);
    out.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return out;
    start = dot + 1;
  }
}

const ojson* object_branch(const ojson* schema, const ojson& root) {
  schema = resolve_local_ref(schema, root);
  if (schema == nullptr || !schema->is_object()) return nullptr;
  if (schema->contains("properties")) return schema;
  if (auto options = schema->find("anyOf"); options != schema->end() && options->is_array()) {
    for (const auto& option : *options) {
      if (const ojson* found = object_branch(&option, root)) return found;
    }
  }
  return nullptr;
}

}  // namespace accord::detail
