// docs/configuration.md's table of which provider takes which request parameter is the codecs'
// own answer (parameters_taken encodes a request with each parameter), so the page cannot drift
// from the code.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "accord/providers/provider.hpp"
#include "accord/request_parameters.hpp"

namespace accord {
namespace {

std::string configuration_page() {
  std::ifstream in(std::string(ACCORD_SOURCE_DIR) + "/docs/configuration.md", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The table as the page must show it: a row per provider, a column per parameter.
std::string parameters_table() {
  const auto names = parameter_names();
  std::string out = "| Provider |";
  for (const auto& name : names) out += " `" + name + "` |";
  out += "\n|---|";
  for (std::size_t i = 0; i < names.size(); ++i) out += "---|";
  out += "\n";
  for (const auto& provider : provider_names()) {
    const auto taken = parameters_taken(provider);
    out += "| `" + provider + "` |";
    for (const auto& name : names) {
      out += std::find(taken.begin(), taken.end(), name) != taken.end() ? " yes |" : " no |";
    }
    out += "\n";
  }
  return out;
}

TEST(ParametersTable, ConfigurationPageShowsWhichProviderTakesWhichParameter) {
  const std::string page = configuration_page();
  const std::string begin = "<!-- parameters-table:begin -->\n";
  const auto start = page.find(begin);
  const auto stop = page.find("<!-- parameters-table:end -->");
  ASSERT_NE(start, std::string::npos) << "docs/configuration.md has no parameters-table markers";
  ASSERT_NE(stop, std::string::npos);
  const auto shown = page.substr(start + begin.size(), stop - start - begin.size());
  EXPECT_EQ(shown, parameters_table()) << "paste this between the markers:\n" << parameters_table();
}

}  // namespace
}  // namespace accord
