#include "accord/json_text.hpp"

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/fast_json.hpp"
#include "core/json_depth.hpp"
#include "core/ordered_object.hpp"

namespace accord {
namespace {

ParsedJson failure(std::string what) {
  ParsedJson out;
  out.issues.push_back(Issue{IssueCode::invalid_json, Path{}, "Invalid JSON: " + std::move(what)});
  return out;
}

// nlohmann's text reads "... parse error at line 1, column 4: syntax error while parsing value -
// <reason>; last read: '<token>'; expected <what>". Keep the reason and the expectation, drop
// the "last read" echo, which repeats untrusted bytes (they may even spell "; expected" or be
// invalid UTF-8, so the expectation is taken only when it is one of nlohmann's token names).
std::string reason_of(const std::string& what, std::size_t offset) {
  static constexpr std::string_view kTokenNames[] = {"true literal",
                                                     "false literal",
                                                     "null literal",
                                                     "string literal",
                                                     "number literal",
                                                     "'['",
                                                     "'{'",
                                                     "']'",
                                                     "'}'",
                                                     "':'",
                                                     "','",
                                                     "<parse error>",
                                                     "end of input",
                                                     "'[', '{', or a literal",
                                                     "unknown token"};
  std::string reason = what;
  if (auto dash = reason.find(" - "); dash != std::string::npos) reason = reason.substr(dash + 3);
  std::string expected;
  if (auto at = reason.rfind("; expected "); at != std::string::npos) {
    const std::string_view name = std::string_view(reason).substr(at + 11);
    for (auto known : kTokenNames) {
      if (name == known) {
        expected = "expected " + std::string(name);
        reason.erase(at);
        break;
      }
    }
  }
  if (auto last = reason.find("; last read:"); last != std::string::npos) reason.erase(last);
  std::string out = reason + " at byte " + std::to_string(offset);
  if (!expected.empty()) out += " (" + expected + ")";
  return out;
}

// Where a number token that overflowed sits, for the message (nlohmann does not say).
std::size_t number_offset(std::string_view text, const std::string& token) {
  const auto at = detail::first_outside_strings(
      text, [&](std::size_t i) { return text.substr(i, token.size()) == token; });
  return at == std::string_view::npos ? 0 : at;
}

using ojson = nlohmann::ordered_json;

// Builds an ordered_json the way nlohmann's DOM parser does, except that each open object is an
// ObjectWriter: a new key is appended without the linear search ordered_map does. A finished
// container moves into its parent.
class OrderedBuilder final : public nlohmann::json_sax<ojson> {
 public:
  ojson root;
  bool throw_errors = true;

  bool null() override { return put(nullptr); }
  bool boolean(bool value) override { return put(value); }
  bool number_integer(number_integer_t value) override { return put(value); }
  bool number_unsigned(number_unsigned_t value) override { return put(value); }
  bool number_float(number_float_t value, const string_t&) override { return put(value); }
  bool string(string_t& value) override { return put(std::move(value)); }
  bool binary(binary_t& value) override { return put(ojson::binary(std::move(value))); }
  bool start_object(std::size_t) override { return open(true); }
  bool start_array(std::size_t) override { return open(false); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool key(string_t& value) override {
    open_.back().key = std::move(value);
    return true;
  }
  // Rethrown as nlohmann's DOM parser does, so callers catch the usual parse_error.
  bool parse_error(std::size_t, const std::string&,
                   const nlohmann::detail::exception& error) override {
    if (!throw_errors) return false;
    if (error.id / 100 == 4) throw *static_cast<const nlohmann::json::out_of_range*>(&error);
    throw *static_cast<const nlohmann::json::parse_error*>(&error);
  }

 private:
  struct Open {
    bool object;
    detail::ObjectWriter members;  // objects
    ojson items = ojson::array();  // arrays
    std::string key;               // objects: the key of the value coming next
  };

  bool put(ojson value) {
    if (open_.empty()) {
      root = std::move(value);
    } else if (Open& top = open_.back(); top.object) {
      top.members.set(top.key, std::move(value));
    } else {
      top.items.push_back(std::move(value));
    }
    return true;
  }
  bool open(bool object) {
    open_.push_back(Open{object, detail::ObjectWriter(), ojson::array(), {}});
    return true;
  }
  bool close() {
    Open done = std::move(open_.back());
    open_.pop_back();
    return put(done.object ? std::move(done.members).done() : std::move(done.items));
  }

  std::vector<Open> open_;
};

// A parser callback that sets `repeated` to the first key an object repeats.
nlohmann::json::parser_callback_t repeated_key_finder(std::string& repeated) {
  auto open = std::make_shared<std::vector<std::unordered_set<std::string>>>();
  return [open, &repeated](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using Event = nlohmann::json::parse_event_t;
    if (event == Event::object_start) {
      open->emplace_back();
    } else if (event == Event::object_end) {
      open->pop_back();
    } else if (event == Event::key && !open->back().insert(parsed.get<std::string>()).second &&
               repeated.empty()) {
      repeated = parsed.get<std::string>();
    }
    return true;
  };
}

}  // namespace

ParsedJson parse_json(std::string_view text, ParseLimits limits) {
  if (text.size() > limits.max_bytes) {
    return failure("text is " + std::to_string(text.size()) + " bytes, more than the limit of " +
                   std::to_string(limits.max_bytes));
  }
  // The common case first; anything the quick reader is unsure of goes to nlohmann, which also
  // words every error.
  if (auto quick = detail::fast_parse_json(text, limits.max_depth)) {
    ParsedJson out;
    out.value = std::move(quick);
    return out;
  }
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) return failure("empty input");
  if (auto at = detail::first_too_deep(text, limits.max_depth); at != std::string_view::npos) {
    return failure("nested deeper than " + std::to_string(limits.max_depth) + " levels at byte " +
                   std::to_string(at));
  }
  try {
    ParsedJson out;
    if (!limits.refuse_repeated_keys) {
      out.value = nlohmann::json::parse(text.begin(), text.end());
      return out;
    }
    // Only here: the quick reader above gives up on a repeated key.
    std::string repeated;
    out.value = nlohmann::json::parse(text.begin(), text.end(), repeated_key_finder(repeated));
    if (!repeated.empty()) {
      return failure("the key " + nlohmann::json(repeated).dump() +
                     " is repeated in one object (readers differ on which value counts)");
    }
    return out;
  } catch (const nlohmann::json::parse_error& e) {
    return failure(reason_of(e.what(), e.byte > 0 ? e.byte - 1 : 0));
  } catch (const nlohmann::json::out_of_range& e) {
    // out_of_range.406: "number overflow parsing '1e400'"
    std::string what = e.what();
    auto open = what.find('\'');
    auto close = what.rfind('\'');
    if (open != std::string::npos && close > open) {
      std::string token = what.substr(open + 1, close - open - 1);
      const std::size_t at = number_offset(text, token);
      if (token.size() > 32) token = token.substr(0, 29) + "...";
      return failure("number " + token + " is out of range at byte " + std::to_string(at));
    }
    return failure("number out of range");
  } catch (const std::exception& e) {
    return failure(e.what());
  }
}

ojson parse_ordered_json(std::string_view text, bool allow_exceptions) {
  OrderedBuilder builder;
  builder.throw_errors = allow_exceptions;
  if (!ojson::sax_parse(text, &builder)) return ojson(ojson::value_t::discarded);
  return std::move(builder.root);
}

}  // namespace accord
