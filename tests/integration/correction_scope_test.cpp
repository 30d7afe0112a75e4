// Which corrections are scoped and how many corrective requests a call sends, over real HTTP
// against accord-mock: a map or recursive definition off the way to the failing field leaves the
// correction scoped, a stream stopped early is scoped to its failing member and the members it
// did not write, and `corrections` bounds the corrective requests, scoped and whole alike.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "accord/client.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/refund_documents.hpp"
#include "loop/scoped_correction.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

using nlohmann::json;
using namespace testing_documents;

// A booking of 68 fields: 63 described strings, a guest count that must be positive, two plain
// strings, a map of extras and a recursive thread of comments. The keys sort so that the mock
// (which writes keys in order) streams `guests` late, with `h00`, `h01` and `zcomments` after it.
Schema booking(bool with_map, bool with_recursion) {
  std::vector<Field> fields;
  for (int i = 0; i < 63; ++i) {
    const std::string name = fmt::format("f{:02}", i);
    fields.push_back(
        {name, string().describe("The booking's " + name + ", as the guest wrote it")});
  }
  fields.push_back({"guests", integer().min(1).describe("How many guests")});
  fields.push_back({"h00", string()});
  fields.push_back({"h01", string()});
  if (with_map) fields.push_back({"extras", record(number().positive())});
  if (with_recursion) {
    const auto comment =
        object({{"text", string().min(1)}, {"replies", array(ref("Comment"))}}).named("Comment");
    fields.push_back({"zcomments", array(comment)});
  }
  return object(fields);
}

json booking_value(bool with_map, bool with_recursion, int guests = 2) {
  json value = json::object();
  for (int i = 0; i < 63; ++i) value[fmt::format("f{:02}", i)] = fmt::format("value {:02}", i);
  value["guests"] = guests;
  value["h00"] = "h zero";
  value["h01"] = "h one";
  if (with_map) value["extras"] = {{"breakfast", 12.5}, {"parking", 8}};
  if (with_recursion) {
    value["zcomments"] = {
        {{"text", "late arrival"}, {"replies", {{{"text", "fine"}, {"replies", json::array()}}}}}};
  }
  return value;
}

// The booking as OpenAI strict mode writes it: the map as a list of key/value entries.
json on_the_wire(json value) {
  if (value.contains("extras")) {
    json entries = json::array();
    for (const auto& [key, amount] : value["extras"].items())
      entries.push_back({{"key", key}, {"value", amount}});
    value["extras"] = std::move(entries);
  }
  return value;
}

struct Extracted {
  Result<json> result;
  json requests;  // the bodies accord-mock received
};

Extracted extract(const Schema& schema, const std::vector<json>& replies, int corrections = 1,
                  StreamOptions stream = {}) {
  MockProcess mock(scenario(replies));
  ClientOptions options{.provider = "openai-chat", .base_url = mock.base_url()};
  options.stream = stream;
  const Client client(options);
  Extracted run{client.extract({.schema = schema,
                                .prompt = "Book the stay from the email.",
                                .name = "booking",
                                .corrections = corrections}),
                json::array()};
  for (const auto& entry : mock.requests()) run.requests.push_back(entry["body"]);
  return run;
}

std::int64_t input_tokens(const Extracted& run, std::size_t attempt) {
  return run.result.trace().attempts.at(attempt).usage.input_tokens;
}

// --- A map or recursive definition elsewhere ------------------------------------------------

class ScopeBeside : public ::testing::TestWithParam<std::pair<bool, bool>> {};

TEST_P(ScopeBeside, MapOrRecursiveDefinitionOffTheWayLeavesTheCorrectionScoped) {
  const auto [with_map, with_recursion] = GetParam();
  const Schema schema = booking(with_map, with_recursion);
  const json bad = on_the_wire(booking_value(with_map, with_recursion, 0));
  const Extracted run = extract(schema, {{{"json", bad}}, {{"json", {{"guests", 2}}}}});
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result.value(), booking_value(with_map, with_recursion));
  const auto& attempts = run.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].note, "correction scoped to guests");
  EXPECT_EQ(attempts[1].role, AttemptRole::scoped_correction);
  // The corrective request asks for the one value: no echo of the booking, no booking schema.
  const std::string second = run.requests.at(1).dump();
  EXPECT_EQ(second.find("value 07"), std::string::npos) << second;
  EXPECT_EQ(run.requests[1]["response_format"]["json_schema"]["schema"]["properties"].size(), 1u);
  EXPECT_LT(input_tokens(run, 1) * 3, input_tokens(run, 0));
}

INSTANTIATE_TEST_SUITE_P(Schemas, ScopeBeside,
                         ::testing::Values(std::pair{true, false}, std::pair{false, true},
                                           std::pair{true, true}),
                         [](const auto& info) {
                           return std::string(info.param.first ? "Map" : "") +
                                  (info.param.second ? "Recursion" : "");
                         });

