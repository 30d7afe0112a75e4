// `accord validate` over a stream of documents (issue #26): read as the bytes arrive (standard
// input included: verdicts print while the writer still writes), judged on --jobs threads in
// input order, --json verdicts, --lines, --max-errors and the summary by code and path.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fixtures/cli_run.hpp"

namespace {

using nlohmann::json;

constexpr const char* kAmountSchema = R"({
  "type": "object",
  "properties": {"amount": {"type": "integer", "minimum": 1}, "note": {"type": "string"}},
  "required": ["amount"]
})";

// The accord command with its standard input and output as pipes this test holds.
class Piped {
 public:
  explicit Piped(std::vector<std::string> args) {
#ifdef ACCORD_CLI_PATH
    args.emplace(args.begin(), ACCORD_CLI_PATH);
#endif
    int in[2];
    int out[2];
    EXPECT_EQ(::pipe2(in, O_CLOEXEC), 0);
    EXPECT_EQ(::pipe2(out, O_CLOEXEC), 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    EXPECT_EQ(::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in[0]);
    ::close(out[1]);
    to_child_ = in[1];
    from_child_ = out[0];
  }
  Piped(const Piped&) = delete;
  Piped& operator=(const Piped&) = delete;
  ~Piped() {
    close_input();
    ::close(from_child_);
    if (pid_ > 0) wait();
  }

  void write(const std::string& text) const {
    std::string_view rest = text;
    while (!rest.empty()) {
      const auto wrote = ::write(to_child_, rest.data(), rest.size());
      ASSERT_GT(wrote, 0);
      rest.remove_prefix(static_cast<std::size_t>(wrote));
    }
  }
  void close_input() {
    if (to_child_ >= 0) ::close(to_child_);
    to_child_ = -1;
  }
  // What the child printed until `part` appeared, or all of it when `within` passed first.
  std::string read_until(std::string_view part, std::chrono::milliseconds within) {
    const auto deadline = std::chrono::steady_clock::now() + within;
    // Where `part` may begin in what is not yet searched: a long output is searched once.
    std::size_t unsearched = 0;
    while (out_.find(part, unsearched) == std::string::npos) {
      unsearched = out_.size() < part.size() ? 0 : out_.size() - part.size() + 1;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd entry{from_child_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&entry, 1, static_cast<int>(left.count())) <= 0) break;
      char buffer[4096];
      const auto got = ::read(from_child_, buffer, sizeof buffer);
      if (got <= 0) break;
      out_.append(buffer, static_cast<std::size_t>(got));
    }
    return out_;
  }
  // Closes the input, reads the rest and waits: the exit code and the peak RSS in KiB.
  std::pair<int, long> finish() {
    close_input();
    read_until("\x01", std::chrono::seconds(60));  // to the end of output
    return wait();
  }
  [[nodiscard]] const std::string& out() const {
    return out_;
  }

 private:
  std::pair<int, long> wait() {
    int status = 0;
    rusage usage{};
    while (::wait4(pid_, &status, 0, &usage) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
  }

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string out_;
};

class CliValidateStream : public cli_testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    if (!IsSkipped()) write("amount.json", kAmountSchema);
  }
};

TEST_F(CliValidateStream, StdinVerdictPrintsBeforeTheInputIsClosed) {
  Piped accord({"validate", file("amount.json"), "-"});
  accord.write("{\"amount\": 5}\n{\"amount\": 0}\n");
  // The writer has not closed its end: the verdict must come anyway.
  const auto early = accord.read_until("line 2: invalid", std::chrono::seconds(20));
  EXPECT_NE(early.find("line 2: invalid"), std::string::npos) << early;
  accord.write("{\"amount\": 7}\n");
  const auto [code, peak] = accord.finish();
  EXPECT_EQ(code, 1);
  EXPECT_NE(accord.out().find("3 documents: 2 valid, 1 invalid\n"), std::string::npos)
      << accord.out();
}

