// docs/architecture.md opens with the tree of src/ and of tests/: these tests hold both trees to
// the files on disk, and hold src/ to the rule the tree states (a stage folder includes internal
// headers only from itself and the folders above it).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace accord {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = ACCORD_SOURCE_DIR;

std::string architecture_page() {
  std::ifstream in(kRoot / "docs/architecture.md", std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// One line of a drawn tree: its depth, the entry's name ("core/" for a folder) and what the page
// says beside it.
struct TreeLine {
  int depth = 0;
  std::string name;
  std::string words;
};

// The block as the page has it, from its root line to the closing fence.
std::string block_on_page(const std::string& page, const std::string& root) {
  const auto start = page.find("```text\n" + root + "\n");
  if (start == std::string::npos) return "";
  const auto body = start + std::string_view("```text\n").size();
  return page.substr(body, page.find("```", body) - body);
}

// The lines of the ```text block whose first line is `root`, parsed; empty when there is none.
std::vector<TreeLine> drawn_tree(const std::string& page, const std::string& root) {
  std::istringstream block(block_on_page(page, root));
  std::vector<TreeLine> lines;
  std::string line;
  std::getline(block, line);  // the root itself
  while (std::getline(block, line)) {
    TreeLine parsed;
    std::string_view rest = line;
    while (rest.starts_with("│   ") || rest.starts_with("    ")) {
      rest.remove_prefix(rest.starts_with("│") ? std::string_view("│   ").size() : 4);
      ++parsed.depth;
    }
    if (!rest.starts_with("├── ") && !rest.starts_with("└── ")) {
      ADD_FAILURE() << "not a line of a tree in docs/architecture.md: " << line;
      return {};
    }
    rest.remove_prefix(std::string_view("├── ").size());
    const auto gap = rest.find("  ");
    parsed.name = std::string(rest.substr(0, gap));
    if (gap != std::string_view::npos)
      parsed.words = std::string(rest.substr(rest.find_first_not_of(' ', gap)));
    lines.push_back(parsed);
  }
  return lines;
}

// Draws `folder` as the page should: files sorted, then sub-folders in the order the page gives
// them (new ones sorted, after), each folder with the page's words beside it.
class TreeDrawer {
 public:
  TreeDrawer(const std::vector<TreeLine>& page_lines, bool folders_only)
      : folders_only_(folders_only) {
    std::vector<std::string> parents;
    for (const auto& line : page_lines) {
      parents.resize(line.depth);
      std::string path;
      for (const auto& parent : parents) path += parent;
      path += line.name;
      order_[path] = static_cast<int>(order_.size());
      words_[path] = line.words;
      parents.push_back(line.name);
    }
  }

  std::string draw(const fs::path& folder, const std::string& root) {
    std::string out = root + "\n";
    draw_entries(folder, "", "", out);
    return out;
  }

 private:
  void draw_entries(const fs::path& folder, const std::string& relative, const std::string& indent,
                    std::string& out) {
    std::vector<std::string> files;
    std::vector<std::string> folders;
    for (const auto& entry : fs::directory_iterator(folder)) {
      const auto name = entry.path().filename().string();
      if (entry.is_directory())
        folders.push_back(name + "/");
      else if (!folders_only_)
        files.push_back(name);
    }
    std::sort(files.begin(), files.end());
    std::sort(folders.begin(), folders.end(), [&](const std::string& a, const std::string& b) {
      const auto rank = [&](const std::string& name) {
        const auto it = order_.find(relative + name);
        return it == order_.end() ? static_cast<int>(order_.size()) : it->second;
      };
      return std::pair(rank(a), a) < std::pair(rank(b), b);
    });
    // A folder-only tree draws two levels (tests/unit/core/), not the data folders below them.
    if (folders_only_ && std::count(relative.begin(), relative.end(), '/') >= 2) folders.clear();
    std::vector<std::string> entries = files;
    entries.insert(entries.end(), folders.begin(), folders.end());
    std::size_t width = 0;  // words beside sibling folders start in one column
    for (const auto& name : folders) width = std::max(width, name.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const bool last = i + 1 == entries.size();
      const auto& name = entries[i];
      std::string line = indent + (last ? "└── " : "├── ") + name;
      const auto words = words_.find(relative + name);
      if (name.ends_with("/") && words != words_.end() && !words->second.empty())
        line += std::string(width - name.size() + 2, ' ') + words->second;
      out += line + "\n";
      if (name.ends_with("/"))
        draw_entries(folder / name.substr(0, name.size() - 1), relative + name,
                     indent + (last ? "    " : "│   "), out);
    }
  }

  bool folders_only_;
  std::map<std::string, int> order_;
  std::map<std::string, std::string> words_;
};

TEST(Architecture, SourceTreeOnThePageIsTheTreeOnDisk) {
  const auto lines = drawn_tree(architecture_page(), "src/");
  ASSERT_FALSE(lines.empty()) << "docs/architecture.md has no ```text block starting with src/";
  EXPECT_EQ(block_on_page(architecture_page(), "src/"),
            TreeDrawer(lines, false).draw(kRoot / "src", "src/"))
      << "paste the second tree into docs/architecture.md, with words for a new folder";
}

TEST(Architecture, TestTreeOnThePageIsTheTreeOnDisk) {
  const auto lines = drawn_tree(architecture_page(), "tests/");
  ASSERT_FALSE(lines.empty()) << "docs/architecture.md has no ```text block starting with tests/";
  EXPECT_EQ(block_on_page(architecture_page(), "tests/"),
            TreeDrawer(lines, true).draw(kRoot / "tests", "tests/"))
      << "paste the second tree into docs/architecture.md, with words for a new folder";
}

TEST(Architecture, StageIncludesOnlyItselfAndTheStagesAboveIt) {
  std::map<std::string, int> stage;  // "core" -> 0, in the page's order
  for (const auto& line : drawn_tree(architecture_page(), "src/"))
    if (line.depth == 0 && line.name.ends_with("/"))
      stage.emplace(line.name.substr(0, line.name.size() - 1), static_cast<int>(stage.size()));
  ASSERT_GE(stage.size(), 2u);
  const std::regex internal_include(R"re(#include "(\w+)/[^"]+")re");
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "src")) {
    if (!entry.is_regular_file()) continue;
    const auto relative = fs::relative(entry.path(), kRoot / "src").generic_string();
    const auto own = stage.find(relative.substr(0, relative.find('/')));
    ASSERT_NE(own, stage.end()) << "src/" << relative << " is in no stage folder";
    ++files;
    std::ifstream in(entry.path());
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      std::smatch match;
      if (!std::regex_search(line, match, internal_include)) continue;
      const auto used = stage.find(match[1].str());
      if (used == stage.end()) continue;  // "accord/..." and library headers
      EXPECT_LE(used->second, own->second)
          << "src/" << relative << ":" << number << " includes " << match[1]
          << "/, a stage below its own (" << own->first << "/)";
    }
  }
  EXPECT_GT(files, 50);
}

}  // namespace
}  // namespace accord