TEST(ScopeOnTheWay, FailingValueInsideAMapSentAsEntriesIsCorrectedWhole) {
  const Schema schema = booking(true, false);
  json bad = booking_value(true, false);
  bad["extras"]["parking"] = -8;
  const Extracted run = extract(
      schema, {{{"json", on_the_wire(bad)}}, {{"json", on_the_wire(booking_value(true, false))}}});
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const auto& attempts = run.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[0].note,
            "correction sent whole: the way to extras.parking goes through a map sent as a list "
            "of entries");
  EXPECT_EQ(attempts[1].role, AttemptRole::whole_correction);
}

TEST(ScopeOnTheWay, FailingValueInsideARecursiveDefinitionIsScopedWithTheDefinitions) {
  const Schema schema = booking(false, true);
  json bad = booking_value(false, true);
  bad["zcomments"][0]["replies"][0]["text"] = "";
  const Extracted run =
      extract(schema, {{{"json", bad}}, {{"json", {{"zcomments.0.replies.0.text", "fine"}}}}});
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result.value(), booking_value(false, true));
  EXPECT_EQ(run.result.trace().attempts.at(0).note,
            "correction scoped to zcomments.0.replies.0.text");
  // The patch schema carries the definitions its sub-schemas may point into.
  EXPECT_TRUE(run.requests.at(1)["response_format"]["json_schema"]["schema"].contains("$defs"));
}

// Plans alone: a map inside a recursive definition is on the way only through its reference.
TEST(ScopePlan, MapInsideARecursiveDefinitionIsOnTheWayOnlyWhenThePathEntersIt) {
  const Schema node = object({{"label", string().min(1)},
                              {"tags", record(string().min(1))},
                              {"children", array(ref("Node"))}})
                          .named("Node");
  const Schema schema = object({{"title", string().describe("A title long enough to weigh")},
                                {"summary", string().describe("A summary of the whole tree")},
                                {"root", node}});
  const auto provider = make_provider("openai-chat");
  const Contract contract(schema, "tree", *provider);
  const json child = {{"label", "leaf"},
                      {"tags", json::array({{{"key", "k"}, {"value", "v"}}})},
                      {"children", json::array()}};
  json wire = {{"title", "t"},
               {"summary", "a long enough summary of the tree to keep the share low"},
               {"root", {{"label", "top"}, {"tags", json::array()}, {"children", {child}}}}};
  const auto plan_for = [&](const json& reply) {
    std::string why;
    const auto issues = contract.validator().validate(unlower(reply, contract.wire().lowering));
    auto plan = detail::plan_scoped_correction(reply, issues, contract.wire(), 0.9, why);
    return std::pair{plan ? plan->keys() : std::string(), why};
  };
  json label = wire;
  label["root"]["children"][0]["label"] = "";
  EXPECT_EQ(plan_for(label).first, "root.children.0.label") << plan_for(label).second;
  json tag = wire;
  tag["root"]["children"][0]["tags"][0]["value"] = "";
  const auto [keys, why] = plan_for(tag);
  EXPECT_EQ(keys, "");
  EXPECT_EQ(why, "the way to root.children[0].tags.k goes through a map sent as a list of entries");
}

// --- A stream stopped early ----------------------------------------------------------------

constexpr StreamOptions kStopping{.enabled = true, .stop_at_first_issue = true};

TEST(ScopeStopped, StoppedStreamIsScopedToTheFailingMemberAndTheMembersNotWritten) {
  const Schema schema = booking(true, false);
  const json bad = on_the_wire(booking_value(true, false, 0));
  const json patch = {{"guests", 2}, {"h00", "h zero"}, {"h01", "h one"}};
  const Extracted run = extract(schema, {{{"json", bad}}, {{"json", patch}}}, 1, kStopping);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result.value(), booking_value(true, false));
  const auto& attempts = run.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  ASSERT_TRUE(attempts[0].stream.stopped_at.has_value());
  // `extras` sorts before `f00`, so it was written; what follows `guests` was not.
  EXPECT_EQ(attempts[0].note, "correction scoped to guests, h00, h01");
  EXPECT_EQ(attempts[1].role, AttemptRole::scoped_correction);
  const json scoped = run.requests.at(1)["response_format"]["json_schema"]["schema"];
  EXPECT_EQ(scoped["required"], json::array({"guests", "h00", "h01"}));
  const std::string second = run.requests.at(1).dump();
  EXPECT_EQ(second.find("value 07"), std::string::npos) << second;
  EXPECT_NE(second.find("the ones not written yet"), std::string::npos) << second;
}

