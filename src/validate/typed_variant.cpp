#include "accord/typed_variant.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "accord/json_schema.hpp"
#include "accord/validate.hpp"
#include "schema/declared_field.hpp"

namespace accord::typed_detail {
namespace {

bool same_check(const Check& a, const Check& b) {
  return a.op == b.op && a.number == b.number && a.text == b.text &&
         (a.op != Check::Op::format || a.format == b.format);
}

// What an object accepts under a key none of its fields names: nothing when closed, its record
// values' schema when it has one, anything otherwise.
std::optional<Schema> extra_keys(const SchemaNode& node) {
  if (node.closed) return std::nullopt;
  return node.elements.empty() ? any() : node.elements.front();
}

bool object_accepts_all_of(const SchemaNode& wide, const SchemaNode& narrow) {
  const auto wide_extra = extra_keys(wide);
  const auto narrow_extra = extra_keys(narrow);
  for (const auto& field : wide.fields) {
    const Field* other = detail::declared_field(narrow, field.name);
    if (other == nullptr) {
      // A narrow value never lacks a required key, and a key it may carry freely is one the
      // wide side must take as it comes.
      if (!field.schema.node().optional || narrow_extra) return false;
    } else if ((!field.schema.node().optional && other->schema.node().optional) ||
               !accepts_all_of(field.schema, other->schema)) {
      return false;
    }
  }
  for (const auto& field : narrow.fields) {
    if (detail::declared_field(wide, field.name) == nullptr &&
        !(wide_extra && accepts_all_of(*wide_extra, field.schema))) {
      return false;
    }
  }
  return !narrow_extra || (wide_extra && accepts_all_of(*wide_extra, *narrow_extra));
}

bool same_kind_accepts_all_of(const SchemaNode& wide, const SchemaNode& narrow) {
  switch (wide.kind) {
    case Kind::string:
    case Kind::number:
    case Kind::integer:
    case Kind::boolean:
    case Kind::null:
    case Kind::any:
      return true;
    case Kind::enumeration:
      return std::all_of(narrow.options.begin(), narrow.options.end(), [&](const auto& option) {
        return std::find(wide.options.begin(), wide.options.end(), option) != wide.options.end();
      });
    case Kind::literal:
      return wide.literal == narrow.literal;
    case Kind::array:
    case Kind::tuple:
      return wide.elements.size() == narrow.elements.size() &&
             std::equal(wide.elements.begin(), wide.elements.end(), narrow.elements.begin(),
                        [](const Schema& w, const Schema& n) { return accepts_all_of(w, n); });
    case Kind::object:
      return object_accepts_all_of(wide, narrow);
    case Kind::ref:
      return wide.reference == narrow.reference;
    case Kind::union_:
      break;  // handled by the caller
  }
  return false;
}

}  // namespace

bool accepts_all_of(const Schema& wide_schema, const Schema& narrow_schema) {
  const auto& wide = wide_schema.node();
  const auto& narrow = narrow_schema.node();
  // A predicate or a rule may turn any value away: nothing is sure past one.
  if (!wide.refinements.empty() || !wide.rules.empty()) return false;
  const auto in_narrow = [&](const Check& check) {
    return std::any_of(narrow.checks.begin(), narrow.checks.end(),
                       [&](const Check& other) { return same_check(check, other); });
  };
  if (!std::all_of(wide.checks.begin(), wide.checks.end(), in_narrow)) return false;
  if (wide.kind == Kind::any) return true;
  const bool wide_takes_null = wide.nullable || wide.kind == Kind::null;
  if (narrow.kind == Kind::null) return wide_takes_null;
  if (narrow.nullable && !wide_takes_null) return false;
  if (narrow.kind == Kind::union_) {
    return std::all_of(narrow.elements.begin(), narrow.elements.end(),
                       [&](const Schema& option) { return accepts_all_of(wide_schema, option); });
  }
  if (wide.kind == Kind::union_) {
    return std::any_of(wide.elements.begin(), wide.elements.end(),
                       [&](const Schema& option) { return accepts_all_of(option, narrow_schema); });
  }
  if (wide.kind == Kind::number && narrow.kind == Kind::integer) return true;
  return wide.kind == narrow.kind && same_kind_accepts_all_of(wide, narrow);
}

void check_alternatives_differ(const std::vector<Schema>& options) {
  std::vector<SchemaProblem> problems;
  for (std::size_t later = 1; later < options.size(); ++later) {
    for (std::size_t earlier = 0; earlier < later; ++earlier) {
      if (!accepts_all_of(options[earlier], options[later])) continue;
      problems.push_back(
          {Path{"|" + std::to_string(later)},
           fmt::format("std::variant alternative {} can never be chosen: alternative {}, listed "
                       "before it, accepts every value it does (give them a Tag member, or "
                       "members that tell them apart)",
                       later, earlier)});
      break;
    }
  }
  if (!problems.empty()) throw SchemaError(std::move(problems));
}

UnionChoices::UnionChoices(const Schema& schema) {
  try {
    judge_ = matching_union_option(emit(schema).json);
  } catch (const SchemaError&) {
    // A schema with mistakes has no unions to judge by: every variant is read by conversion.
  }
}

std::optional<std::size_t> UnionChoices::option(const nlohmann::json& value,
                                                const Path& site) const {
  if (!judge_) return std::nullopt;
  return judge_(value, site);
}

std::shared_ptr<const UnionChoices> union_choices(const Schema& schema) {
  // Keyed by node; the Schema kept beside it holds the node, so its address is not reused.
  // Bounded for a program that builds schemas as it goes (a CLI reading schema files).
  constexpr std::size_t kMaxKept = 256;
  static std::mutex mutex;
  static std::map<const SchemaNode*, std::pair<Schema, std::shared_ptr<const UnionChoices>>> kept;
  const std::lock_guard lock(mutex);
  if (const auto found = kept.find(&schema.node()); found != kept.end()) {
    return found->second.second;
  }
  if (kept.size() >= kMaxKept) kept.clear();
  auto choices = std::make_shared<const UnionChoices>(schema);
  kept.emplace(&schema.node(), std::pair{schema, choices});
  return choices;
}

}  // namespace accord::typed_detail
