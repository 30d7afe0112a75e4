// Arrays: `prefixItems` and `items` (draft-07's list form and `additionalItems` too), whose
// tuple length is checked first as z.tuple does, `minItems`, `maxItems`, `uniqueItems`, and
// `contains` with `minContains`/`maxContains`.

#include <algorithm>
#include <unordered_map>

#include "core/json_number.hpp"
#include "validate/evaluation.hpp"
#include "validate/keywords/keywords.hpp"

namespace accord::detail {
namespace {

bool all_unique(JsonView v) {
  if (v.size() < 2) return true;
  const std::vector<JsonView> items(v.items().begin(), v.items().end());
  if (items.size() <= 16) {
    for (std::size_t i = 0; i < items.size(); ++i) {
      for (std::size_t j = i + 1; j < items.size(); ++j) {
        if (json_equal(items[i], items[j])) return false;
      }
    }
    return true;
  }
  std::unordered_multimap<std::size_t, std::size_t> seen;
  seen.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::size_t hash = json_hash(items[i]);
    auto [first, last] = seen.equal_range(hash);
    for (auto it = first; it != last; ++it) {
      if (json_equal(items[it->second], items[i])) return false;
    }
    seen.emplace(hash, i);
  }
  return true;
}

}  // namespace

void compile_prefix_items(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at) {
  k.node().prefix = k.list(value, key, at, false);
  k.node().tuple = true;
  k.add_unit(Unit::items);
}

void compile_items(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at) {
  if (value.is_array()) {
    k.node().prefix = k.list(value, key, at, false);
    k.node().tuple = true;
  } else {
    const bool has_prefix = k.modern() && k.schema.contains("prefixItems");
    k.node().rest = k.sub(value, at);
    k.node().tuple = k.node().tuple || has_prefix;
  }
  k.add_unit(Unit::items);
}

// draft-07's tuple form; a 2020-12 document that writes it gets draft-07's meaning.
void compile_additional_items(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                              const Path& at) {
  if (k.schema.contains("items") && k.schema["items"].is_array()) {
    k.node().rest = k.sub(value, at);
    k.add_unit(Unit::items);
  } else {
    (void)k.sub(value, at);
  }
}

void compile_item_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                        const Path& at) {
  const bool min = key == "minItems";
  (min ? k.node().min_items : k.node().max_items) = k.count(value, at, key);
  k.add_unit(min ? Unit::min_items : Unit::max_items);
}

void compile_unique_items(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                          const Path& /*at*/) {
  k.node().unique = value.is_boolean() && value.get<bool>();
  if (k.node().unique) k.add_unit(Unit::unique_items);
}

void compile_contains(KeywordCompiler& k, const std::string& /*key*/, const ojson& value,
                      const Path& at) {
  k.node().contains = k.sub(value, at);
  k.add_unit(Unit::contains);
}

void compile_contains_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                            const Path& at) {
  (key == "minContains" ? k.node().min_contains : k.node().max_contains) = k.count(value, at, key);
}

// z.tuple checks the length first and stops there.
bool Run::tuple_length_ok(const Node& n, JsonView v, const Link* at) {
  const bool closed = n.rest != kNone && d_.nodes[n.rest].boolean && !d_.nodes[n.rest].allows;
  if (closed && v.size() > n.prefix.size()) {
    return fail(IssueCode::too_big, at, true, [&] {
      return "Too big: expected array to have <=" + std::to_string(n.prefix.size()) + " items";
    });
  }
  if (n.min_items && v.size() < *n.min_items) {
    return fail(IssueCode::too_small, at, true, [&] {
      return "Too small: expected array to have >=" + std::to_string(*n.min_items) + " items";
    });
  }
  return true;
}

bool Run::array_unit(Unit unit, const Node& n, JsonView v, const Link* at, const SchemaNode* dsl,
                     Seen* seen) {
  switch (unit) {
    case Unit::items: {
      bool ok = true;
      const std::size_t size = v.size();
      std::size_t i = 0;
      for (JsonView value : v.items()) {
        const Link item = Link::item(at, i);
        if (i < n.prefix.size()) {
          ok = visit(n.prefix[i], &value, &item, element_node(dsl, Kind::tuple, i)) && ok;
        } else if (n.rest != kNone) {
          ok =
              visit(n.rest, &value, &item, n.tuple ? nullptr : element_node(dsl, Kind::array, 0)) &&
              ok;
        } else {
          break;
        }
        if (!ok && sink_ == nullptr) return false;
        ++i;
      }
      if (seen != nullptr) {
        seen->items = std::max(seen->items, std::min(size, n.prefix.size()));
        if (n.rest != kNone) seen->all_items = true;
      }
      return ok;
    }
    case Unit::min_items:
      if (!n.min_items || v.size() >= *n.min_items) return true;
      return fail(IssueCode::too_small, at, false, [&] {
        return "Too small: expected array to have >=" + std::to_string(*n.min_items) + " items";
      });
    case Unit::max_items:
      if (!n.max_items || v.size() <= *n.max_items) return true;
      return fail(IssueCode::too_big, at, false, [&] {
        return "Too big: expected array to have <=" + std::to_string(*n.max_items) + " items";
      });
    case Unit::unique_items:
      if (all_unique(v)) return true;
      return fail(IssueCode::custom, at, false,
                  [] { return std::string("Invalid input: expected unique items"); });
    case Unit::contains:
      return contains(n, v, at, seen);
    default:
      return true;
  }
}

bool Run::contains(const Node& n, JsonView v, const Link* at, Seen* seen) {
  std::uint64_t matches = 0;
  std::size_t i = 0;
  for (JsonView value : v.items()) {
    const Link item = Link::item(at, i);
    if (quietly(n.contains, &value, &item, nullptr)) {
      ++matches;
      if (seen != nullptr) seen->item_indices.push_back(i);
    }
    ++i;
  }
  const std::uint64_t least = n.min_contains.value_or(1);
  if (matches < least) {
    return fail(IssueCode::too_small, at, false, [&] {
      return "Too small: expected array to contain at least " +
             plural(least, "matching item", "matching items");
    });
  }
  if (n.max_contains && matches > *n.max_contains) {
    return fail(IssueCode::too_big, at, false, [&] {
      return "Too big: expected array to contain at most " +
             plural(*n.max_contains, "matching item", "matching items");
    });
  }
  return true;
}

}  // namespace accord::detail
