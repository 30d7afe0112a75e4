// A ProviderMessage's own state: a moved-from message is empty whichever form it had (its first
// byte goes with its text), and one given no document to keep does not read it later.

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

#include "accord/json_view.hpp"
#include "accord/provider_message.hpp"

namespace accord {
namespace {

constexpr const char* kMessage = R"({"role":"assistant","content":"x"})";

ProviderMessage kept_message() {
  auto parsed = parse_document(kMessage);
  auto document = std::make_shared<const JsonDocument>(std::move(*parsed.document));
  const JsonView root = document->root();
  return ProviderMessage(document, root);
}

// Moves `source` (its text not read yet) away by construction, then by assignment.
void expect_moved_from_is_empty(ProviderMessage source) {
  ProviderMessage moved(std::move(source));
  // NOLINTBEGIN(bugprone-use-after-move): the state after a move is what this pins
  EXPECT_TRUE(source.empty());
  EXPECT_FALSE(source.is_object());
  EXPECT_EQ(source.text(), "");
  ProviderMessage assigned;
  assigned = std::move(moved);
  EXPECT_TRUE(moved.empty());
  EXPECT_EQ(moved.text(), "");
  // NOLINTEND(bugprone-use-after-move)
  EXPECT_EQ(assigned.text(), kMessage);
}

TEST(ProviderMessageMove, AMovedFromMessageWrittenAtOnceIsEmpty) {
  expect_moved_from_is_empty(ProviderMessage(nlohmann::ordered_json::parse(kMessage)));
}

TEST(ProviderMessageMove, AMovedFromMessageKeptWithItsDocumentIsEmpty) {
  expect_moved_from_is_empty(kept_message());
}

// Given no document to keep, the message is written at once: under ASan, reading a view of the
// document after it died would be reported.
TEST(ProviderMessageMove, AMessageGivenNoDocumentDoesNotReadItAfterItDied) {
  std::optional<ProviderMessage> message;
  {
    auto parsed = parse_document(kMessage);
    const JsonDocument document = std::move(*parsed.document);
    message.emplace(nullptr, document.root());
  }
  EXPECT_EQ(message->text(), kMessage);
}

}  // namespace
}  // namespace accord
