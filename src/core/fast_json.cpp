#include "core/fast_json.hpp"

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/json_scanner.hpp"

namespace accord::detail {
namespace {

template <class Json>
class Reader : JsonScanner {
 public:
  Reader(std::string_view text, std::size_t max_depth) : JsonScanner(text), max_depth_(max_depth) {}

  bool document(Json& out) {
    skip_space();
    if (p_ == end_ || !value(out, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  bool value(Json& out, std::size_t depth) {
    switch (*p_) {
      case '{':
        return object(out, depth + 1);
      case '[':
        return array(out, depth + 1);
      case '"':
        out = typename Json::string_t();
        return string(out.template get_ref<typename Json::string_t&>());
      case 't':
        out = true;
        return literal("true");
      case 'f':
        out = false;
        return literal("false");
      case 'n':
        out = nullptr;
        return literal("null");
      default:
        return number(out);
    }
  }

  bool object(Json& out, std::size_t depth) {
    if (depth > max_depth_ || depth > kMaxQuickRecursion) return false;
    ++p_;
    out = Json::object();
    auto& members = out.template get_ref<typename Json::object_t&>();
    skip_space();
    if (p_ != end_ && *p_ == '}') {
      ++p_;
      return true;
    }
    const std::size_t first_pending = pending_.size();
    while (true) {
      if (p_ == end_ || *p_ != '"') return false;
      std::string key;
      if (!string(key)) return false;
      skip_space();
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      skip_space();
      if (p_ == end_) return false;
      // nlohmann keeps the last of duplicate keys; rare enough to leave to it.
      if (!insert(members, std::move(key), depth, first_pending)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == '}') {
        ++p_;
        if constexpr (kOrdered) settle(members, first_pending);
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_space();
    }
  }

  static constexpr bool kOrdered = !std::is_same_v<Json, nlohmann::json>;
  // An ordered object finds a key by scanning its members; past this many, nlohmann's parser
  // (through parse_ordered_json, linear in the keys) reads the text instead.
  static constexpr std::size_t kMaxOrderedMembers = 64;

  // An ordered object's members wait in pending_ (from first_pending on) until its closing brace:
  // its own vector holds pair<const string, Json>, which it copies, subtrees and all, each time
  // it grows, as a const key cannot be moved.
  bool insert(typename Json::object_t& members, std::string key, std::size_t depth,
              std::size_t first_pending) {
    if constexpr (kOrdered) {
      if (pending_.size() - first_pending >= kMaxOrderedMembers) return false;
      for (auto i = first_pending; i < pending_.size(); ++i) {
        if (pending_[i].first == key) return false;
      }
      Json member;
      if (!value(member, depth)) return false;
      pending_.emplace_back(std::move(key), std::move(member));
      return true;
    } else {
      auto [slot, inserted] = members.try_emplace(std::move(key));
      return inserted && value(slot->second, depth);
    }
  }

  void settle(typename Json::object_t& members, std::size_t first_pending) {
    const auto first = pending_.begin() + static_cast<std::ptrdiff_t>(first_pending);
    members.reserve(static_cast<std::size_t>(pending_.end() - first));
    for (auto it = first; it != pending_.end(); ++it) {
      members.emplace_back(std::move(it->first), std::move(it->second));
    }
    pending_.erase(first, pending_.end());
  }

  bool array(Json& out, std::size_t depth) {
    if (depth > max_depth_ || depth > kMaxQuickRecursion) return false;
    ++p_;
    out = Json::array();
    auto& items = out.template get_ref<typename Json::array_t&>();
    skip_space();
    if (p_ != end_ && *p_ == ']') {
      ++p_;
      return true;
    }
    while (true) {
      if (p_ == end_) return false;
      items.emplace_back();
      if (!value(items.back(), depth)) return false;
      skip_space();
      if (p_ == end_) return false;
      if (*p_ == ']') {
        ++p_;
        return true;
      }
      if (*p_ != ',') return false;
      ++p_;
      skip_space();
    }
  }

  bool number(Json& out) {
    ScannedNumber number;
    if (!JsonScanner::number(number)) return false;
    if (number.kind == ScannedNumber::floating) {
      out = number.real;
    } else if (number.kind == ScannedNumber::integer) {
      out = static_cast<std::int64_t>(number.bits);
    } else {
      out = number.bits;
    }
    return true;
  }

  std::size_t max_depth_;
  std::vector<std::pair<std::string, Json>> pending_;  // ordered objects' members, see insert()
};

}  // namespace

std::optional<nlohmann::json> fast_parse_json(std::string_view text, std::size_t max_depth) {
  nlohmann::json out;
  if (!Reader<nlohmann::json>(text, max_depth).document(out)) return std::nullopt;
  return out;
}

std::optional<nlohmann::ordered_json> fast_parse_ordered_json(std::string_view text,
                                                              std::size_t max_depth) {
  nlohmann::ordered_json out;
  if (!Reader<nlohmann::ordered_json>(text, max_depth).document(out)) return std::nullopt;
  return out;
}

}  // namespace accord::detail
