// A declarative rule judged on a parsed document compares its operands straight from the tape;
// the verdict must stay the one nlohmann's operators give on trees of the same values (the oracle):
// numbers in nlohmann's order across kinds (an integer against a float as doubles, an unsigned
// against a signed integer as int64s), strings by code unit, other kinds equal or not but never
// ordered, and a rule whose operand is missing holds.

#include "schema/rule_evaluation.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "accord/json_view.hpp"
#include "core/json_access.hpp"
#include "core/member_values.hpp"

namespace accord::detail {

// Whether a compiled rule's requirement was shaped (judged in place) when its places were bound.
struct CompiledRuleShapes {
  static bool requirement_shaped(const CompiledRule& rule) {
    return rule.requirement_.shape != CompiledRule::Shape::general;
  }
};

namespace {

using nlohmann::json;

constexpr Op kOps[] = {Op::eq, Op::ne, Op::lt, Op::lte, Op::gt, Op::gte};

// Numbers of every kind nlohmann keeps: unsigned, signed and float, around the places where a
// cast between them loses or wraps (2^53, 2^63, 2^64, 19 and 20 digits).
std::vector<json> numbers() {
  std::vector<json> out;
  for (const std::uint64_t u :
       {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{500}, std::uint64_t{9007199254740992},
        std::uint64_t{9007199254740993}, std::uint64_t{9223372036854775807},
        std::uint64_t{9223372036854775808U}, std::uint64_t{9999999999999999999U},
        std::numeric_limits<std::uint64_t>::max()}) {
    out.emplace_back(u);
  }
  for (const std::int64_t i :
       {std::int64_t{-1}, std::int64_t{-500}, std::int64_t{-9007199254740993},
        std::numeric_limits<std::int64_t>::min() + 1, std::numeric_limits<std::int64_t>::min()}) {
    out.emplace_back(i);
  }
  for (const double d : {0.0, -0.0, 0.5, 1.0, 499.99, 500.0, 500.5, -500.0, 9007199254740992.0,
                         9223372036854775808.0, 1e19, 18446744073709551616.0, 1e300, -1e300}) {
    out.emplace_back(d);
  }
  // Parsed as a document would give them: a 20-digit integer beyond uint64 becomes a float.
  out.push_back(json::parse("18446744073709551616"));
  out.push_back(json::parse("-9223372036854775809"));
  return out;
}

std::vector<json> operands() {
  std::vector<json> out = numbers();
  for (const char* text : {"", "eur", "usd", "eu", "\u00e9", "\u00ff", "a\u00e9"}) {
    out.emplace_back(text);
  }
  for (const char* text : {"true", "false", "null", "[]", "[1]", "{}", R"({"x":1})"}) {
    out.push_back(json::parse(text));
  }
  return out;
}

// What the comparison gives by nlohmann's operators on the trees: nullopt when not judged.
std::optional<bool> nlohmann_verdict(const json& left, Op op, const json& right) {
  const bool ordered =
      (left.is_number() && right.is_number()) || (left.is_string() && right.is_string());
  if (op == Op::eq || op == Op::ne) {
    const bool equal =
        left.is_number() && right.is_number() ? !(left < right) && !(right < left) : left == right;
    return equal == (op == Op::eq);
  }
  if (!ordered) return std::nullopt;
  switch (op) {
    case Op::lt:
      return left < right;
    case Op::lte:
      return !(right < left);
    case Op::gt:
      return right < left;
    default:
      return !(left < right);
  }
}

CompiledRule rule(Op op, Operand right) {
  Rule out;
  out.requirement = Comparison{"a", op, std::move(right)};
  out.message = "fails";
  return CompiledRule(std::move(out), nullptr, nlohmann::ordered_json::object());
}

JsonDocument tape_of(const json& value) {
  auto parsed = parse_document(value.dump());
  EXPECT_TRUE(parsed.document) << value.dump();
  return std::move(*parsed.document);
}

TEST(RuleEvaluation, NumbersCompareAsNlohmannOrdersThemForEveryPairOfKinds) {
  std::vector<json> grid = numbers();
  // No parsed text holds these, but a literal built in code can.
  for (const double d :
       {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
        -std::numeric_limits<double>::infinity()}) {
    grid.emplace_back(d);
  }
  for (const json& left : grid) {
    for (const json& right : grid) {
      for (const Op op : kOps) {
        EXPECT_EQ(compare_numbers_in_tree_order(number_of(left), op, number_of(right)),
                  nlohmann_verdict(left, op, right))
            << left.dump() << " " << to_string(op) << " " << right.dump();
      }
    }
  }
}

TEST(RuleEvaluation, TwoFieldsOfADocumentCompareAsTheirTreesDo) {
  for (const json& left : operands()) {
    for (const json& right : operands()) {
      const JsonDocument doc = tape_of(json{{"a", left}, {"b", right}});
      // The document's own reading of the text is the value compared (a 20-digit integer is a
      // float there as in nlohmann's tree).
      const json a = doc.root().find("a")->to_json();
      const json b = doc.root().find("b")->to_json();
      for (const Op op : kOps) {
        const bool holds = nlohmann_verdict(a, op, b) != std::optional(false);
        EXPECT_EQ(rule(op, field("b")).holds(doc.root()), holds)
            << a.dump() << " " << to_string(op) << " " << b.dump();
      }
    }
  }
}

TEST(RuleEvaluation, AFieldComparesWithALiteralAsTheirTreesDo) {
  for (const json& left : operands()) {
    for (const json& literal : operands()) {
      const JsonDocument doc = tape_of(json{{"a", left}});
      const json a = doc.root().find("a")->to_json();
      for (const Op op : kOps) {
        const bool holds = nlohmann_verdict(a, op, literal) != std::optional(false);
        EXPECT_EQ(rule(op, literal).holds(doc.root()), holds)
            << a.dump() << " " << to_string(op) << " " << literal.dump();
      }
    }
  }
}

TEST(RuleEvaluation, ARuleWhoseOperandIsMissingHolds) {
  const JsonDocument doc = tape_of(json{{"b", 1}});
  for (const Op op : kOps) {
    EXPECT_TRUE(rule(op, field("b")).holds(doc.root()));
    EXPECT_TRUE(rule(op, 1).holds(doc.root()));
  }
}

// The values of `declared` the object has, as the object keywords hand them to its rules.
MemberValues found_in(JsonView object, const std::vector<std::string_view>& declared) {
  MemberValues found;
  for (std::uint32_t place = 0; place < declared.size(); ++place) {
    if (const auto member = object.find(declared[place])) found.keep(place, *member);
  }
  found.mark_filled();
  return found;
}

TEST(RuleEvaluation, FieldsReadFromTheObjectKeywordsValuesJudgeAsFieldsLookedUp) {
  // "b" before "a": a place is the property's among the declared ones, not the rule's order.
  const std::vector<std::string_view> declared = {"c", "b", "a"};
  for (const json& left : operands()) {
    for (const json& right : operands()) {
      for (const json& object : {json{{"a", left}, {"b", right}}, json{{"a", left}}}) {
        const JsonDocument doc = tape_of(object);
        const MemberValues found = found_in(doc.root(), declared);
        for (const Op op : kOps) {
          CompiledRule bound = rule(op, field("b"));
          bound.bind_places(declared);
          EXPECT_EQ(bound.holds(doc.root(), &found), rule(op, field("b")).holds(doc.root()))
              << object.dump() << " " << to_string(op);
        }
      }
    }
  }
}

TEST(RuleEvaluation, ABoundFieldComparesWithALiteralAsTheirTreesDo) {
  // A bound field against a string or number literal is compared from the values found; an
  // absent one, or a literal of another kind, as any rule is.
  const std::vector<std::string_view> declared = {"c", "a"};
  for (const json& left : operands()) {
    for (const json& literal : operands()) {
      for (const json& object : {json{{"a", left}}, json{{"c", left}}}) {
        const JsonDocument doc = tape_of(object);
        const MemberValues found = found_in(doc.root(), declared);
        const auto a = doc.root().find("a");
        for (const Op op : kOps) {
          CompiledRule bound = rule(op, literal);
          bound.bind_places(declared);
          const bool holds =
              !a || nlohmann_verdict(a->to_json(), op, literal) != std::optional(false);
          EXPECT_EQ(bound.holds(doc.root(), &found), holds)
              << object.dump() << " " << to_string(op) << " " << literal.dump();
        }
      }
    }
  }
}

TEST(RuleEvaluation, ABoundFieldAgainstAStringOrNumberLiteralIsJudgedInPlace) {
  for (const json& literal : {json("eur"), json(500), json(-0.5)}) {
    CompiledRule bound = rule(Op::lte, literal);
    bound.bind_places({"c", "a"});
    EXPECT_TRUE(CompiledRuleShapes::requirement_shaped(bound)) << literal.dump();
  }
}

TEST(RuleEvaluation, ABoundFieldAgainstAnotherFieldIsJudgedTheGeneralWay) {
  CompiledRule bound = rule(Op::lte, field("b"));
  bound.bind_places({"c", "b", "a"});
  EXPECT_FALSE(CompiledRuleShapes::requirement_shaped(bound));
}

TEST(RuleEvaluation, BoundFieldsAreReadFromTheValuesFoundNotFromTheObject) {
  // The values found come from a document whose "b" differs: a bound rule must judge those.
  const std::vector<std::string_view> declared = {"c", "b", "a"};
  const JsonDocument judged = tape_of(json{{"a", 1}, {"b", 1}});
  const JsonDocument other = tape_of(json{{"a", 1}, {"b", 2}});
  const MemberValues found = found_in(other.root(), declared);
  for (const Op op : kOps) {
    CompiledRule bound = rule(op, field("b"));
    bound.bind_places(declared);
    EXPECT_EQ(bound.holds(judged.root(), &found), rule(op, field("b")).holds(other.root()))
        << to_string(op);
  }
}

}  // namespace
}  // namespace accord::detail
