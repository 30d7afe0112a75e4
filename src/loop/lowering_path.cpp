#include "loop/lowering_path.hpp"

#include <string>
#include <variant>

namespace accord::detail {
namespace {

// The key a non-object root is sent under (providers/lowering.cpp wraps it so).
const PathSegment kWrapper{std::in_place_type<std::string>, "value"};

bool is_option(const PathSegment& segment) {
  const auto* key = std::get_if<std::string>(&segment);
  return key != nullptr && key->size() > 1 && (*key)[0] == '|';
}

bool segment_matches(const PathSegment& pattern, const PathSegment& at) {
  if (const auto* key = std::get_if<std::string>(&pattern)) {
    if (*key == "[]") return std::holds_alternative<std::size_t>(at);
    if (*key == "{}") return std::holds_alternative<std::string>(at);
  }
  return pattern == at;
}

}  // namespace

PathRelation relate(const Path& lowered, std::span<const PathSegment> path) {
  const auto& l = lowered.segments();
  std::size_t i = 0;
  for (std::size_t step = 0; step < path.size(); ++step) {
    while (i < l.size() && is_option(l[i])) ++i;
    if (i == l.size()) return {PathRelation::above, step, {}};
    if (!segment_matches(l[i], path[step])) return {};
    ++i;
  }
  return {PathRelation::at_or_below, path.size(),
          Path(std::vector<PathSegment>(l.begin() + static_cast<std::ptrdiff_t>(i), l.end()))};
}

std::vector<PathSegment> on_the_wire(const Lowering& lowering, std::span<const PathSegment> path) {
  std::vector<PathSegment> wire_path;
  if (lowering.wrapped_root) wire_path.push_back(kWrapper);
  wire_path.insert(wire_path.end(), path.begin(), path.end());
  return wire_path;
}

std::optional<Path> unwrapped(const Lowering& lowering, const Path& wire_path) {
  if (!lowering.wrapped_root) return wire_path;
  const auto& segments = wire_path.segments();
  if (segments.empty() || segments.front() != kWrapper) return std::nullopt;
  return Path(std::vector<PathSegment>(segments.begin() + 1, segments.end()));
}

}  // namespace accord::detail