// 8 MiB and 72 MiB of documents through a pipe: reading them whole would add 64 MiB to the peak.
TEST_F(CliValidateStream, PeakMemoryDoesNotGrowWithTheInput) {
  write("string.json", R"({"type": "string"})");
  const std::string line = "\"" + std::string(64 * 1024 - 3, 'x') + "\"\n";
  auto peak_for = [&](std::size_t lines) {
    Piped accord({"validate", file("string.json"), "-", "--summary"});
    for (std::size_t i = 0; i < lines; ++i) accord.write(line);
    const auto [code, peak] = accord.finish();
    EXPECT_EQ(code, 0) << accord.out();
    EXPECT_NE(accord.out().find(std::to_string(lines) + " documents: "), std::string::npos);
    return peak;
  };
  const long small = peak_for(128);
  const long large = peak_for(9 * 128);
  EXPECT_LT(large - small, 24 * 1024)
      << "peak RSS " << small << " KiB for 8 MiB, " << large << " KiB for 72 MiB";
}

// A batch's lines are capped as well as its bytes: 1 MiB of 2-byte lines, each an invalid
// document with a --json verdict 70 times its size, keeps the peak of a few lines.
TEST_F(CliValidateStream, PeakMemoryDoesNotGrowWithTheNumberOfShortLines) {
  auto peak_for = [&](std::size_t lines) {
    std::string text;
    for (std::size_t i = 0; i < lines; ++i) text += "1\n";
    write("ones.jsonl", text);
    Piped accord({"validate", file("amount.json"), file("ones.jsonl"), "--json", "--jobs", "2"});
    const auto [code, peak] = accord.finish();
    EXPECT_EQ(code, 1);
    EXPECT_NE(accord.out().find("\"documents\":" + std::to_string(lines)), std::string::npos);
    return peak;
  };
  const long small = peak_for(1000);
  const long large = peak_for(512 * 1024);
  EXPECT_LT(large - small, 24 * 1024)
      << "peak RSS " << small << " KiB for 1,000 lines, " << large << " KiB for 524,288";
}

std::string numbered_documents(std::size_t count) {
  std::string text;
  for (std::size_t i = 1; i <= count; ++i) {
    // Every third invalid, each with its own value in the message.
    text += i % 3 == 0 ? "{\"amount\": -" + std::to_string(i) + "}\n"
                       : "{\"amount\": " + std::to_string(i) + "}\n";
  }
  return text;
}

TEST_F(CliValidateStream, JobsPrintVerdictsInInputOrder) {
  write("docs.jsonl", numbered_documents(3000));
  const auto one = run({"validate", file("amount.json"), file("docs.jsonl"), "--jobs", "1"});
  const auto three = run({"validate", file("amount.json"), file("docs.jsonl"), "--jobs", "3"});
  EXPECT_EQ(one.code, 1);
  EXPECT_EQ(three.code, 1);
  EXPECT_NE(one.out.find("3000 documents: 2000 valid, 1000 invalid\n"), std::string::npos);
  EXPECT_EQ(three.out, one.out);
}

TEST_F(CliValidateStream, JobsPastTheBoundAreAUsageErrorNotACrash) {
  write("docs.jsonl", numbered_documents(3));
  const auto many = run({"validate", file("amount.json"), file("docs.jsonl"), "--jobs", "100000"});
  EXPECT_EQ(many.code, 2);
  EXPECT_NE(many.err.find("--jobs"), std::string::npos) << many.err;
}

TEST_F(CliValidateStream, JsonPrintsOneVerdictPerLineThenTheSummary) {
  write("docs.jsonl", "{\"amount\": 5}\n\n{\"amount\": \"5\", \"note\": 3}\nnot json\n");
  const auto r = run({"validate", file("amount.json"), file("docs.jsonl"), "--json"});
  EXPECT_EQ(r.code, 1);
  std::istringstream lines(r.out);
  std::vector<json> out;
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  ASSERT_EQ(out.size(), 4u) << r.out;
  EXPECT_EQ(out[0], json::parse(R"({"line": 1, "valid": true, "issues": []})"));
  EXPECT_EQ(out[1]["line"], 3);
  EXPECT_EQ(out[1]["valid"], false);
  EXPECT_EQ(out[1]["issues"], json::parse(R"([{"code": "invalid_type", "path": ["amount"],
                             "message": "Invalid input: expected number, received string"},
                            {"code": "invalid_type", "path": ["note"],
                             "message": "Invalid input: expected string, received number"}])"));
  EXPECT_EQ(out[2]["line"], 4);
  EXPECT_EQ(out[2]["issues"][0]["code"], "invalid_json");
  EXPECT_EQ(out[3]["summary"]["documents"], 3);
  EXPECT_EQ(out[3]["summary"]["invalid"], 2);
  EXPECT_EQ(out[3]["summary"]["stopped_early"], false);
}

