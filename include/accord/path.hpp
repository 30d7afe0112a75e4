#pragma once
// A location inside a JSON value: object keys and array indexes, outermost first.

#include <cstddef>
#include <string>
#include <variant>
#include <vector>

namespace accord {

using PathSegment = std::variant<std::string, std::size_t>;

class Path {
 public:
  Path() = default;
  Path(std::initializer_list<PathSegment> segments) : segments_(segments) {}
  explicit Path(std::vector<PathSegment> segments) : segments_(std::move(segments)) {}

  [[nodiscard]] Path operator/(std::string key) const;
  [[nodiscard]] Path operator/(std::size_t index) const;
  [[nodiscard]] Path operator+(const Path& tail) const;

  [[nodiscard]] bool empty() const { return segments_.empty(); }
  [[nodiscard]] std::size_t size() const { return segments_.size(); }
  [[nodiscard]] const std::vector<PathSegment>& segments() const { return segments_; }

  // Zod's style: `items[0].name`, `["odd key"]` for keys that are not identifiers; "" for the root.
  [[nodiscard]] std::string to_string() const;
  // RFC 6901: `/items/0/name`.
  [[nodiscard]] std::string to_pointer() const;

  friend bool operator==(const Path&, const Path&) = default;

 private:
  std::vector<PathSegment> segments_;
};

}  // namespace accord
