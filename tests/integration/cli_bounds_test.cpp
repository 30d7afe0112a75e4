// The accord command's newcomer traps and unbounded inputs (red-team run 2): files it is told to
// read are bounded, values print in the schema's order, and a hosted endpoint without a key stops
// before any request.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "fixtures/cli_run.hpp"
#include "fixtures/mock_process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

class CliBounds : public cli_testing::CliTest {};

constexpr const char* kAmountSchema = R"({
  "type": "object",
  "properties": {"amount": {"$ref": "https://schemas.example.test/amount.json"}}
})";

TEST_F(CliBounds, RefMapToAFifoExitsTwoWithoutWaiting) {
  fs::create_directory(dir_ / "remotes");
  ASSERT_EQ(::mkfifo((dir_ / "remotes" / "amount.json").c_str(), 0600), 0);
  write("schema.json", kAmountSchema);
  write("doc.json", R"({"amount": 5})");
  const auto r = run({"validate", file("schema.json"), file("doc.json"), "--ref-map",
                      "https://schemas.example.test/=" + file("remotes")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "it is a FIFO, not a regular file")) << r.err;
}

TEST_F(CliBounds, RefMapToADeviceExitsTwoUnread) {
  write("schema.json", R"({"$ref": "https://schemas.example.test/zero"})");
  write("doc.json", "5");
  const auto r = run({"validate", file("schema.json"), file("doc.json"), "--ref-map",
                      "https://schemas.example.test/=/dev"});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "it is a device or a socket")) << r.err;
}

TEST_F(CliBounds, SchemaFileThatIsADeviceExitsTwoUnread) {
  write("doc.json", "5");
  const auto r = run({"validate", "/dev/zero", file("doc.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "cannot read /dev/zero: it is a device or a socket")) << r.err;
}

// A whole-file document is read whole, so bounded; a JSONL file streams a line at a time
// (tests/integration/cli_validate_stream_test.cpp).
TEST_F(CliBounds, DocumentFileOverItsCapExitsTwoUnread) {
  write("schema.json", R"({"type": "integer"})");
  { std::ofstream(dir_ / "doc.json"); }
  fs::resize_file(dir_ / "doc.json", (std::uintmax_t{1} << 30) + 1);  // sparse
  const auto r = run({"validate", file("schema.json"), file("doc.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_TRUE(contains(r.err, "more than 1073741824 bytes")) << r.err;
}

// Members named out of alphabetical order, nested and in a list.
constexpr const char* kOrderSchema = R"({
  "type": "object",
  "properties": {
    "zone": {"type": "string"},
    "customer": {
      "type": "object",
      "properties": {"surname": {"type": "string"}, "given": {"type": "string"}},
      "required": ["surname", "given"]
    },
    "lines": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
        "required": ["sku", "qty"]
      }
    },
    "amount": {"type": "number"}
  },
  "required": ["zone", "customer", "lines", "amount"]
})";

TEST_F(CliBounds, ExtractPrintsMembersInTheSchemaOrder) {
  const json value = {{"zone", "EU"},
                      {"customer", {{"surname", "Okafor"}, {"given", "Ada"}}},
                      {"lines", {{{"sku", "KT-200"}, {"qty", 2}}}},
                      {"amount", 42.5}};
  MockProcess mock(nlohmann::json{{"replies", {{{"json", value}}}}}.dump());
  write("order.json", kOrderSchema);
  write("mail.txt", "Two kettles for Ada Okafor.");
  const auto r = run({"extract", file("order.json"), "--provider", "openai-chat", "--base-url",
                      mock.base_url(), "--input", file("mail.txt")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), value);
  EXPECT_EQ(r.out, nlohmann::ordered_json::parse(R"({
    "zone": "EU",
    "customer": {"surname": "Okafor", "given": "Ada"},
    "lines": [{"sku": "KT-200", "qty": 2}],
    "amount": 42.5
  })")
                           .dump(2) +
                       "\n");
}

TEST_F(CliBounds, EmptyKeyForAHostedEndpointStopsBeforeAnyRequest) {
  write("order.json", kOrderSchema);
  write("mail.txt", "Two kettles for Ada Okafor.");
  const auto r = run({"extract", file("order.json"), "--provider", "openai-chat", "--base-url",
                      "https://api.example.invalid/v1", "--input", file("mail.txt")},
                     {"OPENAI_API_KEY="});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "OPENAI_API_KEY is empty or unset")) << r.err;
  EXPECT_FALSE(contains(r.err, "attempt 1")) << r.err;
  EXPECT_FALSE(contains(r.err, "extracting with")) << r.err;
}

TEST_F(CliBounds, BatchWithAnEmptyKeyForAHostedEndpointStopsBeforeItsStartLine) {
  write("order.json", kOrderSchema);
  write("mails.jsonl", "\"Two kettles for Ada Okafor.\"\n");
  const auto r = run({"batch", file("order.json"), "--provider", "openai-chat", "--base-url",
                      "https://api.example.invalid/v1", "--input", file("mails.jsonl"), "--output",
                      file("orders.jsonl")},
                     {"OPENAI_API_KEY="});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(contains(r.err, "OPENAI_API_KEY is empty or unset")) << r.err;
  EXPECT_FALSE(contains(r.err, "as a batch job")) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "orders.jsonl"));
  EXPECT_FALSE(fs::exists(dir_ / "orders.jsonl.batch-state.json"));
}

}  // namespace
