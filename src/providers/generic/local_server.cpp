#include "providers/generic/local_server.hpp"

#include "providers/lowering.hpp"

namespace accord::detail {

WireSchema LocalServer::lower(const nlohmann::ordered_json& emitted, Report report) const {
  return lower_schema(emitted, std::move(report), *profile_.capabilities,
                      std::string(profile_.name));
}

SchemaCapabilities full_schema_capabilities(std::string family) {
  return SchemaCapabilities{
      .family = std::move(family),
      .full_schema = true,
      .formats = {},
      .numeric_bounds = true,
      .lengths = LengthSupport::enforced,
      .max_min_items = -1,
      .max_items = true,
      .all_of = true,
      .recursion = true,
      .defaults = true,
      .complex_patterns = true,
      .structured_enums = true,
      .all_required = false,
      .rule_branches = false,
      .size_limits = "none documented",
  };
}

ProviderParts local_server_parts(std::string_view name, std::unique_ptr<Provider> (*make)()) {
  return ProviderParts{
      .name = name,
      .make = make,
      .stream = make_chat_stream,
      .ask_for_stream = ask_for_chat_stream,
      .batches = nullptr,
  };
}

}  // namespace accord::detail
