// A typed schema is the rule set of a member that holds its struct: its field rules and
// refinements hold inside the member, in a std::vector or std::optional of it too.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "accord/typed_rules.hpp"
#include "accord/validate.hpp"

namespace nested_fixtures {

using namespace accord;

// docs/typed.md nested-rules:begin
struct Line {
  std::string sku;
  std::int32_t quantity = 0;
};
BOOST_DESCRIBE_STRUCT(Line, (), (sku, quantity))

struct Invoice {
  std::string number;
  std::vector<Line> lines;
  std::optional<Line> discount;
};
BOOST_DESCRIBE_STRUCT(Invoice, (), (number, lines, discount))

const auto line = typed<Line>()
                      .field(&Line::sku, regex("^SKU-[0-9]+$"))
                      .field(&Line::quantity, positive())
                      .refine([](const Line& l) { return l.quantity <= 10 || l.sku != "SKU-1"; },
                              "SKU-1 comes 10 at most", {.path = {"quantity"}});
const auto invoice = typed<Invoice>()
                         .field(&Invoice::lines, line, nonempty())  // every item is a `line`
                         .field(&Invoice::discount, line);          // optional, as the member is
// docs/typed.md nested-rules:end

struct Depot {
  std::map<std::string, Line> by_site;
};
BOOST_DESCRIBE_STRUCT(Depot, (), (by_site))

}  // namespace nested_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace nested_fixtures;

std::string issues_of(const Schema& schema, const json& value) {
  std::string out;
  for (const auto& issue : Validator(schema).validate(value)) {
    out += issue.path.to_string() + ": " + issue.message + "\n";
  }
  return out;
}

const json kLine = {{"sku", "SKU-7"}, {"quantity", 2}};

TEST(TypedNestedRules, ItemRulesHoldInEveryItemOfAVectorMember) {
  const json value = {{"number", "INV-1"}, {"lines", {kLine, {{"sku", "sku7"}, {"quantity", 0}}}}};
  const auto issues = issues_of(invoice, value);
  EXPECT_NE(issues.find("lines[1].sku: "), std::string::npos) << issues;
  EXPECT_NE(issues.find("lines[1].quantity: Too small"), std::string::npos) << issues;
  EXPECT_EQ(issues.find("lines[0]"), std::string::npos) << issues;
}

TEST(TypedNestedRules, TheNestedSchemasRefinementJudgesEachItemAsItsStruct) {
  const json value = {{"number", "INV-1"},
                      {"lines", {kLine, {{"sku", "SKU-1"}, {"quantity", 11}}}}};
  EXPECT_EQ(issues_of(invoice, value), "lines[1].quantity: SKU-1 comes 10 at most\n");
}

TEST(TypedNestedRules, RulesBesideTheTypedSchemaStillApplyToTheMember) {
  EXPECT_NE(issues_of(invoice, {{"number", "INV-1"}, {"lines", json::array()}}).find("lines: "),
            std::string::npos);
}

TEST(TypedNestedRules, AnOptionalMemberStaysOptionalAndIsJudgedWhenPresent) {
  EXPECT_EQ(issues_of(invoice, {{"number", "INV-1"}, {"lines", {kLine}}}), "");
  const json value = {
      {"number", "INV-1"}, {"lines", {kLine}}, {"discount", {{"sku", "x"}, {"quantity", 1}}}};
  EXPECT_NE(issues_of(invoice, value).find("discount.sku: "), std::string::npos);
}

TEST(TypedNestedRules, AMapOfTheStructTakesItsRulesInEveryValue) {
  const auto depot = typed<Depot>().field(&Depot::by_site, line);
  const json value = {
      {"by_site", {{"north", kLine}, {"south", {{"sku", "SKU-2"}, {"quantity", 0}}}}}};
  const auto issues = issues_of(depot, value);
  EXPECT_NE(issues.find("by_site.south.quantity: Too small"), std::string::npos) << issues;
  EXPECT_EQ(issues.find("north"), std::string::npos) << issues;
}

std::string file_text(const std::string& relative) {
  std::ifstream in(std::string(ACCORD_SOURCE_DIR) + "/" + relative);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// The lines strictly between the two markers in `text`.
std::string between(const std::string& text, const std::string& begin, const std::string& end) {
  const auto start = text.find(begin);
  const auto stop = text.find(end);
  if (start == std::string::npos || stop == std::string::npos) return "(markers missing)";
  const auto from = text.find('\n', start) + 1;
  return text.substr(from, text.rfind('\n', stop) + 1 - from);
}

TEST(TypedNestedRules, DocsExampleIsTheCodeThisTestCompiles) {
  const auto code =
      between(file_text("tests/unit/schema/typed_nested_rules_test.cpp"),
              "// docs/typed.md nested-rules:begin", "// docs/typed.md nested-rules:end");
  const auto docs = between(file_text("docs/typed.md"), "<!-- nested-rules:begin -->",
                            "<!-- nested-rules:end -->");
  EXPECT_EQ("```cpp\n" + code + "```\n", docs);
}

}  // namespace
}  // namespace accord
