#pragma once
// The struct a TypedValidator shares with the refinements of the document's root, so it is read
// once (typed_rules.hpp, typed_validator.hpp). No part of the API.

#include <algorithm>

#include "accord/json_view.hpp"
#include "accord/schema.hpp"
#include "accord/typed_types.hpp"
#include "accord/typed_value.hpp"

namespace accord::typed_detail {

// The root types read once: a described struct, whose schema's fields say which defaults it is
// read with (same_fields). Any other type's schema has no fields to compare (an array's items, a
// map's values), and a variant's or recursive type's reading is not shared.
template <class T>
inline constexpr bool root_read_once =
    DescribedStruct<T> && !holds_variant<T> && !is_recursive_type<T>;

// Whether two object nodes have the very same fields (the same schemas, not equal ones): a T read
// with either has the same defaults. An object refinement keeps the schema it was added to, which
// shares its fields with the finished schema.
inline bool same_fields(const SchemaNode& a, const SchemaNode& b) {
  return std::equal(a.fields.begin(), a.fields.end(), b.fields.begin(), b.fields.end(),
                    [](const Field& x, const Field& y) {
                      return &x.schema.node() == &y.schema.node() && same_text(x.name, y.name);
                    });
}

// A TypedValidator's T (root_read_once) for the document's root, while it validates: the root's
// typed object refinements read their T into `out` (once for all of them), and the validator hands
// that struct to its caller instead of reading it again. Installed for this thread while it lives;
// the reading it replaced (a predicate that parses again) comes back after.
template <class T>
class RootReading {
 public:
  RootReading(JsonView root, const Schema& schema, const RootPlan<T>& plan, T& out)
      : root_(root), schema_(schema), plan_(plan), out_(out), outer_(current()) {
    current() = this;
  }
  RootReading(const RootReading&) = delete;
  RootReading& operator=(const RootReading&) = delete;
  ~RootReading() { current() = outer_; }

  // The reading installed on this thread, or nullptr.
  static RootReading*& current() {
    thread_local RootReading* installed = nullptr;
    return installed;
  }

  // Whether a refinement added to `schema` and called with `value` reads what this one does.
  [[nodiscard]] bool covers(const Schema& schema, JsonView value) const {
    return value.is_same(root_) && same_fields(schema.node(), schema_.node());
  }
  // The root read as T (the first call reads it): nullptr when it does not convert.
  const T* read() {
    if (!read_) {
      failure_ = read_into(&schema_, root_, out_, plan_.get());
      read_ = true;
    }
    return failure_ ? nullptr : &out_;
  }
  // Whether a refinement read the root (then `out` holds it, unless `failure` says why not).
  [[nodiscard]] bool was_read() const { return read_; }
  [[nodiscard]] Failure& failure() { return failure_; }

 private:
  JsonView root_;
  const Schema& schema_;
  const RootPlan<T>& plan_;
  T& out_;
  RootReading* outer_;
  bool read_ = false;
  Failure failure_;
};

}  // namespace accord::typed_detail
