// The accord command, run as a program: each subcommand's output and exit code, extraction against
// accord-mock.

#include <gtest/gtest.h>

#include <accord/version.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures/cli_run.hpp"
#include "fixtures/hostile_server.hpp"
#include "fixtures/mock_process.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using cli_testing::Outcome;
using cli_testing::slurp;

class Cli : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!IsSkipped()) write("transfer.json", kTransfer);
  }

  static constexpr const char* kTransfer = R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "transfer",
    "type": "object",
    "properties": {
      "accountId": {"type": "string", "pattern": "^acct_[a-z0-9]+$"},
      "amount": {"type": "number", "minimum": 1, "maximum": 10000},
      "currency": {"type": "string", "enum": ["usd", "eur"]}
    },
    "required": ["accountId", "amount", "currency"],
    "additionalProperties": false,
    "x-accord-rules": [
      {"if": "currency == \"eur\"", "then": "amount <= 500", "message": "eur transfers are capped at 500"}
    ]
  })";
};

TEST_F(Cli, VersionPrintsTheProjectVersion) {
  const auto r = run({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "accord " + std::string(accord::version()) + "\n");
}

TEST_F(Cli, MissingSubcommandIsAUsageError) {
  const auto r = run({});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("subcommand"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownCommandIsNamedWithTheKnownOnes) {
  const auto r = run({"frobnicate", "x"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown command frobnicate; the commands are schema, validate, extract, "
                       "batch"),
            std::string::npos)
      << r.err;
}

// ---- schema ----

TEST_F(Cli, SchemaJsonHasTheWireAndTheReport) {
  const auto r = run({"schema", file("transfer.json"), "--provider", "generic", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto out = json::parse(r.out);
  EXPECT_EQ(out["wire"]["then"], json::parse(R"({"properties":{"amount":{"maximum":500}}})"));
  EXPECT_FALSE(out["wire"].contains("x-accord-rules"));
  bool found = false;
  for (const auto& e : out["report"]) {
    if (e["rule"] != "rule if currency == \"eur\" then amount <= 500") continue;
    found = true;
    EXPECT_EQ(e["fate"], "keyword");
    EXPECT_EQ(e["stage"], "generic");
  }
  EXPECT_TRUE(found) << r.out;
}

TEST_F(Cli, SchemaTableShowsMovedRules) {
  const auto r = run({"schema", file("transfer.json"), "--provider", "anthropic"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("Wire schema for anthropic:\n{\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("\nPATH "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("maximum 10000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("anthropic: Anthropic structured outputs reject numeric bounds"),
            std::string::npos)
      << r.out;
}

TEST_F(Cli, InvalidSchemaExitsTwoNamingTheJsonPath) {
  write("bad.json", R"({"type": "object", "properties": {"amount": {"type": "number",
    "maximum": "10"}}, "x-accord-rules": [{"rule": "amount >= total"}]})");
  const auto r = run({"schema", file("bad.json"), "--provider", "openai-chat"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "accord: " + file("bad.json") +
                       " is not a usable JSON Schema:\n"
                       "  at #/properties/amount/maximum: maximum must be a number\n"
                       "  at #/x-accord-rules/0/rule: total is not a field of this object\n");
}

TEST_F(Cli, SchemaThatIsNotJsonExitsTwo) {
  write("broken.json", "{\"type\": ");
  const auto r = run({"schema", file("broken.json"), "--provider", "generic"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is not JSON"), std::string::npos) << r.err;
}

TEST_F(Cli, UnknownProviderExitsTwoListingTheKnownOnes) {
  const auto r = run({"schema", file("transfer.json"), "--provider", "nope"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("known: openai-chat"), std::string::npos) << r.err;
}

// ---- validate ----

TEST_F(Cli, ValidSingleDocumentExitsZero) {
  write("doc.json", R"({"accountId": "acct_1", "amount": 20, "currency": "eur"})");
  const auto r = run({"validate", file("transfer.json"), file("doc.json")});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "1 document: 1 valid, 0 invalid\n");
}

TEST_F(Cli, JsonLinesGetPrettifiedIssuesPerInvalidLine) {
  write("docs.jsonl",
        "{\"accountId\": \"acct_1\", \"amount\": 20, \"currency\": \"usd\"}\n"
        "{\"accountId\": \"acct_1\", \"amount\": 900, \"currency\": \"eur\"}\n"
        "\n"
        "{\"accountId\": \"x\", \"amount\": \"9\", \"currency\": \"usd\"}\n");
  const auto r = run({"validate", file("transfer.json"), file("docs.jsonl")});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "line 2: invalid\n"
            "  ✖ eur transfers are capped at 500\n"
            "    → at amount\n"
            "line 4: invalid\n"
            "  ✖ Invalid string: must match pattern /^acct_[a-z0-9]+$/\n"
            "    → at accountId\n"
            "  ✖ Invalid input: expected number, received string\n"
            "    → at amount\n"
            "issues by code and path:\n"
            "  1 custom at amount\n"
            "  1 invalid_format at accountId\n"
            "  1 invalid_type at amount\n"
            "3 documents: 1 valid, 2 invalid\n");
}

TEST_F(Cli, SummaryPrintsCountsOnly) {
  write("docs.jsonl", "{}\nnot json\n");
  const auto r = run({"validate", file("transfer.json"), file("docs.jsonl"), "--summary"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "issues by code and path:\n"
            "  1 invalid_json at the root\n"
            "  1 invalid_type at accountId\n"
            "  1 invalid_type at amount\n"
            "  1 invalid_value at currency\n"
            "2 documents: 0 valid, 2 invalid\n");
}

TEST_F(Cli, MissingDocumentsFileExitsTwo) {
  const auto r = run({"validate", file("transfer.json"), file("absent.jsonl")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot read"), std::string::npos);
}

// A schema whose `amount` lives in another document, named by a URI nobody serves.
constexpr const char* kRemoteRefSchema = R"({
  "type": "object",
  "properties": {"amount": {"$ref": "https://schemas.example.test/money/amount.json"}},
  "required": ["amount"]
})";

TEST_F(Cli, RefMapReadsARemoteReferenceFromTheMappedDirectory) {
  fs::create_directories(dir_ / "remotes" / "money");
  write("remotes/money/amount.json", R"({"type": "integer", "minimum": 1})");
  write("remote.json", kRemoteRefSchema);
  write("docs.jsonl", "{\"amount\": 5}\n{\"amount\": 0}\n");
  const auto r = run({"validate", file("remote.json"), file("docs.jsonl"), "--ref-map",
                      "https://schemas.example.test/=" + file("remotes")});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(r.out,
            "line 2: invalid\n"
            "  ✖ Too small: expected number to be >=1\n"
            "    → at amount\n"
            "issues by code and path:\n"
            "  1 too_small at amount\n"
            "2 documents: 1 valid, 1 invalid\n");
}

TEST_F(Cli, RemoteReferenceWithoutARefMapExitsTwoNamingTheUri) {
  write("remote.json", kRemoteRefSchema);
  write("doc.json", R"({"amount": 5})");
  const auto r = run({"validate", file("remote.json"), file("doc.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("https://schemas.example.test/money/amount.json"), std::string::npos)
      << r.err;
}

TEST_F(Cli, RefMapWithoutAnEqualsSignIsAUsageError) {
  write("doc.json", R"({"accountId": "acct_1", "amount": 20, "currency": "eur"})");
  const auto r =
      run({"validate", file("transfer.json"), file("doc.json"), "--ref-map", file("remotes")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--ref-map takes URI_PREFIX=DIR"), std::string::npos) << r.err;
}

// ---- extract ----

std::string scenario(const std::vector<json>& replies) {
  return json{{"replies", replies}}.dump();
}

TEST_F(Cli, ExtractPrintsTheValueAndWritesTheTrace) {
  MockProcess mock(
      scenario({{{"json", {{"accountId", "acct_9"}, {"amount", 300}, {"currency", "eur"}}}}}));
  write("mail.txt", "Please send 300 euros to acct_9.");
  const auto r = run({"extract", file("transfer.json"), "--provider", "anthropic", "--base-url",
                      mock.root_url(), "--model", "test-model", "--input", file("mail.txt"),
                      "--trace", file("trace.json")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out),
            (json{{"accountId", "acct_9"}, {"amount", 300}, {"currency", "eur"}}));
  EXPECT_NE(r.err.find("attempt 1: HTTP 200"), std::string::npos) << r.err;
  const auto trace = json::parse(slurp(file("trace.json")));
  ASSERT_EQ(trace["attempts"].size(), 1u);
  EXPECT_NE(trace["attempts"][0]["request_body"].dump().find("Please send 300 euros"),
            std::string::npos);
}

TEST_F(Cli, ExtractCorrectsARuleBreakThroughTheOpenAIBranches) {
  MockProcess mock(scenario(
      {{{"json", {{"value", {{"accountId", "acct_9"}, {"amount", 900}, {"currency", "eur"}}}}}},
       {{"json", {{"value", {{"accountId", "acct_9"}, {"amount", 500}, {"currency", "eur"}}}}}}}));
  write("mail.txt", "Send 900 euros to acct_9.");
  const auto r = run({"extract", file("transfer.json"), "--provider", "openai-chat", "--base-url",
                      mock.base_url(), "--input", file("mail.txt")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["amount"], 500);
  EXPECT_NE(r.err.find("eur transfers are capped at 500"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("attempt 2"), std::string::npos) << r.err;
}

TEST_F(Cli, ExtractStreamStopsEarlyAtTheFirstBrokenPart) {
  MockProcess mock(
      scenario({{{"json", {{"accountId", "nope"}, {"amount", 5}, {"currency", "usd"}}}},
                {{"json", {{"accountId", "acct_9"}, {"amount", 5}, {"currency", "usd"}}}}}));
  write("mail.txt", "Send 5 dollars to acct_9.");
  const auto r = run({"extract", file("transfer.json"), "--provider", "anthropic", "--base-url",
                      mock.root_url(), "--input", file("mail.txt"), "--stream", "--stop-early"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["accountId"], "acct_9");
  EXPECT_NE(r.err.find("stopped early at accountId"), std::string::npos) << r.err;
}

TEST_F(Cli, ExtractStopEarlyWithoutStreamIsAUsageError) {
  const auto r = run({"extract", file("transfer.json"), "--provider", "anthropic", "--stop-early"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--stream"), std::string::npos) << r.err;
}

TEST_F(Cli, ExtractThatStaysInvalidExitsOne) {
  MockProcess mock(scenario({{{"json", {{"accountId", "nope"}}}}}));
  write("mail.txt", "nothing useful");
  const auto r = run({"extract", file("transfer.json"), "--provider", "generic", "--base-url",
                      mock.base_url(), "--input", file("mail.txt"), "--corrections", "0"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("accord: extraction failed: invalid_after_retries"), std::string::npos)
      << r.err;
}

TEST_F(Cli, ExtractWithAnInvalidSchemaExitsTwoBeforeCallingAnyone) {
  write("bad.json", R"({"type": "object", "properties": {"a": {"type": "number"}},
    "x-accord-rules": [{"rule": "a < b"}]})");
  const auto r = run({"extract", file("bad.json"), "--provider", "generic", "--base-url",
                      "http://127.0.0.1:9/v1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("at #/x-accord-rules/0/rule"), std::string::npos) << r.err;
}

// ---- batch ----

TEST_F(Cli, BatchWritesOneLinePerDocumentAfterCorrectingInASecondBatch) {
  const json ok = {{"accountId", "acct_9"}, {"amount", 300}, {"currency", "eur"}};
  const json over_cap = {{"accountId", "acct_9"}, {"amount", 900}, {"currency", "eur"}};
  MockProcess mock(json{
      {"replies", json::array({json{{"json", ok}}, json{{"json", over_cap}}, json{{"json", ok}}})},
      {"batch_polls",
       2}}.dump());
  fs::create_directory(dir_ / "mails");
  write("mails/a.txt", "Send 300 euros to acct_9.");
  write("mails/b.txt", "Send 900 euros to acct_9.");
  const auto r =
      run({"batch", file("transfer.json"), "--provider", "anthropic", "--base-url", mock.root_url(),
           "--input", file("mails"), "--first-poll", "0.002", "--trace", file("traces.jsonl")});
  ASSERT_EQ(r.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<json> results;
  for (std::string line; std::getline(lines, line);) results.push_back(json::parse(line));
  ASSERT_EQ(results.size(), 2u) << r.out;
  EXPECT_EQ(results[0]["id"], "a.txt");
  EXPECT_EQ(results[1]["value"], ok);
  EXPECT_EQ(results[1]["attempts"], 2);
  // The progress display: one line per status, since stderr is not a terminal here.
  EXPECT_NE(r.err.find("round 1, batch msgbatch_"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("round 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("2/2 answered"), std::string::npos) << r.err;
  EXPECT_NE(slurp(file("traces.jsonl")).find("eur transfers are capped at 500"), std::string::npos);
}

TEST_F(Cli, BatchWithAFailedItemExitsOne) {
  MockProcess mock(json{{"replies", json::array({json{{"batch_expired", true}}})}}.dump());
  write("docs.jsonl", "\"Send 300 euros to acct_9.\"\n");
  const auto r = run({"batch", file("transfer.json"), "--provider", "openai-chat", "--base-url",
                      mock.base_url(), "--input", file("docs.jsonl"), "--first-poll", "0"});
  EXPECT_EQ(r.code, 1) << r.err;
  const auto line = json::parse(r.out);
  EXPECT_EQ(line["id"], "line-1");
  EXPECT_EQ(line["error"]["kind"], "batch_unanswered");
}

TEST_F(Cli, BatchOutputThatCannotTakeAByteFailsBeforeAnyRequest) {
  MockProcess mock(json{{"replies", json::array({json{{"json", {{"ok", true}}}}})}}.dump());
  write("docs.jsonl", "\"Send 300 euros to acct_9.\"\n");
  const auto r = run({"batch", file("transfer.json"), "--provider", "openai-chat", "--base-url",
                      mock.base_url(), "--input", file("docs.jsonl"), "--output", "/dev/full"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot write /dev/full"), std::string::npos) << r.err;
  EXPECT_TRUE(mock.requests().empty()) << mock.requests().dump();
}

TEST_F(Cli, BatchResultsThatCannotBeWrittenAreKeptInAFileTheErrorNames) {
  const json ok = {{"accountId", "acct_9"}, {"amount", 300}, {"currency", "eur"}};
  MockProcess mock(json{{"replies", json::array({json{{"json", ok}}})}}.dump());
  write("docs.jsonl", "\"Send 300 euros to acct_9.\"\n");
  // Standard output is a device that refuses every byte: found out only when writing.
  const auto r =
      run_with_stdout({"batch", file("transfer.json"), "--provider", "openai-chat", "--base-url",
                       mock.base_url(), "--input", file("docs.jsonl"), "--first-poll", "0"},
                      "/dev/full");
  EXPECT_EQ(r.code, 2);
  const std::string marker = "what it should hold is in ";
  const auto at = r.err.find(marker);
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::string rescue =
      r.err.substr(at + marker.size(), r.err.find('\n', at) - at - marker.size());
  const std::string kept = slurp(rescue);
  // Extracted data: a file only its owner reads, not one a planted symlink could redirect.
  const auto rescued = fs::symlink_status(rescue);
  fs::remove(rescue);
  EXPECT_EQ(rescued.type(), fs::file_type::regular);
  EXPECT_EQ(rescued.permissions() & (fs::perms::group_all | fs::perms::others_all),
            fs::perms::none);
  ASSERT_FALSE(kept.empty()) << rescue;
  EXPECT_EQ(json::parse(kept)["value"], ok) << kept;
}

TEST_F(Cli, ExtractChecksTheTracePathBeforeAnyRequest) {
  hostile::Server server(hostile::canned(hostile::Server::response("{}")));
  write("mail.txt", "Send 300 euros to acct_9.");
  const auto r = run({"extract", file("transfer.json"), "--provider", "generic", "--base-url",
                      server.base_url(), "--input", file("mail.txt"), "--trace",
                      file("no-such-dir/trace.json")});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
  EXPECT_EQ(server.requests(), 0);
}

TEST_F(Cli, CorrectionsOutOfRangeSaysTheBound) {
  const auto r =
      run({"extract", file("transfer.json"), "--provider", "generic", "--corrections", "-1"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("not in range 0 to 10"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("1.79769"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("179769313486231570"), std::string::npos) << r.err;
}

TEST_F(Cli, ValidatePrintsDocumentKeysEscaped) {
  write("closed.json", R"({"type":"object","properties":{},"additionalProperties":false})");
  write("docs.jsonl", "{\"\\u001b[2J\\u0007\": 1}\n");
  const auto r = run({"validate", file("closed.json"), file("docs.jsonl")});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b[2J"), std::string::npos) << r.out;
}

TEST_F(Cli, SchemaReportPrintsTheFilesPatternEscaped) {
  write("esc.json", R"({"type":"string","pattern":"^\u001b\\[31m"})");
  const auto r = run({"schema", file("esc.json"), "--provider", "anthropic"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\\x1b"), std::string::npos) << r.out;
}

}  // namespace
