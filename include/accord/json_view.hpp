#pragma once
// A parsed JSON text as a flat tape instead of a tree of map nodes, and a read-only view of one
// value in it. A verdict needs only to read the value: the tape is one vector of 16-byte entries
// plus one buffer holding every string (and a list of member orders when keys came out of order),
// so reading a document costs at most three allocations however many values it holds, and none
// when a document is reused (the parse_document that takes one) or one died before on the thread.
// The views agree with the tree nlohmann would build from the same text (number kinds, member
// order, equality), so code can move from one to the other without changing a result.

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/issue.hpp"
#include "accord/json_text.hpp"

namespace accord {

class JsonView;
struct ParsedDocument;

// Owns its tape and strings; copies and moves as its vectors do (a move costs nothing).
class JsonDocument {
 public:
  JsonDocument();  // the document `null`
  JsonDocument(const JsonDocument&) = default;
  JsonDocument(JsonDocument&&) noexcept = default;
  JsonDocument& operator=(const JsonDocument&) = default;
  JsonDocument& operator=(JsonDocument&&) noexcept = default;
  // Leaves its buffers (tape, strings, member order) to the next document made on this thread
  // without one to reuse (a ValidationResult's, one built from a tree): a few documents' worth,
  // each within a bound, are kept per thread until it ends.
  ~JsonDocument() {
    if (tape_.capacity() != 0) leave_buffers();  // a document moved from holds none
  }

  [[nodiscard]] JsonView root() const;
  // A tree to a tape. A binary or discarded value (no JSON text has one) becomes null.
  [[nodiscard]] static JsonDocument from_json(const nlohmann::json& value);
  // Bytes held (tape + strings + member orders): what bench reports as memory per document.
  [[nodiscard]] std::size_t bytes() const;

  // What appends to the tape (src/core/json_document.cpp): declared here for the library,
  // complete only there; no part of the API.
  class Writer;
  // Where a document that dies leaves its buffers (src/core/json_document.cpp), likewise.
  class Pool;

 private:
  friend class JsonView;
  struct Empty {};
  explicit JsonDocument(Empty /*no entry yet: a Writer fills it*/) {}
  void leave_buffers();

  enum class Kind : std::uint8_t {
    null,
    boolean_false,
    boolean_true,
    number_unsigned,
    number_integer,
    number_float,
    string,
    key,  // an object member's key; its value is the entry after it
    array,
    object,
  };
  // string, key: length and offset in strings_ (which begins with a copy of the parsed text:
  // a string without escapes is where the text has it, an escaped one is decoded after). number_*:
  // the value's bits in `b`. array: `a` = entries in the subtree (itself included), `b` = items.
  // object: `a` as an array's; `b` = members in the low half, and in the high half 1 + where the
  // member order starts in order_ when the text did not give the keys in order (else 0).
  struct Entry {
    // Left unset: the writer sizes the tape for the entries it is about to write, and a resize
    // then costs no stores (core/json_document.cpp).
    Entry() {}  // NOLINT(modernize-use-equals-default): `= default` would zero a resized tape
    Entry(Kind entry_kind, std::uint32_t entry_a, std::uint64_t entry_b)
        : kind(entry_kind), a(entry_a), b(entry_b) {}
    Kind kind;
    std::uint32_t a;
    std::uint64_t b;
  };
  static_assert(sizeof(Entry) == 16);

  [[nodiscard]] std::uint32_t span(std::uint32_t index) const {
    const Entry& entry = tape_[index];
    return entry.kind >= Kind::array ? entry.a : 1;
  }
  [[nodiscard]] std::string_view text(std::uint32_t index) const {
    return {strings_.data() + tape_[index].b, tape_[index].a};
  }

