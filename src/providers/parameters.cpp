#include "providers/parameters.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <functional>
#include <stdexcept>

#include "accord/request_parameters.hpp"
#include "core/ascii.hpp"

namespace accord {
namespace {

using detail::ojson;

// Composes two merge patches: applying the result is applying `first`, then `second`.
nlohmann::json composed_patch(nlohmann::json first, const nlohmann::json& second) {
  if (!first.is_object() || !second.is_object()) return second.is_null() ? first : second;
  for (const auto& [key, value] : second.items()) {
    const auto found = first.find(key);
    first[key] = found != first.end() && found->is_object() && value.is_object()
                     ? composed_patch(*found, value)
                     : value;
  }
  return first;
}

std::string lower(std::string_view text) {
  return detail::ascii_lower(text);
}

}  // namespace

RequestParameters merged(const RequestParameters& client, const RequestParameters& call) {
  RequestParameters out = client;
  const auto over = [](auto& field, const auto& from) {
    if (from) field = from;
  };
  over(out.temperature, call.temperature);
  over(out.top_p, call.top_p);
  over(out.seed, call.seed);
  over(out.stop, call.stop);
  over(out.reasoning_effort, call.reasoning_effort);
  over(out.thinking_budget, call.thinking_budget);
  over(out.service_tier, call.service_tier);
  over(out.user, call.user);
  over(out.metadata, call.metadata);
  over(out.prompt_cache, call.prompt_cache);
  for (const auto& extra : call.extra_headers) {
    std::erase_if(out.extra_headers,
                  [&](const auto& header) { return lower(header.first) == lower(extra.first); });
    out.extra_headers.push_back(extra);
  }
  out.extra_body = composed_patch(client.extra_body, call.extra_body);
  return out;
}

std::vector<std::string> parameter_names() {
  return {"temperature",     "top_p",        "seed", "stop",     "reasoning_effort",
          "thinking_budget", "service_tier", "user", "metadata", "prompt_cache"};
}

std::vector<std::string> parameters_taken(std::string_view provider_name) {
  const auto provider = make_provider(provider_name);
  if (!provider) return {};
  // Read off the codec itself, so the table cannot disagree with what encode() does: each
  // parameter alone, on a one-turn call.
  std::vector<std::string> taken;
  for (const auto& name : parameter_names()) {
    // max_tokens above the thinking budget below, which Claude requires.
    CallSpec call{.base_url = "http://127.0.0.1:1", .model = "model", .max_tokens = 4096};
    call.turns.push_back(Turn{.role = Turn::Role::user, .text = "text"});
    auto& p = call.parameters;
    const std::array<std::pair<const char*, std::function<void()>>, 10> setters{{
        {"temperature", [&] { p.temperature = 0.5; }},
        {"top_p", [&] { p.top_p = 0.5; }},
        {"seed", [&] { p.seed = 1; }},
        {"stop", [&] { p.stop = std::vector<std::string>{"."}; }},
        {"reasoning_effort", [&] { p.reasoning_effort = "low"; }},
        {"thinking_budget", [&] { p.thinking_budget = 1024; }},
        {"service_tier", [&] { p.service_tier = "auto"; }},
        {"user", [&] { p.user = "user"; }},
        {"metadata",
         [&] {
           p.metadata = std::map<std::string, std::string>{{"k", "v"}};
         }},
        {"prompt_cache", [&] { p.prompt_cache = true; }},
    }};
    for (const auto& [setter_name, set] : setters) {
      if (setter_name == name) set();
    }
    try {
      (void)provider->encode(call);
      taken.push_back(name);
    } catch (const std::invalid_argument&) {
      // not taken
    }
  }
  return taken;
}

}  // namespace accord

namespace accord::detail {
namespace {

// Headers that carry credentials or a request signature: an extra header never replaces them.
bool is_credential_header(std::string_view name) {
  static constexpr std::array<std::string_view, 6> kNames = {
      "authorization", "proxy-authorization", "x-api-key", "api-key", "x-goog-api-key", "cookie"};
  const std::string lowered = ascii_lower(name);
  for (const auto credential : kNames) {
    if (lowered == credential) return true;
  }
  return lowered.starts_with("x-amz-");
}

[[noreturn]] void refuse(std::string_view parameter, std::string_view provider) {
  throw std::invalid_argument(fmt::format(
      "the request parameter {} is not taken by the {} provider (docs/configuration.md, "
      "\"Request parameters\", lists which provider takes which)",
      parameter, provider));
}

template <class Value>
void place(ojson& body, const char* where, const std::optional<Value>& value,
           std::string_view parameter, std::string_view provider) {
  if (!value) return;
  if (where == nullptr) refuse(parameter, provider);
  body[ojson::json_pointer(where)] = *value;
}

void add_extra_headers(Headers& headers, const Headers& extra, const CallSpec& call,
                       std::string_view provider) {
  for (const auto& [name, value] : extra) {
    const std::string lowered = ascii_lower(name);
    const auto same = [&](const auto& header) { return ascii_lower(header.first) == lowered; };
    const bool carries_key = std::any_of(headers.begin(), headers.end(), [&](const auto& header) {
      return same(header) && !call.api_key.empty() &&
             header.second.find(call.api_key) != std::string::npos;
    });
    if (is_credential_header(name) || carries_key) {
      throw std::invalid_argument(
          fmt::format("the extra header {} would replace the {} request's credentials: refused",
                      name, provider));
    }
    std::erase_if(headers, same);
    headers.emplace_back(name, value);
  }
}

}  // namespace

std::optional<std::size_t> cached_message(const ojson& messages) {
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (string_or_empty(messages[i], "role") == "user") return i;
  }
  return std::nullopt;
}

void apply_parameters(ojson& body, Headers& headers, const CallSpec& call,
                      const ParameterPlaces& places, std::string_view provider) {
  const auto& p = call.parameters;
  place(body, places.temperature, p.temperature, "temperature", provider);
  place(body, places.top_p, p.top_p, "top_p", provider);
  place(body, places.seed, p.seed, "seed", provider);
  place(body, places.stop, p.stop, "stop", provider);
  place(body, places.reasoning_effort, p.reasoning_effort, "reasoning_effort", provider);
  if (p.thinking_budget) {
    if (places.thinking == ThinkingShape::enabled_block) {
      const std::optional<ojson> block =
          ojson{{"type", "enabled"}, {"budget_tokens", *p.thinking_budget}};
      place(body, places.thinking_budget, block, "thinking_budget", provider);
    } else {
      place(body, places.thinking_budget, p.thinking_budget, "thinking_budget", provider);
    }
  }
  place(body, places.service_tier, p.service_tier, "service_tier", provider);
  place(body, places.user, p.user, "user", provider);
  place(body, places.metadata, p.metadata, "metadata", provider);
  if (p.prompt_cache.value_or(false) && !places.prompt_cache) refuse("prompt_cache", provider);
  add_extra_headers(headers, p.extra_headers, call, provider);
  if (p.extra_body.is_null()) return;
  if (!p.extra_body.is_object()) {
    throw std::invalid_argument(fmt::format(
        "the extra body for the {} provider must be a JSON object (a merge patch), not {}",
        provider, p.extra_body.type_name()));
  }
  body.merge_patch(ojson(p.extra_body));
}

}  // namespace accord::detail
