#include "openai_common.hpp"

#include "lowering.hpp"

namespace accord::detail {

std::optional<std::string> arguments_text(const ojson& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_object()) return serialize(value);
  return std::nullopt;
}

WireSchema lower_openai_strict(const ojson& emitted, Report report, const std::string& stage) {
  return lower_schema(emitted, std::move(report), LoweringTarget::openai_strict, stage);
}

Headers openai_headers(const CallSpec& call) {
  Headers headers{{"content-type", "application/json"}};
  if (!call.api_key.empty()) headers.emplace_back("authorization", "Bearer " + call.api_key);
  return headers;
}

}  // namespace accord::detail
