// accord-dsl-table: the generated tables of the docs: the DSL reference table of
// docs/schema-dsl.md and the provider capability table of docs/providers.md.
//
// For every DSL rule it builds a one-field object, emits it, lowers it for each provider, and
// reads the Report entries that rule added (those absent from the same object without the rule).
// The table therefore says what the code does, not what someone remembered it doing.
//
// The capability table prints each provider's SchemaCapabilities, the table lowering reads.
//
//   accord-dsl-table                 print the blocks (markers included) on stdout
//   accord-dsl-table --write FILE    replace each block FILE has between its markers
//   accord-dsl-table --check FILE    exit 1 with a line diff when one of FILE's blocks differs

#include <accord/json_schema.hpp>
#include <accord/providers/capabilities.hpp>
#include <accord/providers/provider.hpp>
#include <accord/schema.hpp>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace accord;

constexpr std::string_view kBegin = "<!-- dsl-table:begin -->";
constexpr std::string_view kEnd = "<!-- dsl-table:end -->";
constexpr std::string_view kCapabilitiesBegin = "<!-- capability-table:begin -->";
constexpr std::string_view kCapabilitiesEnd = "<!-- capability-table:end -->";

struct Row {
  std::string dsl;  // how the rule is written, as shown in the table
  Schema schema;    // the whole schema: the rule on field "x", or on the root object
  Path at;          // where the rule sits; entries elsewhere (an option's own rules) are not its
};

Row on_field(std::string dsl, const Schema& field) {
  return {std::move(dsl), object({{"x", field}}), Path{"x"}};
}

bool always(const nlohmann::json&) {
  return true;
}

std::vector<Row> rows() {
  const auto tagged = [](const char* tag) {
    return object({{"kind", literal(tag)}, {"n", number()}});
  };
  return {
      on_field("string().min(3)", string().min(3)),
      on_field("string().max(80)", string().max(80)),
      on_field("string().length(6)", string().length(6)),
      on_field("string().nonempty()", string().nonempty()),
      on_field(R"(string().regex("^ORD-\\d{6}$"))", string().regex(R"(^ORD-\d{6}$)")),
      on_field(R"(string().regex("\\bORD\\b"))", string().regex(R"(\bORD\b)")),
      on_field(R"(string().regex("^a").regex("z$"))", string().regex("^a").regex("z$")),
      on_field(R"(string().starts_with("ORD-"))", string().starts_with("ORD-")),
      on_field(R"(string().ends_with(".pdf"))", string().ends_with(".pdf")),
      on_field(R"(string().includes("@"))", string().includes("@")),
      on_field("string().email()", string().email()),
      on_field("string().uri()", string().uri()),
      on_field("string().uuid()", string().uuid()),
      on_field("string().date()", string().date()),
      on_field("string().date_time()", string().date_time()),
      on_field("string().time()", string().time()),
      on_field("number().gt(0)", number().gt(0)),
      on_field("number().gte(1)", number().gte(1)),
      on_field("number().lt(100)", number().lt(100)),
      on_field("number().lte(99)", number().lte(99)),
      on_field("number().min(1)", number().min(1)),
      on_field("number().max(10000)", number().max(10000)),
      on_field("number().positive()", number().positive()),
      on_field("number().negative()", number().negative()),
      on_field("number().nonnegative()", number().nonnegative()),
      on_field("number().nonpositive()", number().nonpositive()),
      on_field("number().multiple_of(0.01)", number().multiple_of(0.01)),
      on_field("integer()", integer()),
      on_field("array(string()).min(2)", array(string()).min(2)),
      on_field("array(string()).max(5)", array(string()).max(5)),
      on_field("array(string()).length(3)", array(string()).length(3)),
      on_field("array(string()).nonempty()", array(string()).nonempty()),
      on_field("tuple({number(), number()})", tuple({number(), number()})),
      on_field("record(number())", record(number())),
      on_field(R"(enumeration({"EUR", "USD"}))", enumeration({"EUR", "USD"})),
      on_field(R"(literal("v1"))", literal("v1")),
      on_field("union_({string(), number()})", union_({string(), number()})),
      on_field(R"(discriminated_union("kind", {...}))",
               discriminated_union("kind", {tagged("a"), tagged("b")})),
      on_field("string().optional()", string().optional()),
      on_field("string().nullable()", string().nullable()),
      on_field(R"(string().default_("auto"))", string().default_("auto")),
      on_field(R"(string().describe("Order id"))", string().describe("Order id")),
      on_field(R"(string().examples({"ORD-000001"}))", string().examples({"ORD-000001"})),
      on_field(R"(string().refine(pred, "no links"))", string().refine(always, "no links")),
      on_field(R"(string().refine(pred, "no links", {.describe = false}))",
               string().refine(always, "no links", {.describe = false})),
      {"object({...}).passthrough()", object({{"x", any()}}).passthrough(), Path{}},
      {R"(ref("Node") in object({{"x", array(ref("Node"))}}).named("Node"))",
       object({{"x", array(ref("Node"))}}).named("Node"), Path{"x", "[]"}},
  };
}

