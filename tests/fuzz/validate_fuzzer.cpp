// JSON text parsed and judged against one example schema (ACCORD_FUZZ_SCHEMA): the depth and
// size limits, the engine with its ECMA-262 patterns and accord's formats, the refinements, Zod's
// messages.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "accord/validate.hpp"
#include "schemas/refund.hpp"
#include "schemas/transfer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  static const Validator validator(examples::ACCORD_FUZZ_SCHEMA());
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
