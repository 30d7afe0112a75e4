// The documentation shows real code and real output: these tests hold README.md to the example
// program it quotes and to the Reports it pastes, and run that example against accord-mock.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "accord/json_schema.hpp"
#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string repo_file(const std::string& relative) {
  return read_file(std::string(ACCORD_SOURCE_DIR) + "/" + relative);
}

// The text between `<!-- NAME:begin -->` and `<!-- NAME:end -->` in README.md, without its
// code fence; empty when the markers are missing.
std::string readme_block(const std::string& name) {
  const std::string readme = repo_file("README.md");
  const std::string begin = "<!-- " + name + ":begin -->\n";
  const auto start = readme.find(begin);
  const auto stop = readme.find("<!-- " + name + ":end -->");
  if (start == std::string::npos || stop == std::string::npos || stop < start) return "";
  std::string block = readme.substr(start + begin.size(), stop - start - begin.size());
  const auto first_newline = block.find('\n');
  const auto closing = block.rfind("```");
  if (block.rfind("```", 0) != 0 || first_newline == std::string::npos || closing == 0) return "";
  return block.substr(first_newline + 1, closing - first_newline - 1);
}

std::string without_trailing_space(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}

TEST(Readme, ExampleIsTheCompiledExamplesReadmeExampleCpp) {
  std::string program = repo_file("examples/readme_example.cpp");
  // The file's opening comment says why it exists; the README shows the code after it.
  while (program.rfind("//", 0) == 0) program.erase(0, program.find('\n') + 1);
  EXPECT_EQ(readme_block("readme-example"), program);
}

TEST(Readme, RefundReportTablesAreWhatTheCodeReports) {
  for (const std::string name : {"openai-chat", "anthropic"}) {
    auto emitted = emit(examples::refund_schema());
    const auto wire = make_provider(name)->lower(emitted.json, std::move(emitted.report));
    EXPECT_EQ(without_trailing_space(readme_block("refund-report:" + name)),
              without_trailing_space(wire.report.to_table()))
        << "README.md's Report for " << name << " is stale; run scripts/gen-docs";
  }
}

#ifdef ACCORD_README_EXAMPLE_PATH
TEST(Readme, ExampleExtractsTheRefundThroughACorrection) {
  // The first reply swaps the dates, the second is right: the example must print the second.
  MockProcess mock(R"({"replies": [
    {"json": {"orderId": "ORD-482913", "amount": 42.5, "currency": "EUR",
              "orderDate": "2026-11-20", "refundDate": "2026-11-02"}},
    {"json": {"orderId": "ORD-482913", "amount": 42.5, "currency": "EUR",
              "orderDate": "2026-11-02", "refundDate": "2026-11-20"}}]})");
  const std::string command = "env -u OPENAI_API_KEY OPENAI_BASE_URL=" + mock.base_url() + " " +
                              ACCORD_README_EXAMPLE_PATH + " 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
  ASSERT_TRUE(pipe);
  std::string output;
  std::array<char, 512> buffer{};
  while (const auto n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
    output.append(buffer.data(), n);
  }
  const int status = ::pclose(pipe.release());
  EXPECT_EQ(status, 0) << output;
  const auto value = nlohmann::json::parse(output);
  EXPECT_EQ(value["refundDate"], "2026-11-20");
  EXPECT_EQ(mock.requests().size(), 2U);
}
#endif

}  // namespace
}  // namespace accord
