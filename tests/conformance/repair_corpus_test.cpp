// The repair corpus (tests/conformance/repair/corpus.jsonl, written by make_corpus.py from
// documents Zod judges valid in ../shared/corpus and claims of claim.schema.json): every reply
// that can be repaired becomes exactly the document it was written from, and no reply marked
// "must not repair" comes out valid, so none reaches a caller changed by a guess.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "accord/bounded_file.hpp"
#include "accord/json_schema.hpp"
#include "accord/json_text.hpp"
#include "accord/repair.hpp"
#include "accord/validate.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

namespace accord {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

const std::string kCorpusDir = std::string(ACCORD_SOURCE_DIR) + "/tests/conformance/repair/";

struct CorpusCase {
  std::string schema;
  RepairPolicy policy;
  std::string reply;
  std::optional<json> expect;
  std::string note;
};

std::vector<CorpusCase> corpus() {
  std::vector<CorpusCase> cases;
  std::ifstream in(kCorpusDir + "corpus.jsonl");
  for (std::string line; std::getline(in, line);) {
    const auto entry = json::parse(line);
    cases.push_back(
        {entry["schema"],
         entry["policy"] == "lenient" ? RepairPolicy::lenient : RepairPolicy::lossless,
         entry["reply"],
         entry["expect"].is_null() ? std::nullopt : std::optional<json>(entry["expect"]),
         entry["note"]});
  }
  return cases;
}

struct SchemaUnderTest {
  ordered_json json_schema;
  Validator validator;
};

const std::map<std::string, SchemaUnderTest>& schemas() {
  static const auto loaded = [] {
    std::map<std::string, SchemaUnderTest> out;
    const auto add_dsl = [&](const std::string& name, const Schema& schema) {
      out.emplace(name, SchemaUnderTest{emit(schema).json, Validator(schema)});
    };
    add_dsl("refund", examples::refund_schema());
    add_dsl("transfer", examples::transfer_schema());
    const auto claim = parse_ordered_json(read_bounded_file(kCorpusDir + "claim.schema.json", {}));
    out.emplace("claim", SchemaUnderTest{claim, Validator::from_json_schema(claim)});
    return out;
  }();
  return loaded;
}

// What a reply comes to: judged as sent, and judged through the repairs its policy allows.
struct Outcome {
  bool valid_as_sent = false;
  std::optional<json> accepted;
  Repairs repairs;
};

Outcome outcome_of(const CorpusCase& c) {
  const auto& schema = schemas().at(c.schema);
  auto verdict = judge_with_repairs(c.reply, schema.validator, schema.json_schema, c.policy, false);
  Outcome out{schema.validator.parse_and_validate(c.reply).ok(), std::nullopt,
              std::move(verdict.repairs)};
  if (verdict.value && verdict.issues.empty()) out.accepted = std::move(verdict.value);
  return out;
}

TEST(RepairCorpus, HasFiveHundredRealisticReplies) {
  EXPECT_GE(corpus().size(), 500u) << "tests/conformance/repair/corpus.jsonl";
}

TEST(RepairCorpus, EveryRepairableReplyBecomesExactlyItsDocument) {
  int repaired = 0;
  for (const auto& c : corpus()) {
    if (!c.expect) continue;
    const auto out = outcome_of(c);
    ASSERT_TRUE(out.accepted) << c.note << ": " << c.reply;
    EXPECT_EQ(*out.accepted, *c.expect) << c.note << ": " << c.reply;
    EXPECT_EQ(out.valid_as_sent, out.repairs.empty()) << c.note << ": " << c.reply;
    repaired += out.valid_as_sent ? 0 : 1;
  }
  EXPECT_GT(repaired, 0);
}

TEST(RepairCorpus, NoMustNotRepairReplyComesOutValid) {
  for (const auto& c : corpus()) {
    if (c.expect) continue;
    const auto out = outcome_of(c);
    EXPECT_FALSE(out.accepted) << c.note << ": " << c.reply << "\nbecame " << out.accepted->dump();
  }
}

}  // namespace
}  // namespace accord
