// EncodedRequests: a call whose shape was encoded twice before gets its turns' texts written into
// the kept body, and the request is the codec's own, byte for byte, for every provider; a call the
// kept body cannot stand for is encoded whole.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "accord/providers/provider.hpp"
#include "fixtures/provider_params.hpp"
#include "providers/encoded_requests.hpp"
#include "providers/wire.hpp"

namespace accord {
namespace {

const nlohmann::ordered_json kEncodedShapeSchema = nlohmann::ordered_json::parse(R"({
    "type": "object", "properties": {"orderId": {"type": "string"}},
    "required": ["orderId"], "additionalProperties": false})");

// A first attempt as the loop makes it: the schema as text, a system and a user turn.
struct ShapedCall {
  WireSchema wire;
  std::string schema_text;
  CallSpec spec;

  ShapedCall(const Provider& p, OutputMode mode, std::string system, std::string prompt)
      : wire(p.lower(kEncodedShapeSchema, Report{})), schema_text(detail::serialize(wire.schema)) {
    spec.base_url = "http://127.0.0.1:9/v1";
    spec.api_key = "sk-shape-test";
    spec.model = "m-1";
    spec.max_tokens = 300;
    spec.output_name = "refund";
    spec.output = &wire;
    spec.output_text = &schema_text;
    spec.mode = mode;
    if (!system.empty()) spec.turns.push_back({Turn::Role::system, std::move(system), {}, {}, {}});
    spec.turns.push_back({Turn::Role::user, std::move(prompt), {}, {}, {}});
  }
};

void expect_same_request(const HttpRequest& kept, const HttpRequest& whole) {
  EXPECT_EQ(kept.body, whole.body);
  EXPECT_EQ(kept.url, whole.url);
  EXPECT_EQ(kept.headers, whole.headers);
  EXPECT_EQ(kept.aws_sigv4, whole.aws_sigv4);
}

class EncodedShape : public ::testing::TestWithParam<std::string> {};

TEST_P(EncodedShape, ALaterCallOfTheShapeIsTheCodecsOwnBytes) {
  const auto provider = make_provider(GetParam());
  for (const OutputMode mode : {OutputMode::response_format, OutputMode::forced_tool}) {
    const detail::EncodedRequests encoded;
    const ShapedCall first(*provider, mode, "Extract the order.", "Order ORD-1 please.");
    const auto whole_before = detail::requests_encoded_whole();
    expect_same_request(encoded.encode(*provider, first.spec), provider->encode(first.spec));
    expect_same_request(encoded.encode(*provider, first.spec), provider->encode(first.spec));
    // Quotes, backslashes, controls, DEL, non-ASCII and a marker-like text, all written in.
    const ShapedCall later(*provider, mode, "Say \"no\" \\ twice.\n\t\x01\x7f",
                           "Caf\xc3\xa9 \xe2\x82\xac 42 \x7f"
                           "accord-turn-0\x7f {\"a\": [1]}");
    expect_same_request(encoded.encode(*provider, later.spec), provider->encode(later.spec));
    EXPECT_EQ(detail::requests_encoded_whole() - whole_before, 2u)
        << (mode == OutputMode::forced_tool ? "forced_tool" : "response_format");
  }
}

TEST_P(EncodedShape, AConversationEndingInAnAssistantTurnKeepsItsShape) {
  const auto provider = make_provider(GetParam());
  const detail::EncodedRequests encoded;
  ShapedCall first(*provider, OutputMode::response_format, "", "First question.");
  first.spec.turns.push_back({Turn::Role::assistant, "{\"orderId\":", {}, {}, {}});
  ShapedCall later(*provider, OutputMode::response_format, "", "Second question, longer.");
  later.spec.turns.push_back({Turn::Role::assistant, "{\"orderId\": \"", {}, {}, {}});
  const auto whole_before = detail::requests_encoded_whole();
  expect_same_request(encoded.encode(*provider, first.spec), provider->encode(first.spec));
  expect_same_request(encoded.encode(*provider, first.spec), provider->encode(first.spec));
  expect_same_request(encoded.encode(*provider, later.spec), provider->encode(later.spec));
  EXPECT_EQ(detail::requests_encoded_whole() - whole_before, 2u);
}

INSTANTIATE_TEST_SUITE_P(Providers, EncodedShape, ::testing::ValuesIn(provider_names()),
                         testing_support::ProviderParamName{});

// After `first` is kept (its second call): how many whole encodings `other` takes, its request
// checked against the codec's.
std::size_t whole_encodings_after(const Provider& provider, const CallSpec& first,
                                  const CallSpec& other) {
  const detail::EncodedRequests encoded;
  (void)encoded.encode(provider, first);
  (void)encoded.encode(provider, first);
  const auto whole_before = detail::requests_encoded_whole();
  expect_same_request(encoded.encode(provider, other), provider.encode(other));
  return detail::requests_encoded_whole() - whole_before;
}

TEST(EncodedShapes, ADifferentSchemaTextIsEncodedWhole) {
  const auto provider = make_provider("openai-chat");
  const ShapedCall first(*provider, OutputMode::response_format, "S.", "P.");
  ShapedCall other(*provider, OutputMode::response_format, "S.", "P.");
  other.schema_text = R"({"type":"object"})";
  EXPECT_EQ(whole_encodings_after(*provider, first.spec, other.spec), 1u);
}

TEST(EncodedShapes, ADifferentParameterIsEncodedWhole) {
  const auto provider = make_provider("anthropic");
  const ShapedCall first(*provider, OutputMode::response_format, "S.", "P.");
  ShapedCall warmer(*provider, OutputMode::response_format, "S.", "P.");
  warmer.spec.parameters.temperature = 0.5;
  EXPECT_EQ(whole_encodings_after(*provider, first.spec, warmer.spec), 1u);
}

TEST(EncodedShapes, ATextThatIsNotUtf8IsEncodedWholeWithItsReplacement) {
  const auto provider = make_provider("openai-chat");
  const ShapedCall first(*provider, OutputMode::response_format, "S.", "P.");
  const ShapedCall broken(*provider, OutputMode::response_format, "S.", "bad \xff byte");
  EXPECT_EQ(whole_encodings_after(*provider, first.spec, broken.spec), 1u);
  EXPECT_NE(provider->encode(broken.spec).body.find("bad \xef\xbf\xbd byte"), std::string::npos);
}

// Two schemas used in turn on one client (two streams of extracts) are both kept.
TEST(EncodedShapes, TwoShapesTakenInTurnAreBothKept) {
  const auto provider = make_provider("openai-chat");
  const ShapedCall one(*provider, OutputMode::response_format, "S.", "P.");
  ShapedCall two(*provider, OutputMode::response_format, "S.", "P.");
  two.schema_text = R"({"type":"object"})";
  const detail::EncodedRequests encoded;
  for (int round = 0; round < 2; ++round) {
    (void)encoded.encode(*provider, one.spec);
    (void)encoded.encode(*provider, two.spec);
  }
  const auto whole_before = detail::requests_encoded_whole();
  expect_same_request(encoded.encode(*provider, one.spec), provider->encode(one.spec));
  expect_same_request(encoded.encode(*provider, two.spec), provider->encode(two.spec));
  EXPECT_EQ(detail::requests_encoded_whole() - whole_before, 0u);
}

}  // namespace
}  // namespace accord
