#include "core/json_stream_reader.hpp"

#include "accord/json_text.hpp"

namespace accord::detail {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool in_number(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

JsonStreamReader::JsonStreamReader(OnClose on_close, TokenFilter filter, std::size_t max_depth)
    : on_close_(std::move(on_close)), filter_(std::move(filter)), max_depth_(max_depth) {}

void JsonStreamReader::feed(std::string_view text) {
  for (const char c : text) {
    if (state_ == State::stopped || state_ == State::failed) return;
    step(c);
  }
}

void JsonStreamReader::finish() {
  if (token_ == Token::number || token_ == Token::literal) end_token();
}

void JsonStreamReader::fail(std::string why) {
  state_ = State::failed;
  problem_ = std::move(why);
}

void JsonStreamReader::step(char c) {
  switch (token_) {
    case Token::string:
      text_ += c;
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        end_token();
      }
      return;
    case Token::number:
      if (in_number(c)) {
        text_ += c;
        return;
      }
      end_token();  // the character after a number is read on its own below
      break;
    case Token::literal:
      if (c >= 'a' && c <= 'z') {
        text_ += c;
        return;
      }
      end_token();
      break;
    case Token::none:
      break;
  }
  if (state_ != State::reading && state_ != State::complete) return;
  if (is_space(c)) return;
  if (state_ == State::complete) return fail("text after the value");
  Expect& expect = frames_.empty() ? expect_ : frames_.back().expect;
  const bool object = !frames_.empty() && frames_.back().container->is_object();
  switch (expect) {
    case Expect::value:
      return start_value(c);
    case Expect::value_or_end:
      return c == ']' ? close_container() : start_value(c);
    case Expect::first_key_or_end:
      if (c == '}') return close_container();
      [[fallthrough]];
    case Expect::key:
      if (c != '"') return fail("expected a key in quotes");
      token_ = Token::string;
      token_is_key_ = true;
      text_.assign(1, '"');  // not `= "\""`: g++ 12 reports a false -Wrestrict on that
      return;
    case Expect::colon:
      if (c != ':') return fail("expected ':' after a key");
      expect = Expect::value;
      return;
    case Expect::comma_or_end:
      if (c == ',') {
        expect = object ? Expect::key : Expect::value;
      } else if (c == (object ? '}' : ']')) {
        close_container();
      } else {
        fail(object ? "expected ',' or '}'" : "expected ',' or ']'");
      }
      return;
    case Expect::nothing:
      return fail("text after the value");
  }
}

void JsonStreamReader::start_value(char c) {
  if (!frames_.empty()) {
    Frame& parent = frames_.back();
    if (parent.container->is_object()) {
      path_.emplace_back(parent.key);
    } else {
      path_.emplace_back(parent.container->size());
    }
    parent.expect = Expect::comma_or_end;
  } else {
    expect_ = Expect::nothing;
  }
  if (c == '{' || c == '[') {
    if (frames_.size() >= max_depth_) return fail("nested deeper than the limit");
    nlohmann::json empty = c == '{' ? nlohmann::json::object() : nlohmann::json::array();
    nlohmann::json* at = nullptr;
    if (frames_.empty()) {
      root_ = std::move(empty);
      at = &root_;
    } else if (Frame& parent = frames_.back(); parent.container->is_object()) {
      at = &((*parent.container)[parent.key] = std::move(empty));
    } else {
      parent.container->push_back(std::move(empty));
      at = &parent.container->back();
    }
    // Elements are added only to the innermost open container, so `at` stays valid while open.
    frames_.push_back(Frame{at, {}, c == '{' ? Expect::first_key_or_end : Expect::value_or_end});
    return;
  }
  token_is_key_ = false;
  text_.assign(1, c);
  if (c == '"') {
    token_ = Token::string;
  } else if (c == '-' || (c >= '0' && c <= '9')) {
    token_ = Token::number;
  } else if (c >= 'a' && c <= 'z') {
    token_ = Token::literal;
  } else {
    fail(std::string("unexpected character '") + c + "'");
  }
}

void JsonStreamReader::end_token() {
  token_ = Token::none;
  escaped_ = false;
  std::string text = filter_ ? filter_(std::move(text_)) : std::move(text_);
  text_.clear();
  // The whole token is read by the same parser as a whole reply, so a scalar means the same
  // here as in the final value.
  auto parsed = parse_json(text);
  if (!parsed.value) {
    return fail(parsed.issues.empty() ? "not JSON" : parsed.issues.front().message);
  }
  if (token_is_key_) {
    frames_.back().key = parsed.value->get<std::string>();
    frames_.back().expect = Expect::colon;
    return;
  }
  nlohmann::json* at = nullptr;
  if (frames_.empty()) {
    root_ = *std::move(parsed.value);
    at = &root_;
  } else if (Frame& parent = frames_.back(); parent.container->is_object()) {
    at = &((*parent.container)[parent.key] = *std::move(parsed.value));
  } else {
    parent.container->push_back(*std::move(parsed.value));
    at = &parent.container->back();
  }
  closed(*at);
}

void JsonStreamReader::close_container() {
  nlohmann::json* container = frames_.back().container;
  frames_.pop_back();
  closed(*container);
}

void JsonStreamReader::closed(const nlohmann::json& value) {
  if (on_close_ && !on_close_(Path(path_), value)) state_ = State::stopped;
  if (!path_.empty()) path_.pop_back();
  if (frames_.empty() && state_ == State::reading) state_ = State::complete;
}

}  // namespace accord::detail
