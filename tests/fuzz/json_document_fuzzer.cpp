// Bytes read as a tape (parse_document) and as nlohmann's tree (parse_json, and
// nlohmann::json::parse for the value itself): the same verdict and error message, and when the
// text parsed, the view's tree, dump and equality are nlohmann's.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "accord/json_text.hpp"
#include "accord/json_view.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace accord;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const ParsedDocument parsed = parse_document(text);
  const ParsedJson tree = parse_json(text);
  if (parsed.document.has_value() != tree.value.has_value()) std::abort();
  if (!tree.value) {
    if (parsed.issues.size() != 1 || tree.issues.size() != 1 ||
        parsed.issues[0].message != tree.issues[0].message) {
      std::abort();
    }
    return 0;
  }
  const nlohmann::json reference = nlohmann::json::parse(text);
  const JsonView root = parsed.document->root();
  // CBOR tells the number kinds apart, which == does not (1 == 1.0).
  if (nlohmann::json::to_cbor(root.to_json()) != nlohmann::json::to_cbor(reference)) std::abort();
  if (root.dump() != reference.dump()) std::abort();
  if (!(root == reference) || !(root == root)) std::abort();
  const JsonDocument copy = JsonDocument::from_json(reference);
  if (!(copy.root() == root) || copy.root().dump() != root.dump()) std::abort();
  return 0;
}
