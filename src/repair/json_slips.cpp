#include "repair/json_slips.hpp"

#include "core/ascii.hpp"

namespace accord::repair {
namespace {

// Nesting past this is refused rather than read: the strict parser's own default limit.
constexpr std::size_t kMaxDepth = 256;
constexpr std::size_t kMaxRecorded = 120;

bool identifier_start(char c) {
  return detail::ascii_alpha(c) || c == '_' || c == '$';
}
bool identifier_char(char c) {
  return identifier_start(c) || detail::ascii_digit(c);
}

class SlipReader {
 public:
  explicit SlipReader(std::string_view text, std::size_t at) : text_(text), at_(at) {}

  std::optional<SlipRead> read() {
    if (!skip_blank() || !value(0)) return std::nullopt;
    return SlipRead{std::move(out_), at_, std::move(slips_)};
  }

 private:
  bool at_end() const { return at_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[at_]; }

  void slip(RepairKind kind, std::string_view before, std::string after) {
    slips_.push_back({kind, path_, shortened(before), std::move(after)});
  }

  // Whitespace and comments; false for a comment left open.
  bool skip_blank() {
    while (!at_end()) {
      const char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++at_;
      } else if (text_.substr(at_).starts_with("//")) {
        const auto end = std::min(text_.find('\n', at_), text_.size());
        slip(RepairKind::comment, text_.substr(at_, end - at_), "");
        at_ = end;
      } else if (text_.substr(at_).starts_with("/*")) {
        const auto close = text_.find("*/", at_ + 2);
        if (close == std::string_view::npos) return false;
        slip(RepairKind::comment, text_.substr(at_, close + 2 - at_), "");
        at_ = close + 2;
      } else {
        break;
      }
    }
    return true;
  }

  bool value(std::size_t depth) {
    if (depth > kMaxDepth) return false;
    const char c = peek();
    if (c == '{') return object(depth + 1);
    if (c == '[') return array(depth + 1);
    if (c == '"') return double_quoted();
    if (c == '\'') return single_quoted();
    if (c == '-' || detail::ascii_digit(c)) return number();
    for (const std::string_view literal : {"true", "false", "null"}) {
      if (text_.substr(at_).starts_with(literal) &&
          !identifier_char(at_ + literal.size() < text_.size() ? text_[at_ + literal.size()]
                                                               : ' ')) {
        out_ += literal;
        at_ += literal.size();
        return true;
      }
    }
    return false;  // NaN, Infinity, undefined, True, a bare word: no JSON reading
  }

  // The token as written; the strict parser that reads the output judges its grammar, so a JSON5
  // number JSON lacks (hex, `+1`, `.5`) fails there instead of being guessed at here.
  bool number() {
    const auto start = at_;
    while (!at_end() && (detail::ascii_digit(peek()) || peek() == '-' || peek() == '+' ||
                         peek() == '.' || peek() == 'e' || peek() == 'E'))
      ++at_;
    out_ += text_.substr(start, at_ - start);
    return true;
  }

  bool double_quoted() {
    const auto start = at_++;
    while (!at_end() && peek() != '"') at_ += peek() == '\\' ? 2 : 1;
    if (at_end()) return false;
    ++at_;
    out_ += text_.substr(start, at_ - start);
    return true;
  }

  // 'text' written as "text": `\'` loses its backslash, a bare `"` gains one.
  bool single_quoted() {
    const auto start = at_++;
    std::string written = "\"";
    while (!at_end() && peek() != '\'') {
      const char c = peek();
      if (c == '\n' || c == '\r') return false;
      if (c == '\\') {
        if (at_ + 1 >= text_.size()) return false;
        if (text_[at_ + 1] == '\'') {
          written += '\'';
        } else {
          written += text_.substr(at_, 2);
        }
        at_ += 2;
        continue;
      }
      if (c == '"') written += '\\';
      written += c;
      ++at_;
    }
    if (at_end()) return false;
    ++at_;
    written += '"';
    slip(RepairKind::single_quoted_string, text_.substr(start, at_ - start), written);
    out_ += written;
    return true;
  }

  bool key() {
    const char c = peek();
    if (c == '"') return double_quoted();
    if (c == '\'') return single_quoted();
    if (!identifier_start(c)) return false;
    const auto start = at_;
    while (!at_end() && identifier_char(peek())) ++at_;
    const auto name = text_.substr(start, at_ - start);
    const std::string written = "\"" + std::string(name) + "\"";
    slip(RepairKind::unquoted_key, name, written);
    out_ += written;
    return true;
  }

  bool object(std::size_t depth) {
    ++at_;
    out_ += '{';
    if (!skip_blank()) return false;
    if (peek() == '}') {
      ++at_;
      out_ += '}';
      return true;
    }
    while (true) {
      const auto key_start = out_.size();
      if (!key()) return false;
      const auto parsed = nlohmann::json::parse(out_.substr(key_start), nullptr, false);
      if (!parsed.is_string()) return false;
      if (!skip_blank() || peek() != ':') return false;
      ++at_;
      out_ += ':';
      if (!skip_blank()) return false;
      path_ = path_ / parsed.get<std::string>();
      if (!value(depth)) return false;
      path_ = parent();
      if (!end_of_member('}')) return false;
      if (closed_) {
        closed_ = false;
        return true;
      }
    }
  }

  bool array(std::size_t depth) {
    ++at_;
    out_ += '[';
    if (!skip_blank()) return false;
    if (peek() == ']') {
      ++at_;
      out_ += ']';
      return true;
    }
    for (std::size_t index = 0;; ++index) {
      path_ = path_ / index;
      if (!value(depth)) return false;
      path_ = parent();
      if (!end_of_member(']')) return false;
      if (closed_) {
        closed_ = false;
        return true;
      }
    }
  }

  // After a member: `,` then another, `,` then the close (a trailing comma), or the close.
  bool end_of_member(char close) {
    if (!skip_blank()) return false;
    if (peek() == close) {
      ++at_;
      out_ += close;
      closed_ = true;
      return true;
    }
    if (peek() != ',') return false;
    const auto comma = at_++;
    if (!skip_blank()) return false;
    if (peek() == close) {
      slip(RepairKind::trailing_comma, text_.substr(comma, at_ + 1 - comma), std::string(1, close));
      ++at_;
      out_ += close;
      closed_ = true;
      return true;
    }
    out_ += ',';
    return true;
  }

  Path parent() const {
    auto segments = path_.segments();
    segments.pop_back();
    return Path(std::move(segments));
  }

  std::string_view text_;
  std::size_t at_;
  std::string out_;
  Repairs slips_;
  Path path_;
  bool closed_ = false;
};

}  // namespace

std::optional<SlipRead> read_with_slips(std::string_view text, std::size_t at) {
  return SlipReader(text, at).read();
}

std::string shortened(std::string_view text) {
  if (text.size() <= kMaxRecorded) return std::string(text);
  auto cut = kMaxRecorded;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "…";
}

}  // namespace accord::repair
