#include "schema/local_ref.hpp"

namespace accord::detail {

const nlohmann::ordered_json* resolve_local_ref(const nlohmann::ordered_json* schema,
                                                const nlohmann::ordered_json& root) {
  for (int hops = 0; hops < 64 && schema != nullptr && schema->is_object(); ++hops) {
    auto ref = schema->find("$ref");
    if (ref == schema->end() || !ref->is_string()) return schema;
    const auto target = ref->get<std::string>();
    if (target.empty() || target[0] != '#') return nullptr;
    try {
      schema = &root.at(nlohmann::ordered_json::json_pointer(target.substr(1)));
    } catch (const std::exception&) {
      return nullptr;
    }
  }
  return schema != nullptr && schema->is_object() && schema->contains("$ref") ? nullptr : schema;
}

}  // namespace accord::detail
