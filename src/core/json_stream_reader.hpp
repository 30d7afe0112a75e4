#pragma once
// JSON text read as it arrives (a streamed reply's output, a few bytes at a time): the value is
// built up as its parts close, and each part that closes (a scalar, then every container around
// it as its bracket arrives) is reported with its path at once. A split anywhere in the text
// gives the same reports and the same value as the whole text at once.

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "accord/path.hpp"

namespace accord::detail {

class JsonStreamReader {
 public:
  // Called for each value that closes, in text order: its path and the value. Returning false
  // stops the reader (the rest of the text is then ignored).
  using OnClose = std::function<bool(const Path& path, const nlohmann::json& value)>;
  // Applied to the text of each scalar and key before it is read (the client's redaction).
  using TokenFilter = std::function<std::string(std::string)>;

  explicit JsonStreamReader(OnClose on_close, TokenFilter filter = {}, std::size_t max_depth = 256);

  enum class State { reading, complete, stopped, failed };

  // Reads the next piece of text. Does nothing once the reader is stopped or failed.
  void feed(std::string_view text);
  // The text has ended: a number at the top level closes here.
  void finish();

  [[nodiscard]] State state() const { return state_; }
  // The value so far: every closed part, inside the containers still open.
  [[nodiscard]] const nlohmann::json& value() const { return root_; }
  // Why the text is not JSON (state() == failed).
  [[nodiscard]] const std::string& problem() const { return problem_; }

 private:
  enum class Expect { value, first_key_or_end, key, colon, value_or_end, comma_or_end, nothing };
  enum class Token { none, string, number, literal };
  struct Frame {
    nlohmann::json* container;
    std::string key;  // objects: the key whose value comes next
    Expect expect;
  };

  void step(char c);
  void start_value(char c);
  void end_token();
  void place(nlohmann::json value);
  void closed(const nlohmann::json& value);
  void close_container();
  void fail(std::string why);

  OnClose on_close_;
  TokenFilter filter_;
  std::size_t max_depth_;
  State state_ = State::reading;
  Expect expect_ = Expect::value;  // at the top level (inside a container: its frame's)
  std::vector<Frame> frames_;
  std::vector<PathSegment> path_;
  nlohmann::json root_;
  Token token_ = Token::none;
  std::string text_;      // the token being read, as written
  bool escaped_ = false;  // in a string, the last character was an escaping backslash
  bool token_is_key_ = false;
  std::string problem_;
};

}  // namespace accord::detail