  std::vector<Entry> tape_;
  std::vector<char> strings_;  // not std::string: no short-string branch on each move or take
  // Objects whose keys came out of order: the tape index of each key, in key order.
  std::vector<std::uint32_t> order_;
};

// Result of parsing text to a tape: the verdicts and error messages parse_json gives.
struct ParsedDocument {
  std::optional<JsonDocument> document;  // set when the text parsed
  Issues issues;                         // one invalid_json issue otherwise
};

// As parse_json (accord/json_text.hpp): never throws on bad input, same limits, same messages.
[[nodiscard]] ParsedDocument parse_document(std::string_view text, ParseLimits limits = {});
// The same into `reuse`, whose tape and strings keep their capacity: reading many texts one after
// another into one document allocates only when a text needs more room than those before it.
// Returns the issues: none when the text parsed (`reuse` then holds its value), else the one
// invalid_json issue the other overload gives (`reuse` then holds null). After an exception
// (bad_alloc) `reuse` holds no value to read: it may be destroyed, assigned or parsed into again.
[[nodiscard]] Issues parse_document(std::string_view text, ParseLimits limits, JsonDocument& reuse);

struct JsonMember;

// One value inside a JsonDocument: a document pointer and a tape index, copied by value, valid
// while the document lives (and is not moved from). Number kinds follow nlohmann's: a
// non-negative integer is unsigned, a negative one integer, anything else float.
class JsonView {
  using Kind = JsonDocument::Kind;

 public:
  class Items;
  class Members;
  // What the two iterators share: the standard's member types and the postfix step.
  template <class Derived, class Value>
  class Step {
   public:
    using value_type = Value;
    using difference_type = std::ptrdiff_t;
    using iterator_category = std::forward_iterator_tag;
    Derived operator++(int) {
      Derived before = static_cast<Derived&>(*this);
      ++static_cast<Derived&>(*this);
      return before;
    }
  };

  [[nodiscard]] bool is_null() const { return kind() == Kind::null; }
  [[nodiscard]] bool is_boolean() const {
    return kind() == Kind::boolean_false || kind() == Kind::boolean_true;
  }
  [[nodiscard]] bool is_number() const {
    return kind() >= Kind::number_unsigned && kind() <= Kind::number_float;
  }
  // True for unsigned too, as nlohmann's.
  [[nodiscard]] bool is_number_integer() const {
    return kind() == Kind::number_unsigned || kind() == Kind::number_integer;
  }
  [[nodiscard]] bool is_number_unsigned() const { return kind() == Kind::number_unsigned; }
  [[nodiscard]] bool is_number_float() const { return kind() == Kind::number_float; }
  [[nodiscard]] bool is_string() const { return kind() == Kind::string; }
  [[nodiscard]] bool is_array() const { return kind() == Kind::array; }
  [[nodiscard]] bool is_object() const { return kind() == Kind::object; }
  // nlohmann's words: "null", "boolean", "number", "string", "array", "object".
  [[nodiscard]] const char* type_name() const;

  [[nodiscard]] bool get_bool() const { return kind() == Kind::boolean_true; }
  // Precondition: is_number_unsigned.
  [[nodiscard]] std::uint64_t get_unsigned() const { return entry().b; }
  // Precondition: is_number_integer (an unsigned value converts as nlohmann's get<int64_t>).
  [[nodiscard]] std::int64_t get_integer() const { return static_cast<std::int64_t>(entry().b); }
  // Any number, as nlohmann's get<double>.
  [[nodiscard]] double get_double() const;
  // Precondition: is_string.
  [[nodiscard]] std::string_view get_string() const { return doc_->text(index_); }
  // Items of an array, members of an object, else 0 (not a string's length).
  [[nodiscard]] std::size_t size() const;
  // The member named `key` of an object; nullopt when absent or not an object.
  [[nodiscard]] std::optional<JsonView> find(std::string_view key) const;

  // `for (JsonView item : v.items())`; empty unless an array.
  [[nodiscard]] Items items() const;
  // `for (const JsonMember& m : v.members())`, in key order as nlohmann::json (a std::map)
  // iterates them; empty unless an object.
  [[nodiscard]] Members members() const;
  // The same members in the document's order, a walk of the tape without members()'s key order:
  // the text's for a parsed document (after the fallback parse, ordered_json's, where a repeated
  // key's last value sits at its first place), key order for one built from a tree. A document's
  // keys are unique either way.
  [[nodiscard]] Members members_as_written() const;

  // The subtree as a tree.
  [[nodiscard]] nlohmann::json to_json() const;
  // == to_json().dump(), without the tree.
  [[nodiscard]] std::string dump() const;
  // Tape position: identity of a value within its document.
  [[nodiscard]] std::uint32_t index() const { return index_; }
  // Whether `other` is this very value (the same place in the same document), not an equal one.
  [[nodiscard]] bool is_same(JsonView other) const {
    return doc_ == other.doc_ && index_ == other.index_;
  }