TEST(ScopeStopped, StoppedInsideAListAsksForTheListWhole) {
  // The mock writes keys in order: buyer, comment, lines, total.
  const Schema schema =
      object({{"buyer", string().describe("Who placed the order, in full")},
              {"comment", string().describe("Anything the buyer added, verbatim")},
              {"lines", array(object({{"sku", string()}, {"qty", integer().min(1)}}))},
              {"total", number()}});
  const json bad = {{"buyer", "Dana Whitfield of Kitchen Things Ltd"},
                    {"comment", "Leave the parcel with the neighbours at number twelve"},
                    {"lines", {{{"qty", 1}, {"sku", "A"}}, {{"qty", 0}, {"sku", "B"}}}},
                    {"total", 3}};
  const json lines = {{{"qty", 1}, {"sku", "A"}}, {{"qty", 2}, {"sku", "B"}}};
  const Extracted run = extract(
      schema, {{{"json", bad}}, {{"json", {{"lines", lines}, {"total", 3}}}}}, 1, kStopping);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  EXPECT_EQ(run.result.value()["lines"], lines);
  // The list's other items were never written: the scope is the list, not its item.
  EXPECT_EQ(run.result.trace().attempts.at(0).note, "correction scoped to lines, total");
}

TEST(ScopeStopped, StoppedAtTheFirstMemberOfMostOfTheObjectIsCorrectedWhole) {
  // amount sorts first: the rest of the refund was never written, most of the object.
  json bad = kValidRefund;
  bad["amount"] = -5;
  const Extracted run =
      extract(examples::refund_schema(), {{{"json", bad}}, {{"json", kValidRefund}}}, 1, kStopping);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const std::string& note = run.result.trace().attempts.at(0).note;
  EXPECT_EQ(note.rfind("correction sent whole: the stream was stopped early at amount, and the "
                       "failing parts are ",
                       0),
            0u)
      << note;
  EXPECT_EQ(run.result.trace().attempts.at(1).role, AttemptRole::whole_correction);
}

// --- How many corrective requests -----------------------------------------------------------

json invalid_amount(double amount) {
  return {{"json", {{"amount", amount}}}};
}

TEST(CorrectionCount, OneCorrectionSendsOneCorrectiveRequestEvenWhenTheScopedOneFails) {
  const Extracted run =
      extract(examples::refund_schema(),
              {{{"json", bad_amount()}}, invalid_amount(-1), {{"json", kValidRefund}}}, 1);
  ASSERT_FALSE(run.result.ok());
  EXPECT_EQ(run.result.error().kind, ErrorKind::invalid_after_retries);
  EXPECT_EQ(run.requests.size(), 2u);
  const auto& attempts = run.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 2u);
  EXPECT_EQ(attempts[1].note,
            "merged amount into the previous object: still invalid; no correction is left to "
            "send it whole");
  EXPECT_NE(run.result.error().message.find("still invalid after 2 attempts"), std::string::npos)
      << run.result.error().message;
}

TEST(CorrectionCount, PatchThatIsNoPatchWithNoCorrectionLeftReportsTheIssuesItLeftStanding) {
  const Extracted run = extract(
      examples::refund_schema(),
      {{{"json", bad_amount()}}, {{"json", {{"orderId", "ORD-000001"}}}}, {{"json", kValidRefund}}},
      1);
  ASSERT_FALSE(run.result.ok());
  EXPECT_EQ(run.requests.size(), 2u);
  // The first reply's issue, not the patch read as a whole object missing every other field.
  EXPECT_NE(run.result.error().message.find("expected number to be >0"), std::string::npos)
      << run.result.error().message;
  EXPECT_EQ(run.result.error().message.find("orderDate"), std::string::npos)
      << run.result.error().message;
}

TEST(CorrectionCount, CorrectionsBoundTheCorrectiveRequestsSentScopedAndWhole) {
  for (int corrections = 0; corrections <= 4; ++corrections) {
    // Every answer stays invalid: each scoped or whole request counts.
    const Extracted run = extract(
        examples::refund_schema(),
        {{{"json", bad_amount()}}, invalid_amount(-1), {{"json", bad_amount()}}}, corrections);
    ASSERT_FALSE(run.result.ok());
    EXPECT_EQ(run.requests.size(), static_cast<std::size_t>(corrections + 1)) << corrections;
    EXPECT_EQ(run.result.trace().attempts.size(), static_cast<std::size_t>(corrections + 1));
  }
}

TEST(CorrectionCount, TwoCorrectionsLeaveRoomForTheWholeFallback) {
  const Extracted run =
      extract(examples::refund_schema(),
              {{{"json", bad_amount()}}, invalid_amount(-1), {{"json", kValidRefund}}}, 2);
  ASSERT_TRUE(run.result.ok()) << run.result.error().message;
  const auto& attempts = run.result.trace().attempts;
  ASSERT_EQ(attempts.size(), 3u);
  EXPECT_EQ(attempts[1].role, AttemptRole::scoped_correction);
  EXPECT_EQ(attempts[2].role, AttemptRole::whole_correction);
}

}  // namespace
}  // namespace accord