// Markdown table cells: pipes would end the cell, and the rule texts carry regexes.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string code(const std::string& text) {
  return "`" + cell(text) + "`";
}

// A note in prose: words with backslashes (`\b`) in code font, so Doxygen reads no command there.
std::string prose(const std::string& text) {
  std::string out, word;
  const auto flush = [&] {
    out += word.find('\\') == std::string::npos ? cell(word) : code(word);
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') {
      flush();
      out += c;
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

// The entries at `at` in `with` that `without` lacks: what the rule added or changed.
std::vector<ReportEntry> added(const Report& with, const Report& without, const Path& at) {
  std::vector<ReportEntry> out;
  for (const auto& entry : with.entries()) {
    const auto& base = without.entries();
    if (entry.path == at && std::find(base.begin(), base.end(), entry) == base.end()) {
      out.push_back(entry);
    }
  }
  return out;
}

// Worst first: what the reader most needs to know about a rule is how far it got.
int severity(Fate fate) {
  switch (fate) {
    case Fate::keyword:
      return 0;
    case Fate::description:
      return 1;
    case Fate::local_only:
      return 2;
    case Fate::dropped:
      return 3;
  }
  return 4;
}

class Notes {
 public:
  // The number of a why, given one the first time it is seen.
  std::size_t number(const std::string& why) {
    auto found = std::find(whys_.begin(), whys_.end(), why);
    if (found != whys_.end()) return static_cast<std::size_t>(found - whys_.begin()) + 1;
    whys_.push_back(why);
    return whys_.size();
  }
  [[nodiscard]] const std::vector<std::string>& whys() const { return whys_; }

 private:
  std::vector<std::string> whys_;
};

// A provider's verdict on one rule: each distinct fate (worst first), with a note for the why
// when the provider changed something or the rule is not a plain keyword.
std::string verdict(std::vector<ReportEntry> entries, const std::string& provider, Notes& notes) {
  if (entries.empty()) return "—";
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return severity(a.fate) > severity(b.fate);
  });
  std::vector<std::string> parts;
  for (const auto& entry : entries) {
    std::string part(to_string(entry.fate));
    if (!entry.why.empty() && (entry.fate != Fate::keyword || entry.stage == provider)) {
      part += " [" + std::to_string(notes.number(entry.why)) + "]";
    }
    if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  }
  std::string out;
  for (const auto& part : parts) out += (out.empty() ? "" : "; ") + part;
  return out;
}

std::string join_unique(const std::vector<std::string>& items, const std::string& separator) {
  std::vector<std::string> seen;
  std::string out;
  for (const auto& item : items) {
    if (item.empty() || std::find(seen.begin(), seen.end(), item) != seen.end()) continue;
    seen.push_back(item);
    out += (out.empty() ? "" : separator) + item;
  }
  return out.empty() ? "—" : out;
}

std::string table() {
  const auto providers = provider_names();
  const auto baseline = object({{"x", any()}});
  const auto base_emitted = emit(baseline);
  std::map<std::string, Report> base_lowered;
  for (const auto& name : providers) {
    base_lowered[name] = make_provider(name)->lower(base_emitted.json, base_emitted.report).report;
  }

  Notes notes;
  std::ostringstream out;
  out << kBegin << "\n";
  out << "<!-- Generated by accord-dsl-table (docs/gen/dsl_table.cpp); run scripts/gen-docs. -->\n";
  out << "\n| DSL | Report rule | JSON Schema keyword |";
  for (const auto& name : providers) out << " " << name << " |";
  out << "\n|---|---|---|";
  for (std::size_t i = 0; i < providers.size(); ++i) out << "---|";
  out << "\n";

  for (const auto& row : rows()) {
    const auto emitted = emit(row.schema);
    const auto own = added(emitted.report, base_emitted.report, row.at);
    std::vector<std::string> rules, keywords;
    for (const auto& entry : own) {
      rules.push_back(code(entry.rule));
      std::string keys;
      std::stringstream split(entry.keyword);
      for (std::string key; std::getline(split, key, ',');) {
        keys += (keys.empty() ? "" : ", ") + code(key);
      }
      keywords.push_back(keys);
    }
    std::vector<std::string> verdicts;
    for (const auto& name : providers) {
      const auto lowered = make_provider(name)->lower(emitted.json, emitted.report).report;
      const auto changed = added(lowered, base_lowered[name], row.at);
      if (own.empty()) {
        // A rule emit records nothing for (passthrough): what the provider added is its verdict.
        for (const auto& entry : changed) rules.push_back(code(entry.rule));
      }
      verdicts.push_back(verdict(changed, name, notes));
    }
    out << "| " << code(row.dsl) << " | " << join_unique(rules, ", ") << " | "
        << join_unique(keywords, "; ") << " |";
    for (const auto& v : verdicts) out << " " << v << " |";
    out << "\n";
  }

  out << "\nNotes (the `why` of the Report entry):\n\n";
  for (std::size_t i = 0; i < notes.whys().size(); ++i) {
    out << "- [" << i + 1 << "] " << prose(notes.whys()[i]) << "\n";
  }
  out << kEnd << "\n";
  return out.str();
}

