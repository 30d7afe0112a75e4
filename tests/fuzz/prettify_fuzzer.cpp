// The prettifier and path rendering over arbitrary issues: any message, any keys (odd
// characters, empty, not UTF-8), any indexes, any order and depth.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "accord/issue.hpp"
#include "accord/issue_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  FuzzedDataProvider input(data, size);
  Issues issues;
  while (input.remaining_bytes() > 0 && issues.size() < 64) {
    const auto code = static_cast<IssueCode>(
        input.ConsumeIntegralInRange<int>(0, static_cast<int>(IssueCode::invalid_json)));
    std::vector<PathSegment> segments;
    const int depth = input.ConsumeIntegralInRange<int>(0, 12);
    for (int i = 0; i < depth; ++i) {
      if (input.ConsumeBool()) {
        segments.emplace_back(input.ConsumeIntegral<std::size_t>());
      } else {
        segments.emplace_back(input.ConsumeRandomLengthString(32));
      }
    }
    issues.push_back(Issue{code, Path(std::move(segments)), input.ConsumeRandomLengthString(256)});
  }
  (void)prettify(issues);
  (void)prettify_one_line(issues);
  // Messages here may be any bytes; a caller dumping them picks how to treat bad UTF-8.
  // append_json writes the same text without the tree.
  const std::string dump =
      to_json(issues).dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string text;
  append_json(issues, text);
  if (text != dump) std::abort();
  for (const auto& issue : issues) {
    (void)issue.path.to_string();
    (void)issue.path.to_pointer();
    (void)to_string(issue.code);
  }
  return 0;
}
