// The accord command with the local-server profiles: `accord schema` for every provider, the
// Report saying what llama.cpp skips, and an extraction streamed from Ollama's /api/chat.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "accord/providers/provider.hpp"
#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

using nlohmann::json;

class CliLocalServers : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!IsSkipped()) write("price.json", kPrice);
  }

  static constexpr const char* kPrice = R"({
    "type": "object",
    "properties": {
      "sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{3}$"},
      "price": {"type": "number", "minimum": 0}
    },
    "required": ["sku", "price"]
  })";
};

TEST_F(CliLocalServers, SchemaPrintsAWireAndReportForEveryProvider) {
  for (const auto& provider : accord::provider_names()) {
    const auto r = run({"schema", file("price.json"), "--provider", provider});
    EXPECT_EQ(r.code, 0) << provider << ": " << r.err;
    EXPECT_EQ(r.out.rfind("Wire schema for " + provider + ":\n", 0), 0u) << r.out;
  }
}

TEST_F(CliLocalServers, SchemaForLlamaCppSaysTheNumberBoundIsOnlyInWords) {
  const auto r = run({"schema", file("price.json"), "--provider", "llama-cpp", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto out = json::parse(r.out);
  EXPECT_FALSE(out["wire"]["properties"]["price"].contains("minimum")) << out["wire"];
  EXPECT_EQ(out["wire"]["properties"]["sku"]["pattern"], "^[A-Z]{3}-[0-9]{3}$");
  bool found = false;
  for (const auto& e : out["report"]) {
    if (e["keyword"] != "minimum") continue;
    found = true;
    EXPECT_EQ(e["fate"], "description");
    EXPECT_EQ(e["stage"], "llama-cpp");
  }
  EXPECT_TRUE(found) << r.out;
}

TEST_F(CliLocalServers, ExtractStreamsFromOllamaAndCorrectsTheFirstReply) {
  MockProcess mock(json{{"replies",
                         {{{"json", {{"sku", "abc"}, {"price", 5}}}},
                          {{"json", {{"sku", "ABC-123"}, {"price", 5}}}}}}}
                       .dump());
  write("mail.txt", "ABC-123 costs 5.");
  // OLLAMA_HOST as Ollama writes it: host and port, no scheme.
  const auto r = run({"extract", file("price.json"), "--provider", "ollama", "--input",
                      file("mail.txt"), "--stream"},
                     {"OLLAMA_HOST=127.0.0.1:" + std::to_string(mock.port())});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["sku"], "ABC-123");
  const auto requests = mock.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0]["path"], "/api/chat");
  EXPECT_EQ(requests[0]["body"]["stream"], true);
  EXPECT_TRUE(requests[0]["body"].contains("format"));
}

}  // namespace
