#pragma once
// A reply's value as the extraction loop judged it: the parsed document itself when the reply
// needed no tree (it parsed as sent, unlowering had nothing to undo, no scalar was repaired), else
// the tree that a text repair, a scalar repair, a scoped correction's merge or unlowering made.
// Typed callers (Client::extract<T>) read their struct from it in place; Client::extract() builds
// the tree its Result holds.

#include <nlohmann/json.hpp>
#include <utility>
#include <variant>

#include "accord/json_view.hpp"

namespace accord {

class JudgedValue {
 public:
  explicit JudgedValue(JsonDocument document) : value_(std::move(document)) {}
  explicit JudgedValue(nlohmann::json tree) : value_(std::move(tree)) {}

  // The parsed document, or nullptr when the value is a tree.
  [[nodiscard]] const JsonDocument* document() const { return std::get_if<JsonDocument>(&value_); }
  // The tree, or nullptr when the value is the parsed document.
  [[nodiscard]] const nlohmann::json* tree() const { return std::get_if<nlohmann::json>(&value_); }
  // The value as a tree: the tree itself, or one built from the document.
  [[nodiscard]] nlohmann::json to_json() && {
    if (auto* tree = std::get_if<nlohmann::json>(&value_)) return std::move(*tree);
    return std::get<JsonDocument>(value_).root().to_json();
  }
  [[nodiscard]] nlohmann::json to_json() const& {
    if (const auto* tree = this->tree()) return *tree;
    return std::get<JsonDocument>(value_).root().to_json();
  }

 private:
  std::variant<JsonDocument, nlohmann::json> value_;
};

}  // namespace accord
