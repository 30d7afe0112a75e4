#pragma once
// C++ types the typed-layer tests share: one of each kind the layer supports.
#include <accord/typed_types.hpp>
#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace typed_fixtures {

enum class Currency { EUR, USD };
BOOST_DESCRIBE_ENUM(Currency, EUR, USD)

struct Address {
  std::string city;
  std::string country;
  friend bool operator==(const Address&, const Address&) = default;
};
BOOST_DESCRIBE_STRUCT(Address, (), (city, country))

struct Card {
  accord::Tag<"card"> kind;
  std::string last4;
  friend bool operator==(const Card&, const Card&) = default;
};
BOOST_DESCRIBE_STRUCT(Card, (), (kind, last4))

struct Bank {
  accord::Tag<"bank"> kind;
  std::string iban;
  friend bool operator==(const Bank&, const Bank&) = default;
};
BOOST_DESCRIBE_STRUCT(Bank, (), (kind, iban))

// Every supported kind of member, once.
struct Everything {
  bool flag = false;
  std::int32_t count = 0;
  std::uint8_t small = 0;
  double ratio = 0;
  float weight = 0;
  std::string name;
  std::optional<std::string> nickname;
  std::vector<std::string> tags;
  std::array<int, 2> point{};
  std::map<std::string, double> scores;
  std::variant<std::monostate, std::string, double> label;
  std::variant<Card, Bank> payment;
  Currency currency = Currency::EUR;
  Address address;
  std::vector<std::optional<int>> gaps;
  friend bool operator==(const Everything&, const Everything&) = default;
};
BOOST_DESCRIBE_STRUCT(Everything, (),
                      (flag, count, small, ratio, weight, name, nickname, tags, point, scores,
                       label, payment, currency, address, gaps))

struct Refund {
  std::string orderId;
  double amount = 0;
  Currency currency = Currency::EUR;
  std::string orderDate;
  std::string refundDate;
  std::optional<std::string> note;
  friend bool operator==(const Refund&, const Refund&) = default;
};
BOOST_DESCRIBE_STRUCT(Refund, (), (orderId, amount, currency, orderDate, refundDate, note))

// A valid Refund as a reply carries it (no note).
inline const nlohmann::json kRefundJson = {{"orderId", "ORD-482913"},
                                           {"amount", 42.5},
                                           {"currency", "EUR"},
                                           {"orderDate", "2026-11-02"},
                                           {"refundDate", "2026-11-20"}};

// Recursive types: a tree, a thread whose replies may be absent, a forest that holds trees, and
// two structs that contain each other.
struct TreeNode {
  std::string label;
  std::vector<TreeNode> children;
  friend bool operator==(const TreeNode&, const TreeNode&) = default;
};
BOOST_DESCRIBE_STRUCT(TreeNode, (), (label, children))

struct Comment {
  std::string text;
  std::optional<std::vector<Comment>> replies;
  friend bool operator==(const Comment&, const Comment&) = default;
};
BOOST_DESCRIBE_STRUCT(Comment, (), (text, replies))

struct Forest {
  std::vector<TreeNode> trees;
  TreeNode tallest;
};
BOOST_DESCRIBE_STRUCT(Forest, (), (trees, tallest))

struct Part;
struct Section {
  std::string title;
  std::vector<Part> parts;
};
struct Part {
  std::string text;
  std::map<std::string, Section> subsections;
};
BOOST_DESCRIBE_STRUCT(Section, (), (title, parts))
BOOST_DESCRIBE_STRUCT(Part, (), (text, subsections))

}  // namespace typed_fixtures