  // JSON equality as nlohmann's == on trees (1 == 1.0; objects compare member by member).
  friend bool operator==(JsonView a, JsonView b);
  friend bool operator==(JsonView a, const nlohmann::json& b);

 private:
  friend class JsonDocument;
  JsonView(const JsonDocument* document, std::uint32_t index) : doc_(document), index_(index) {}
  [[nodiscard]] const JsonDocument::Entry& entry() const { return doc_->tape_[index_]; }
  [[nodiscard]] Kind kind() const { return entry().kind; }

  const JsonDocument* doc_;
  std::uint32_t index_;
};

struct JsonMember {
  std::string_view key;
  JsonView value;
};

class JsonView::Items {
 public:
  class iterator : public Step<iterator, JsonView> {
   public:
    using Step<iterator, JsonView>::operator++;
    iterator() = default;
    JsonView operator*() const { return JsonView(doc_, at_); }
    iterator& operator++() {
      at_ += doc_->span(at_);
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

   private:
    friend class Items;
    iterator(const JsonDocument* document, std::uint32_t at) : doc_(document), at_(at) {}
    const JsonDocument* doc_ = nullptr;
    std::uint32_t at_ = 0;
  };
  [[nodiscard]] iterator begin() const { return {doc_, first_}; }
  [[nodiscard]] iterator end() const { return {doc_, last_}; }

 private:
  friend class JsonView;
  Items(const JsonDocument* document, std::uint32_t first, std::uint32_t last)
      : doc_(document), first_(first), last_(last) {}
  const JsonDocument* doc_;
  std::uint32_t first_;
  std::uint32_t last_;
};

class JsonView::Members {
 public:
  // Walks the tape when the keys came in order (or for members_as_written()), else the object's
  // list in JsonDocument::order_.
  class iterator : public Step<iterator, JsonMember> {
   public:
    using Step<iterator, JsonMember>::operator++;
    iterator() = default;
    JsonMember operator*() const {
      const std::uint32_t key = order_ != nullptr ? order_[at_] : at_;
      return JsonMember{doc_->text(key), JsonView(doc_, key + 1)};
    }
    iterator& operator++() {
      at_ += order_ != nullptr ? 1 : 1 + doc_->span(at_ + 1);
      return *this;
    }
    friend bool operator==(const iterator& a, const iterator& b) { return a.at_ == b.at_; }

   private:
    friend class Members;
    iterator(const JsonDocument* document, const std::uint32_t* order, std::uint32_t at)
        : doc_(document), order_(order), at_(at) {}
    const JsonDocument* doc_ = nullptr;
    const std::uint32_t* order_ = nullptr;
    std::uint32_t at_ = 0;  // a tape index, or a position in order_
  };
  [[nodiscard]] iterator begin() const { return {doc_, order_, first_}; }
  [[nodiscard]] iterator end() const { return {doc_, order_, last_}; }

 private:
  friend class JsonView;
  Members(const JsonDocument* document, const std::uint32_t* order, std::uint32_t first,
          std::uint32_t last)
      : doc_(document), order_(order), first_(first), last_(last) {}
  const JsonDocument* doc_;
  const std::uint32_t* order_;
  std::uint32_t first_;
  std::uint32_t last_;
};

inline JsonView JsonDocument::root() const {
  return JsonView(this, 0);
}

inline std::size_t JsonView::size() const {
  const auto& e = entry();
  if (e.kind == Kind::array) return static_cast<std::size_t>(e.b);
  if (e.kind == Kind::object) return static_cast<std::size_t>(e.b & 0xFFFFFFFFU);
  return 0;
}

inline JsonView::Items JsonView::items() const {
  if (kind() != Kind::array) return {doc_, 0, 0};
  return {doc_, index_ + 1, index_ + entry().a};
}

inline JsonView::Members JsonView::members_as_written() const {
  if (kind() != Kind::object) return {doc_, nullptr, 0, 0};
  return {doc_, nullptr, index_ + 1, index_ + entry().a};
}

inline JsonView::Members JsonView::members() const {
  const auto order_at = static_cast<std::uint32_t>(entry().b >> 32);
  if (kind() != Kind::object || order_at == 0) return members_as_written();
  return {doc_, doc_->order_.data() + (order_at - 1), 0, static_cast<std::uint32_t>(size())};
}

}  // namespace accord
