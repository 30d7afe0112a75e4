#include "accord/provider_message.hpp"

#include <atomic>

#include "accord/json_text.hpp"
#include "core/json_dump.hpp"
#include "core/provider_message_trees.hpp"

namespace accord {

namespace {

std::atomic<std::size_t> message_trees{0};

template <class Tree>
std::string text_of_tree(const Tree& value) {
  if (value.is_null()) return {};
  return value.dump(-1, ' ', false, Tree::error_handler_t::replace);
}

}  // namespace

ProviderMessage::ProviderMessage(JsonView value) {
  detail::dump_value(value, detail::MemberOrder::text, text_);
}

ProviderMessage::ProviderMessage(const nlohmann::ordered_json& value)
    : text_(text_of_tree(value)) {}

ProviderMessage::ProviderMessage(const nlohmann::json& value) : text_(text_of_tree(value)) {}

nlohmann::ordered_json ProviderMessage::tree() const {
  if (text_.empty()) return nullptr;
  message_trees.fetch_add(1, std::memory_order_relaxed);
  return parse_ordered_json(text_);
}

namespace detail {

std::size_t provider_message_trees_built() {
  return message_trees.load(std::memory_order_relaxed);
}

}  // namespace detail

}  // namespace accord
