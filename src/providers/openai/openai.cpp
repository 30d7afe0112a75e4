#include "providers/openai/openai.hpp"

#include "providers/lowering.hpp"

namespace accord::detail {

std::optional<std::string> arguments_text(JsonView value) {
  if (value.is_string()) return std::string(value.get_string());
  if (value.is_object()) return serialize(value);
  return std::nullopt;
}

// providers.md §3.1, the Structured Outputs guide's "Supported schemas".
const SchemaCapabilities& openai_strict_capabilities() {
  static const SchemaCapabilities kOpenAIStrict{
      .family = "OpenAI strict schemas",
      .formats = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6",
                  "uuid"},
      .numeric_bounds = true,
      .lengths = LengthSupport::not_guaranteed,
      .max_min_items = -1,
      .max_items = true,
      .all_of = false,
      .recursion = true,
      .defaults = false,
      .complex_patterns = true,
      .structured_enums = true,
      .all_required = true,
      .rule_branches = true,
      .size_limits =
          "5,000 properties, 10 levels of nesting, 120,000 characters of names and "
          "values, 1,000 enum values (a string enum over 250 values: 15,000 "
          "characters)",
  };
  return kOpenAIStrict;
}

WireSchema OpenAIProvider::lower(const nlohmann::ordered_json& emitted, Report report) const {
  return lower_schema(emitted, std::move(report), openai_strict_capabilities(),
                      std::string(name()));
}

Headers openai_headers(const CallSpec& call) {
  Headers headers{{"content-type", "application/json"}};
  if (!call.api_key.empty()) headers.emplace_back("authorization", "Bearer " + call.api_key);
  return headers;
}

Usage openai_usage(JsonView body, std::string_view input_key, std::string_view output_key) {
  Usage usage;
  const auto u = body.find("usage");
  if (!u || !u->is_object()) return usage;
  // Automatic prompt caching: the part of the input read from the cache, under
  // prompt_tokens_details (Chat Completions) or input_tokens_details (Responses).
  const auto [input, output, total, prompt_details, input_details] = members_named<5>(
      *u, {input_key, output_key, "total_tokens", "prompt_tokens_details", "input_tokens_details"});
  usage.input_tokens = token_count(input);
  usage.output_tokens = token_count(output);
  usage.total_tokens = token_count(total);
  if (usage.total_tokens == 0) usage.total_tokens = usage.input_tokens + usage.output_tokens;
  for (const auto& details : {prompt_details, input_details}) {
    if (details && details->is_object()) {
      usage.cache_read_input_tokens = token_count(*details, "cached_tokens");
    }
  }
  return usage;
}

}  // namespace accord::detail
