#include "accord/path.hpp"

#include <cctype>

namespace accord {
namespace {

bool is_identifier(const std::string& key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '$') return false;
  }
  return true;
}

std::string quoted_key(const std::string& key) {
  std::string out = "\"";
  for (char c : key) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

Path Path::operator/(std::string key) const {
  Path out = *this;
  out.segments_.emplace_back(std::move(key));
  return out;
}

Path Path::operator/(std::size_t index) const {
  Path out = *this;
  out.segments_.emplace_back(index);
  return out;
}

Path Path::operator+(const Path& tail) const {
  Path out = *this;
  out.segments_.insert(out.segments_.end(), tail.segments_.begin(), tail.segments_.end());
  return out;
}

std::string Path::to_string() const {
  std::string out;
  for (const auto& segment : segments_) {
    if (const auto* index = std::get_if<std::size_t>(&segment)) {
      out += "[" + std::to_string(*index) + "]";
      continue;
    }
    const auto& key = std::get<std::string>(segment);
    // Schema positions that are not value keys: array items, record values and union options.
    if (key == "[]" || key == "{}" || (key.size() > 1 && key[0] == '|')) {
      out += key;
    } else if (is_identifier(key)) {
      out += (out.empty() ? "" : ".") + key;
    } else {
      out += "[" + quoted_key(key) + "]";
    }
  }
  return out;
}

std::string Path::to_pointer() const {
  std::string out;
  for (const auto& segment : segments_) {
    out += '/';
    if (const auto* index = std::get_if<std::size_t>(&segment)) {
      out += std::to_string(*index);
      continue;
    }
    for (char c : std::get<std::string>(segment)) {
      if (c == '~') {
        out += "~0";
      } else if (c == '/') {
        out += "~1";
      } else {
        out += c;
      }
    }
  }
  return out;
}

}  // namespace accord
