#include "accord/report.hpp"

#include <gtest/gtest.h>

#include "schema/report_writer.hpp"

namespace accord {
namespace {

Report sample() {
  Report report;
  const detail::ReportWriter writer(report);
  writer.add({.path = {}, .rule = "no unknown keys", .keyword = "additionalProperties", .why = ""});
  writer.add({.path = {"note"},
              .rule = "refine: no links",
              .keyword = "",
              .fate = Fate::description,
              .why = "stated in the description"});
  writer.add({.path = {"lines", "[]", "sku"},
              .rule = "min_length 3",
              .keyword = "minLength",
              .fate = Fate::description,
              .why = "moved to the description",
              .stage = "anthropic"});
  writer.add({.path = {"x"},
              .rule = "refine: secret",
              .keyword = "",
              .fate = Fate::local_only,
              .why = "opted out"});
  return report;
}

TEST(Report, FateNames) {
  EXPECT_EQ(to_string(Fate::keyword), "keyword");
  EXPECT_EQ(to_string(Fate::description), "description");
  EXPECT_EQ(to_string(Fate::local_only), "local-only");
  EXPECT_EQ(to_string(Fate::dropped), "dropped");
}

TEST(Report, EntriesKeepTheirOrder) {
  const auto report = sample();
  ASSERT_EQ(report.entries().size(), 4u);
  EXPECT_EQ(report.entries()[2].rule, "min_length 3");
}

TEST(Report, NotKeywordsLeavesOutKeywordFates) {
  const auto rest = sample().not_keywords();
  ASSERT_EQ(rest.size(), 3u);
  EXPECT_EQ(rest[0].rule, "refine: no links");
  EXPECT_EQ(rest[2].rule, "refine: secret");
}

TEST(Report, WithFateSelectsOneFate) {
  const auto local = sample().with_fate(Fate::local_only);
  ASSERT_EQ(local.size(), 1u);
  EXPECT_EQ(local[0].path, Path{"x"});
  EXPECT_TRUE(sample().with_fate(Fate::dropped).empty());
}

// What a provider's lowering does to emit's entries; users only read a Report.
TEST(Report, WriterChangesEntriesInPlace) {
  auto report = sample();
  detail::ReportWriter{report}.entries()[0].fate = Fate::dropped;
  EXPECT_EQ(report.with_fate(Fate::dropped).size(), 1u);
}

TEST(Report, ToJsonHasOrderedKeysAndPrintedPaths) {
  const auto json = sample().to_json();
  ASSERT_EQ(json.size(), 4u);
  EXPECT_EQ(json[0].dump(), R"({"id":"#additionalProperties","path":"","rule":"no unknown keys",)"
                            R"("keyword":"additionalProperties",)"
                            R"("fate":"keyword","why":"","stage":"emit"})");
  EXPECT_EQ(json[2]["path"], "lines[].sku");
  EXPECT_EQ(json[2]["stage"], "anthropic");
  EXPECT_EQ(json[3]["fate"], "local-only");
}

TEST(Report, EmptyReportIsAnEmptyArray) {
  EXPECT_EQ(Report{}.to_json().dump(), "[]");
}

TEST(Report, TableAlignsColumnsUnderAHeader) {
  EXPECT_EQ(sample().to_table(),
            "PATH         RULE              KEYWORD               FATE         WHY\n"
            "(root)       no unknown keys   additionalProperties  keyword\n"
            "note         refine: no links  -                     description  stated in the "
            "description\n"
            "lines[].sku  min_length 3      minLength             description  anthropic: moved "
            "to the description\n"
            "x            refine: secret    -                     local-only   opted out\n");
}

TEST(Report, EmptyTableIsTheHeader) {
  EXPECT_EQ(Report{}.to_table(), "PATH  RULE  KEYWORD  FATE  WHY\n");
}

TEST(Report, TableCountsCodePointsNotBytes) {
  Report report;
  const detail::ReportWriter writer(report);
  writer.add({.path = {"prénom"}, .rule = "min_length 1", .keyword = "minLength", .why = ""});
  writer.add({.path = {"ab"}, .rule = "min_length 1", .keyword = "minLength", .why = ""});
  const auto table = report.to_table();
  // Both RULE cells start in the same column when widths count characters.
  EXPECT_NE(table.find("[\"prénom\"]  min_length 1"), std::string::npos);
  EXPECT_NE(table.find("ab          min_length 1"), std::string::npos);
}

}  // namespace
}  // namespace accord
