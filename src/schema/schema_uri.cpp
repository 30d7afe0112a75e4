#include "schema/schema_uri.hpp"

#include <cctype>

namespace accord::detail {
namespace {

struct Parts {
  std::string scheme;  // without ':'
  bool has_authority = false;
  std::string authority;
  std::string path;
  bool has_query = false;
  std::string query;
  bool has_fragment = false;
  std::string fragment;
};

Parts parse(const std::string& uri) {
  Parts out;
  std::string rest = uri;
  if (auto hash = rest.find('#'); hash != std::string::npos) {
    out.has_fragment = true;
    out.fragment = rest.substr(hash + 1);
    rest.resize(hash);
  }
  if (auto question = rest.find('?'); question != std::string::npos) {
    out.has_query = true;
    out.query = rest.substr(question + 1);
    rest.resize(question);
  }
  const auto colon = rest.find(':');
  if (colon != std::string::npos && colon > 0 &&
      std::isalpha(static_cast<unsigned char>(rest[0])) != 0 && rest.find_first_of("/?#") > colon) {
    out.scheme = rest.substr(0, colon);
    rest = rest.substr(colon + 1);
  }
  if (rest.rfind("//", 0) == 0) {
    out.has_authority = true;
    const auto slash = rest.find('/', 2);
    out.authority = rest.substr(2, slash == std::string::npos ? std::string::npos : slash - 2);
    rest = slash == std::string::npos ? "" : rest.substr(slash);
  }
  out.path = rest;
  return out;
}

std::string remove_dot_segments(const std::string& path) {
  std::string input = path;
  std::string output;
  while (!input.empty()) {
    if (input.rfind("../", 0) == 0) {
      input.erase(0, 3);
    } else if (input.rfind("./", 0) == 0) {
      input.erase(0, 2);
    } else if (input.rfind("/./", 0) == 0) {
      input.replace(0, 3, "/");
    } else if (input == "/.") {
      input = "/";
    } else if (input.rfind("/../", 0) == 0 || input == "/..") {
      input = input == "/.." ? "/" : input.substr(3);
      const auto last = output.rfind('/');
      output.resize(last == std::string::npos ? 0 : last);
    } else if (input == "." || input == "..") {
      input.clear();
    } else {
      const auto next = input.find('/', input[0] == '/' ? 1 : 0);
      output += input.substr(0, next);
      input = next == std::string::npos ? "" : input.substr(next);
    }
  }
  return output;
}

std::string join(const Parts& p) {
  std::string out;
  if (!p.scheme.empty()) out += p.scheme + ":";
  if (p.has_authority) out += "//" + p.authority;
  out += p.path;
  if (p.has_query) out += "?" + p.query;
  if (p.has_fragment) out += "#" + p.fragment;
  return out;
}

}  // namespace

std::string resolve_uri(const std::string& base, const std::string& reference) {
  const Parts r = parse(reference);
  const Parts b = parse(base);
  Parts t;
  if (!r.scheme.empty()) {
    t = r;
    t.path = remove_dot_segments(r.path);
  } else {
    t.scheme = b.scheme;
    if (r.has_authority) {
      t.has_authority = true;
      t.authority = r.authority;
      t.path = remove_dot_segments(r.path);
      t.has_query = r.has_query;
      t.query = r.query;
    } else {
      t.has_authority = b.has_authority;
      t.authority = b.authority;
      if (r.path.empty()) {
        t.path = b.path;
        t.has_query = r.has_query || b.has_query;
        t.query = r.has_query ? r.query : b.query;
      } else {
        if (r.path[0] == '/') {
          t.path = remove_dot_segments(r.path);
        } else {
          std::string merged;
          if (b.has_authority && b.path.empty()) {
            merged = "/" + r.path;
          } else {
            const auto slash = b.path.rfind('/');
            merged = (slash == std::string::npos ? "" : b.path.substr(0, slash + 1)) + r.path;
          }
          t.path = remove_dot_segments(merged);
        }
        t.has_query = r.has_query;
        t.query = r.query;
      }
    }
  }
  t.has_fragment = r.has_fragment;
  t.fragment = r.fragment;
  return join(t);
}

std::pair<std::string, std::string> split_fragment(const std::string& uri) {
  const auto hash = uri.find('#');
  if (hash == std::string::npos) return {uri, ""};
  return {uri.substr(0, hash), uri.substr(hash + 1)};
}

std::string strip_fragment(const std::string& uri) {
  return split_fragment(uri).first;
}

std::string percent_decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) != 0 &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2])) != 0) {
      out += static_cast<char>(std::stoi(text.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace accord::detail