// One row per capability, one column per provider, from each provider's own table.
std::string capability_table() {
  const auto providers = provider_names();
  std::vector<std::vector<std::pair<std::string, std::string>>> columns;
  for (const auto& name : providers) {
    columns.push_back(capability_rows(make_provider(name)->schema_capabilities()));
  }
  std::vector<std::string> names;  // in order of first appearance
  for (const auto& column : columns) {
    for (const auto& [capability, value] : column) {
      if (std::find(names.begin(), names.end(), capability) == names.end()) {
        names.push_back(capability);
      }
    }
  }
  std::ostringstream out;
  out << kCapabilitiesBegin << "\n";
  out << "<!-- Generated by accord-dsl-table (docs/gen/dsl_table.cpp) from each provider's "
         "SchemaCapabilities; run scripts/gen-docs. -->\n";
  out << "\n| capability |";
  for (const auto& name : providers) out << " " << name << " |";
  out << "\n|---|";
  for (std::size_t i = 0; i < providers.size(); ++i) out << "---|";
  out << "\n";
  for (const auto& capability : names) {
    out << "| " << capability << " |";
    for (const auto& column : columns) {
      std::string value = "(same as the schema)";
      for (const auto& [c, v] : column) {
        if (c == capability) value = v;
      }
      out << " " << prose(value) << " |";
    }
    out << "\n";
  }
  out << kCapabilitiesEnd << "\n";
  return out.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// A plain line diff (longest common subsequence): the tables are a few dozen lines.
std::string diff(const std::string& expected, const std::string& actual) {
  const auto a = lines(actual), b = lines(expected);
  std::vector<std::vector<std::size_t>> lcs(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = a.size(); i-- > 0;) {
    for (std::size_t j = b.size(); j-- > 0;) {
      lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  std::string out = "--- the document\n+++ the code\n";
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ++i, ++j;
    } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
      out += "-" + a[i++] + "\n";
    } else {
      out += "+" + b[j++] + "\n";
    }
  }
  return out;
}

struct Document {
  std::string before, block, after;
};

// A generated block and the markers around it.
struct Block {
  std::string_view begin, end;
  std::string text;
};

std::optional<Document> split(const std::string& text, const Block& block,
                              const std::string& file) {
  const auto begin = text.find(block.begin);
  if (begin == std::string::npos) return std::nullopt;
  const auto end = text.find(block.end);
  if (end == std::string::npos || end < begin) {
    throw std::runtime_error(file + " has " + std::string(block.begin) + " without " +
                             std::string(block.end));
  }
  auto stop = end + block.end.size();
  if (stop < text.size() && text[stop] == '\n') ++stop;
  return Document{text.substr(0, begin), text.substr(begin, stop - begin), text.substr(stop)};
}

std::string read(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::vector<Block> blocks = {{kBegin, kEnd, table()},
                                       {kCapabilitiesBegin, kCapabilitiesEnd, capability_table()}};
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode.empty()) {
      for (const auto& block : blocks) std::cout << block.text << "\n";
      return 0;
    }
    if ((mode != "--check" && mode != "--write") || argc != 3) {
      std::cerr << "usage: accord-dsl-table [--check FILE | --write FILE]\n";
      return 2;
    }
    const std::string file = argv[2];
    std::string text = read(file);
    bool found = false, stale = false;
    for (const auto& block : blocks) {
      const auto doc = split(text, block, file);
      if (!doc) continue;
      found = true;
      if (doc->block == block.text) continue;
      stale = true;
      if (mode == "--check") {
        std::cerr << file << ": a generated table differs from the code; run scripts/gen-docs\n"
                  << diff(block.text, doc->block);
      } else {
        text = doc->before + block.text + doc->after;
      }
    }
    if (!found) throw std::runtime_error(file + " has no generated table's markers");
    if (mode == "--check") return stale ? 1 : 0;
    if (stale) {
      std::ofstream(file, std::ios::binary) << text;
      std::cerr << "accord-dsl-table: rewrote the tables in " << file << "\n";
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "accord-dsl-table: " << e.what() << "\n";
    return 2;
  }
}
