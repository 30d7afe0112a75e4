// examples/transfer_tool against accord-mock with its scenario: the 900 eur call never reaches
// the handler, the 450 eur one does, once.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "accord/providers/provider.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/scoped_env.hpp"

namespace {

struct Output {
  int exit_code = -1;
  std::string out;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

Output run_example(const std::string& provider, const std::string& base_url) {
  // A key in the provider's variable, as a user would give it: Azure's routes refuse a request
  // without one, even on loopback.
  const accord::ScopedEnv key(std::string(accord::make_provider(provider)->api_key_env()),
                              "sk-test-example");
#ifdef ACCORD_TRANSFER_TOOL_PATH
  const std::string command = std::string("'") + ACCORD_TRANSFER_TOOL_PATH + "' --provider " +
                              provider + " --base-url " + base_url + " 2>/dev/null";
#else
  const std::string command = "false";
#endif
  Output output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    output.out.append(buffer, n);
  const int status = ::pclose(pipe);
  output.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return output;
}

std::string last_line(const std::string& text) {
  auto end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  auto start = text.rfind('\n', end);
  return text.substr(start == std::string::npos ? 0 : start + 1,
                     end - (start == std::string::npos ? 0 : start + 1) + 1);
}

class TransferToolExample : public ::testing::TestWithParam<std::string> {};

TEST_P(TransferToolExample, HandlerRunsOnceAndTheLastLineSaysSo) {
#ifndef ACCORD_TRANSFER_TOOL_PATH
  GTEST_SKIP() << "examples were not built";
#endif
  MockProcess mock(
      read_file(std::string(ACCORD_SOURCE_DIR) + "/examples/transfer_tool_scenario.json"));
  const auto output = run_example(GetParam(), mock.base_url());
  EXPECT_EQ(output.exit_code, 0) << output.out;
  EXPECT_EQ(last_line(output.out), "handler_runs: 1") << output.out;
  EXPECT_NE(output.out.find("I sent 450 eur"), std::string::npos) << output.out;
}

TEST_P(TransferToolExample, ErrorResultCarriesTheCap) {
#ifndef ACCORD_TRANSFER_TOOL_PATH
  GTEST_SKIP() << "examples were not built";
#endif
  MockProcess mock(
      read_file(std::string(ACCORD_SOURCE_DIR) + "/examples/transfer_tool_scenario.json"));
  run_example(GetParam(), mock.base_url());
  const auto requests = mock.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_NE(requests[1]["body"].dump().find("eur transfers are capped at 500"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Providers, TransferToolExample,
                         ::testing::ValuesIn(::accord::provider_names()),
                         accord::testing_support::ProviderParamName());

}  // namespace
