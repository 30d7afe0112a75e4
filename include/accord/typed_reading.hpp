#pragma once
// Where typed reading keeps what it reads (typed_rules.hpp, typed_validator.hpp): values a thread
// reuses from one document to the next, and the struct a TypedValidator shares with the
// refinements of the document's root. No part of the API.
//
// A typed refinement runs on every validation of its node, and reads the node's C++ value to hand
// it to the predicate: into a fresh value, each string would be a new allocation every time. Read
// into the thread's reused value instead, a string keeps its capacity (std::string::assign), so
// once warm a refinement allocates nothing.

#include <algorithm>
#include <optional>

#include "accord/json_view.hpp"
#include "accord/schema.hpp"
#include "accord/typed_value.hpp"

namespace accord::typed_detail {

// This thread's reused T while the lease lives. A lease taken while the thread's T is out (a
// predicate that validates again on the same thread) gets a fresh T of its own, so nothing a
// caller is still reading is overwritten.
template <class T>
class ScratchLease {
 public:
  ScratchLease() {
    Slot& slot = thread_slot();
    if (slot.leased) {
      own_.emplace();
      value_ = &*own_;
    } else {
      slot.leased = true;
      value_ = &slot.value;
    }
  }
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  ~ScratchLease() {
    if (!own_) thread_slot().leased = false;
  }
  T& operator*() const { return *value_; }
  T* operator->() const { return value_; }

 private:
  struct Slot {
    T value{};
    bool leased = false;
  };
  static Slot& thread_slot() {
    thread_local Slot slot;
    return slot;
  }
  std::optional<T> own_;
  T* value_ = nullptr;
};

// Whether two object nodes have the very same fields (the same schemas, not equal ones): a T read
// with either has the same defaults. An object refinement keeps the schema it was added to, which
// shares its fields with the finished schema.
inline bool same_fields(const SchemaNode& a, const SchemaNode& b) {
  return std::equal(a.fields.begin(), a.fields.end(), b.fields.begin(), b.fields.end(),
                    [](const Field& x, const Field& y) {
                      return &x.schema.node() == &y.schema.node() && x.name == y.name;
                    });
}

// A TypedValidator's T for the document's root, while it validates: the root's typed object
// refinements read their T into `out` (once for all of them), and the validator hands that struct
// to its caller instead of reading it again. Installed for this thread while it lives; the
// reading it replaced (a predicate that parses again) comes back after.
template <class T>
class RootReading {
 public:
  RootReading(JsonView root, const Schema& schema, T& out)
      : root_(root), schema_(schema), out_(out), outer_(current()) {
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
      failure_ = read_into(&schema_, root_, out_);
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
  T& out_;
  RootReading* outer_;
  bool read_ = false;
  Failure failure_;
};

}  // namespace accord::typed_detail
