#include "accord/provider_message.hpp"

#include <atomic>
#include <mutex>

#include "accord/json_text.hpp"
#include "core/json_dump.hpp"
#include "core/provider_message_trees.hpp"

namespace accord {

namespace {

std::atomic<std::size_t> message_trees{0};
std::atomic<std::size_t> messages_written{0};

template <class Tree>
std::string text_of_tree(const Tree& value) {
  if (value.is_null()) return {};
  return value.dump(-1, ' ', false, Tree::error_handler_t::replace);
}

char first_of(const std::string& text) {
  return text.empty() ? '\0' : text.front();
}

}  // namespace

struct ProviderMessage::Unwritten {
  Unwritten(std::shared_ptr<const JsonDocument> kept, JsonView at)
      : document(std::move(kept)), value(at) {}
  std::shared_ptr<const JsonDocument> document;  // let go once the text is written
  JsonView value;
  std::once_flag written;
  std::string text;
};

ProviderMessage::ProviderMessage(JsonView value) {
  messages_written.fetch_add(1, std::memory_order_relaxed);
  detail::dump_value(value, detail::MemberOrder::text, text_);
  first_ = first_of(text_);
}

ProviderMessage::ProviderMessage(std::shared_ptr<const JsonDocument> document, JsonView value) {
  if (document == nullptr || (!value.is_object() && !value.is_array())) {
    // A scalar (no message a provider sends), or nothing to keep: written at once.
    *this = ProviderMessage(value);
    return;
  }
  first_ = value.is_object() ? '{' : '[';
  unwritten_ = std::make_shared<Unwritten>(std::move(document), value);
}

ProviderMessage::ProviderMessage(const nlohmann::ordered_json& value)
    : text_(text_of_tree(value)), first_(first_of(text_)) {}

ProviderMessage::ProviderMessage(const nlohmann::json& value)
    : text_(text_of_tree(value)), first_(first_of(text_)) {}

const std::string& ProviderMessage::text() const {
  if (!unwritten_) return text_;
  Unwritten& unwritten = *unwritten_;
  std::call_once(unwritten.written, [&unwritten] {
    // Written aside first: a throw leaves no partial text for the next reader's try.
    std::string text;
    detail::dump_value(unwritten.value, detail::MemberOrder::text, text);
    unwritten.text = std::move(text);
    unwritten.document.reset();
    messages_written.fetch_add(1, std::memory_order_relaxed);
  });
  return unwritten.text;
}

nlohmann::ordered_json ProviderMessage::tree() const {
  if (empty()) return nullptr;
  message_trees.fetch_add(1, std::memory_order_relaxed);
  return parse_ordered_json(text());
}

namespace detail {

std::size_t provider_message_trees_built() {
  return message_trees.load(std::memory_order_relaxed);
}

std::size_t provider_message_texts_written() {
  return messages_written.load(std::memory_order_relaxed);
}

}  // namespace detail

}  // namespace accord
