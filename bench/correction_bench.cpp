// `accord-bench corrections`: the input tokens of one correction, scoped to the failing field
// versus the whole object, on a 50-field schema with one bad field, as accord-mock counts them
// (4 bytes of request body a token). Counts, not time.

#include <fmt/format.h>

#include <iostream>
#include <stdexcept>

#include "accord/client.hpp"
#include "bench.hpp"

namespace accord::bench {
namespace {

constexpr int kFields = 50;
constexpr int kBadField = 16;  // an amount: must be positive

std::string field_name(int i) {
  return fmt::format("field{:02}", i);
}

// One of five kinds of field, in turn, described as a real extraction schema's fields are.
Schema field_schema(int i) {
  switch (i % 5) {
    case 0:
      return string().min(1).describe(fmt::format("Name on line {} of the record", i));
    case 1:
      return number().positive().describe(fmt::format("Amount on line {}, in EUR", i));
    case 2:
      return integer().min(1).max(1000).describe(fmt::format("Quantity on line {}", i));
    case 3:
      return enumeration({"open", "paid", "void"}).describe(fmt::format("Status of line {}", i));
    default:
      return boolean().describe(fmt::format("Whether line {} is taxed", i));
  }
}

Schema wide_schema() {
  std::vector<Field> fields;
  for (int i = 1; i <= kFields; ++i) fields.push_back({field_name(i), field_schema(i)});
  return object(fields);
}

nlohmann::json good_value(int i) {
  switch (i % 5) {
    case 0:
      return fmt::format("Item {}", i);
    case 1:
      return 10.5 + i;
    case 2:
      return i;
    case 3:
      return "paid";
    default:
      return i % 2 == 0;
  }
}

nlohmann::json record(bool with_bad_field) {
  nlohmann::json out = nlohmann::json::object();
  for (int i = 1; i <= kFields; ++i) out[field_name(i)] = good_value(i);
  if (with_bad_field) out[field_name(kBadField)] = -5;
  return out;
}

// The source text: every value once, as a document to extract from would carry them.
std::string prompt() {
  std::string text = "Extract every line of this record.\n";
  for (int i = 1; i <= kFields; ++i) text += fmt::format("line {}: {}\n", i, good_value(i).dump());
  return text;
}

struct Spent {
  std::int64_t first_input = 0;
  std::int64_t correction_input = 0;
  std::int64_t total = 0;
};

Spent correct_once(const LoopOptions& options, const Schema& schema, CorrectionStyle style) {
  const nlohmann::json bad = {{"json", record(true)}};
  const nlohmann::json answer = style == CorrectionStyle::scoped
                                    ? nlohmann::json{{"json", {{field_name(kBadField), 27.5}}}}
                                    : nlohmann::json{{"json", record(false)}};
  const nlohmann::json scenario = {{"replies", {bad, answer}}};
  MockServer mock(mock_binary(options.mock), scenario.dump());
  const Client client({.provider = options.provider,
                       .base_url = mock.root_url() + (options.provider == "anthropic" ? "" : "/v1"),
                       .api_key = "bench-not-a-key",
                       .correction = {.style = style}});
  const auto result = client.extract({.schema = schema, .prompt = prompt(), .name = "record"});
  if (!result.ok()) {
    std::cerr << result.trace().to_text() << "\n";
    throw std::runtime_error("extract failed: " + result.error().message);
  }
  const auto& attempts = result.trace().attempts;
  if (attempts.size() != 2 ||
      attempts[1].role != (style == CorrectionStyle::scoped ? AttemptRole::scoped_correction
                                                            : AttemptRole::whole_correction)) {
    throw std::runtime_error("the correction did not go as scripted");
  }
  return {attempts[0].usage.input_tokens, attempts[1].usage.input_tokens,
          result.trace().usage.input_tokens + result.trace().usage.output_tokens};
}

}  // namespace

int run_corrections(const LoopOptions& options) {
  const Schema schema = wide_schema();
  const Spent whole = correct_once(options, schema, CorrectionStyle::whole_object);
  const Spent scoped = correct_once(options, schema, CorrectionStyle::scoped);
  std::cout << "provider: " << options.provider << "\nfields: " << kFields
            << " (one bad)\nfirst_request_input_tokens: " << whole.first_input
            << "\nwhole_correction_input_tokens: " << whole.correction_input
            << "\nscoped_correction_input_tokens: " << scoped.correction_input
            << fmt::format("\nscoped_share_of_whole: {:.1f}%\n",
                           100.0 * static_cast<double>(scoped.correction_input) /
                               static_cast<double>(whole.correction_input))
            << "run_tokens_whole: " << whole.total << "\nrun_tokens_scoped: " << scoped.total
            << "\n";
  return 0;
}

}  // namespace accord::bench
