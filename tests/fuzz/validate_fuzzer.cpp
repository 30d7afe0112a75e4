// JSON text parsed and judged against one example schema (accord_fuzz_setting): the depth and
// size limits, the engine with its ECMA-262 patterns and accord's formats, the refinements, Zod's
// messages.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "accord/validate.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

// "refund" or "transfer", set by each fuzz target (this file is compiled once for both).
extern "C" const char accord_fuzz_setting[];

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  static const Validator validator(std::string_view(accord_fuzz_setting) == "refund"
                                       ? examples::refund_schema()
                                       : examples::transfer_schema());
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ValidationResult result = validator.parse_and_validate(text);
  (void)prettify(result.issues);
  (void)prettify_one_line(result.issues);
  (void)to_json(result.issues).dump();
  for (const auto& issue : result.issues) {
    (void)issue.path.to_string();
    (void)issue.path.to_pointer();
  }
  return 0;
}