TEST_F(CliValidateStream, SummaryCountsIssuesByCodeAndPathWithIndicesFolded) {
  write("list.json", R"({"type": "array", "items": {"type": "object",
      "properties": {"qty": {"type": "integer"}}, "required": ["qty"]}})");
  write("docs.jsonl", "[{\"qty\": 1}, {\"qty\": \"a\"}]\n[{\"qty\": \"b\"}]\n[{}]\n");
  const auto r = run({"validate", file("list.json"), file("docs.jsonl"), "--summary"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out,
            "issues by code and path:\n"
            "  3 invalid_type at [].qty\n"
            "3 documents: 0 valid, 3 invalid\n");
}

TEST_F(CliValidateStream, LinesReadsAnyFileAsOneDocumentALine) {
  write("docs.txt", "{\"amount\": 5}\n{\"amount\": 0}\n");
  const auto whole = run({"validate", file("amount.json"), file("docs.txt")});
  EXPECT_NE(whole.out.find("1 document: 0 valid, 1 invalid"), std::string::npos) << whole.out;
  const auto r = run({"validate", file("amount.json"), file("docs.txt"), "--lines"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("line 2: invalid"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 documents: 1 valid, 1 invalid\n"), std::string::npos) << r.out;
}

TEST_F(CliValidateStream, MaxErrorsStopsAfterThatManyInvalidDocuments) {
  write("docs.jsonl", numbered_documents(3000));
  for (const char* jobs : {"1", "2"}) {
    const auto r = run(
        {"validate", file("amount.json"), file("docs.jsonl"), "--max-errors", "2", "--jobs", jobs});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find("line 6: invalid"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("line 9:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stopped after 2 invalid documents (--max-errors)\n"
                         "6 documents: 4 valid, 2 invalid\n"),
              std::string::npos)
        << r.out;
  }
}

// A line longer than one document may be is not kept: an issue for it, and the next line read.
TEST_F(CliValidateStream, OverlongLineIsAnIssueAndTheNextLineIsJudged) {
  {
    std::ofstream out(dir_ / "docs.jsonl", std::ios::binary);
    out << "\"" << std::string(8 * 1024 * 1024, 'x') << "\"\n{\"amount\": 0}\n";
  }
  const auto r = run({"validate", file("amount.json"), file("docs.jsonl")});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("line 1: invalid\n  ✖ the line is 8388610 bytes, more than the limit of "
                       "8388608 for one document\n"),
            std::string::npos)
      << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("line 2: invalid"), std::string::npos);
}

TEST_F(CliValidateStream, JobsJudgeTheLinesAroundAnOverlongLineAsOneThreadDoes) {
  {
    std::ofstream out(dir_ / "docs.jsonl", std::ios::binary);
    out << numbered_documents(300) << "\"" << std::string(8 * 1024 * 1024, 'x') << "\"\n"
        << numbered_documents(300);
  }
  const auto one = run({"validate", file("amount.json"), file("docs.jsonl"), "--jobs", "1"});
  const auto two = run({"validate", file("amount.json"), file("docs.jsonl"), "--jobs", "2"});
  EXPECT_NE(one.out.find("line 301: invalid\n  ✖ the line is 8388610 bytes"), std::string::npos);
  EXPECT_NE(one.out.find("601 documents: 400 valid, 201 invalid\n"), std::string::npos) << one.out;
  EXPECT_EQ(two.out, one.out);
}

// Lines are read into batches of a few hundred KiB: a document or a run of blank lines longer than
// one is judged and numbered as a short one is.
TEST_F(CliValidateStream, ALineLongerThanAReadBatchIsJudgedAsAShortOneIs) {
  const std::string long_note =
      "{\"amount\": 7, \"note\": \"" + std::string(3 << 20, 'n') + "\"}\n";
  write("long.jsonl", numbered_documents(2000) + long_note + numbered_documents(2000));
  write("short.jsonl", numbered_documents(2000) + "{\"amount\": 7}\n" + numbered_documents(2000));
  for (const char* jobs : {"1", "2"}) {
    const auto long_run =
        run({"validate", file("amount.json"), file("long.jsonl"), "--json", "--jobs", jobs});
    const auto short_run =
        run({"validate", file("amount.json"), file("short.jsonl"), "--json", "--jobs", jobs});
    EXPECT_EQ(long_run.out, short_run.out) << "--jobs " << jobs;
  }
}

TEST_F(CliValidateStream, BlankLinesLongerThanAReadBatchKeepTheNextLinesNumbers) {
  const std::string blank_lines(1 << 20, '\n');
  write("blank.jsonl", numbered_documents(2000) + blank_lines + numbered_documents(2000));
  const auto r =
      run({"validate", file("amount.json"), file("blank.jsonl"), "--json", "--jobs", "2"});
  std::istringstream lines(r.out);
  std::string line;
  std::vector<std::size_t> numbers;
  while (std::getline(lines, line)) {
    const auto verdict = json::parse(line);
    if (verdict.contains("line")) numbers.push_back(verdict["line"].get<std::size_t>());
  }
  ASSERT_EQ(numbers.size(), 4000U);
  EXPECT_EQ(numbers[1999], 2000U);
  EXPECT_EQ(numbers[2000], 2001U + blank_lines.size());
  EXPECT_EQ(numbers.back(), 4000U + blank_lines.size());
}

// Spaces before line 1 slide every later byte across the first batch's 256 KiB boundary (a cut
// inside a "\r\n", inside bytes that are not UTF-8, in the last line without a '\n'): each
// slide prints what one thread prints without any.
TEST_F(CliValidateStream, VerdictsDoNotDependOnWhereABatchBoundaryFalls) {
  std::string body;
  while (body.size() < (300U << 10)) {
    body +=
        "{\"amount\": 5}\r\n{\"amount\": -3, \"note\": \"n\"}\n\xff\xfe{\"amount\": "
        "1}\n\r\n[1,2]\n";
  }
  body += "{\"amount\": 9}";
  std::string expected;
  for (std::size_t k = 0; k < 32; ++k) {
    write("docs.jsonl", std::string(k, ' ') + body);
    for (const char* jobs : {"1", "2"}) {
      const auto r =
          run({"validate", file("amount.json"), file("docs.jsonl"), "--json", "--jobs", jobs});
      if (expected.empty()) expected = r.out;
      ASSERT_EQ(r.out, expected) << k << " spaces, --jobs " << jobs;
    }
  }
}

// A line of exactly the limit is a document, judged as any other is.
TEST_F(CliValidateStream, ALineOfExactlyTheLimitIsJudged) {
  constexpr std::size_t kLimit = std::size_t{8} << 20;
  write("docs.jsonl",
        "{\"amount\": 5}\n\"" + std::string(kLimit - 2, 'x') + "\"\n{\"amount\": 5}\n");
  const auto r =
      run({"validate", file("amount.json"), file("docs.jsonl"), "--json", "--jobs", "2"});
  EXPECT_EQ(r.out.find("more than the limit"), std::string::npos);
  std::istringstream lines(r.out);
  std::vector<json> out;
  for (std::string line; std::getline(lines, line);) out.push_back(json::parse(line));
  ASSERT_EQ(out.size(), 4U) << r.out.substr(0, 400);
  EXPECT_EQ(out[1]["line"], 2);
  EXPECT_EQ(out[1]["issues"][0]["code"], "invalid_type");
  EXPECT_EQ(out[2]["valid"], true);
}

}  // namespace
