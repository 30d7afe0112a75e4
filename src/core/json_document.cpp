#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "core/json_document.hpp"

#include "accord/json_view.hpp"
#include "accord/same_bytes.hpp"
#include "core/json_access.hpp"
#include "core/json_dump.hpp"
#include "core/json_scanner.hpp"
#include "core/utf8.hpp"

// The pool's kept buffers are poisoned under AddressSanitizer; elsewhere the marks do nothing.
#if defined(__has_include) && __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#ifndef ASAN_POISON_MEMORY_REGION
#define ASAN_POISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#define ASAN_UNPOISON_MEMORY_REGION(addr, size) ((void)(addr), (void)(size))
#endif

namespace accord {

namespace {

// A kept buffer is poisoned under AddressSanitizer until a document takes it, so a view read
// after its document died is still reported (without the pool the memory would be freed).
template <class Item>
void poison(const std::vector<Item>& buffer, bool on) {
  const auto* data = reinterpret_cast<const char*>(buffer.data());
  if (buffer.capacity() == 0) return;
  const std::size_t bytes = buffer.capacity() * sizeof(*buffer.data());
  if (on) {
    ASAN_POISON_MEMORY_REGION(data, bytes);
  } else {
    ASAN_UNPOISON_MEMORY_REGION(data, bytes);
  }
}

}  // namespace

// The buffers of documents that died on this thread, for the next documents written on it
// (Writer::empty_document): a ValidationResult per text then costs what reusing one document
// does, no allocation and no free. Bounded: kKept documents' buffers of at most kKeptBytes each
// (a larger one is freed at once, so one huge document does not stay resident), all freed when
// the thread ends. A document takes only buffers sized for its text, so a small document kept
// for long does not hold the room an earlier large one needed.
class JsonDocument::Pool {
 public:
  // Buffers for a document of a text of `text_bytes` (0: built from a tree, size unknown).
  static JsonDocument take(std::size_t text_bytes);
  static void give(JsonDocument& dying);

  constexpr Pool() = default;
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  // Documents that die on this thread after its pool (another thread_local's) free their own.
  ~Pool();

  static constexpr std::size_t kKept = 4;
  static constexpr std::size_t kKeptBytes = std::size_t{64} << 10;
  // What any document may take whatever its text: a tape, strings and order of a few hundred
  // values.
  static constexpr std::size_t kSmallBytes = std::size_t{4} << 10;

 private:
  // A dead document, alive only in the first size_ slots: its buffers move in and out by a move
  // construction (their pointers), where an assignment would also free what it replaced.
  union Slot {
    constexpr Slot() : none{} {}
    ~Slot() {}  // the pool ends the documents it holds
    Empty none;
    JsonDocument document;
  };
  // The document kept at `slot`, its slot then filled from the last one.
  JsonDocument release(std::size_t slot);
  static void poison(const JsonDocument& kept, bool on) {
    accord::poison(kept.tape_, on);
    accord::poison(kept.strings_, on);
    accord::poison(kept.order_, on);
  }

  std::array<Slot, kKept> kept_;
  std::size_t size_ = 0;
};

namespace {

// This thread's pool, and whether it was destroyed. File-scope rather than class statics: the
// shared library then neither exports them nor looks them up by symbol on each use.
constinit thread_local JsonDocument::Pool this_thread_pool;
constinit thread_local bool pool_closed = false;

}  // namespace

JsonDocument JsonDocument::Pool::take(std::size_t text_bytes) {
  if (!pool_closed) {
    Pool& pool = this_thread_pool;
    const std::size_t fits = 4 * text_bytes + kSmallBytes;
    for (std::size_t i = pool.size_; i-- > 0;) {
      if (pool.kept_[i].document.bytes() <= fits) return pool.release(i);
    }
  }
  return JsonDocument{Empty{}};
}

JsonDocument JsonDocument::Pool::release(std::size_t slot) {
  JsonDocument& kept = kept_[slot].document;
  poison(kept, false);
  JsonDocument document(std::move(kept));
  std::destroy_at(&kept);
  if (slot != --size_) {
    JsonDocument& last = kept_[size_].document;
    std::construct_at(&kept, std::move(last));
    std::destroy_at(&last);
  }
  return document;
}

void JsonDocument::Pool::give(JsonDocument& dying) {
  if (pool_closed) return;
  Pool& pool = this_thread_pool;
  if (pool.size_ == kKept || dying.bytes() > kKeptBytes) return;
  poison(*std::construct_at(&pool.kept_[pool.size_++].document, std::move(dying)), true);
}

// A kept document ends here with the pool closed: it frees its buffers.
JsonDocument::Pool::~Pool() {
  pool_closed = true;
  for (std::size_t i = 0; i < size_; ++i) {
    poison(kept_[i].document, false);
    std::destroy_at(&kept_[i].document);
  }
}

void JsonDocument::leave_buffers() {
  Pool::give(*this);
}

namespace {

// The members of an object whose keys are put in order from their sort keys (Writer::sort_key).
constexpr std::size_t kSmallObject = 16;

// The sort keys of a small object sorted on this thread and its member order (the positions
// of its keys in key order), when those keys had no tie: count 0 otherwise.
struct KnownOrder {
  std::size_t count = 0;
  bool in_order = false;
  std::array<std::uint64_t, kSmallObject> keys{};
  std::array<std::uint8_t, kSmallObject> positions{};
};
// The last two objects sorted of each set (shape_set) per thread, the later first: a stream's
// few shapes each keep a place, two whose hashes meet included (a third in that set pushes the
// older out; an object whose keys tie is not remembered and pushes none).
constexpr std::size_t kShapeSets = 8;
constinit thread_local std::array<std::array<KnownOrder, 2>, kShapeSets> known_orders;
// From the count and the first and last keys: shapes mostly differ in their optional members,
// and a shape that finds no place only sorts again.
std::size_t shape_set(const std::uint64_t* keys, std::size_t count) {
  const std::uint64_t hash = keys[0] ^ std::rotl(keys[count - 1], 17) ^ count;
  return static_cast<std::size_t>((hash * 0x9E3779B97F4A7C15ULL) >> 61);
}

}  // namespace

// Appends values to a document's tape in text order; a container is opened, filled and closed,
// and finish() ends the document. The tape is sized ahead for the entries to come (an Entry's
// construction stores nothing) and a value is written straight into its place: a store and a
// compare, not a call into std::vector's push_back, which g++ does not inline into the reader,
// nor a copy from a buffer.
class JsonDocument::Writer {
 public:
  using Kind = JsonDocument::Kind;

  // Starts `document` over, its capacity kept.
  explicit Writer(JsonDocument& document) : doc_(document) {
    start_over();
    doc_.strings_.clear();
  }
  // Starts `document` over for the tape reader of `text`: the document's string bytes become a
  // copy of the text and kTextPadding zero bytes, which the reader reads and leaves the strings
  // in. They are resized from the last text's, not cleared: only bytes past its end are zeroed
  // before the copy overwrites them (a cleared vector zeroed them all, through a call to memset).
  // `key_order`: false for a document members() is not called on (parse_document_unordered).
  Writer(JsonDocument& document, std::string_view text, bool key_order)
      : doc_(document), key_order_(key_order) {
    start_over();
    auto& copy = doc_.strings_;
    copy.resize(text.size() + detail::kTextPadding);
    std::copy(text.begin(), text.end(), copy.begin());
    std::fill_n(copy.end() - detail::kTextPadding, detail::kTextPadding, '\0');
  }
  // The copy of the text the Writer was started with.
  char* text_copy() { return doc_.strings_.data(); }
  // A throw mid-document (bad_alloc) leaves no unset entry on the tape: it is cut to those
  // written, as finish() cuts it.
  ~Writer() {
    if (doc_.tape_.size() != next_index()) finish();
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;
  // A document with no entry, for a Writer to fill (the default one allocates its null), holding
  // the buffers of one that died on this thread when the pool has some sized for `text_bytes`.
  static JsonDocument empty_document(std::size_t text_bytes = 0) { return Pool::take(text_bytes); }

  void scalar(Kind kind, std::uint64_t bits = 0) { push(kind, 0, bits); }
  [[gnu::always_inline]] void number(const detail::ScannedNumber& number) {
    if (number.kind == detail::ScannedNumber::floating) {
      push(Kind::number_float, 0, std::bit_cast<std::uint64_t>(number.real));
    } else {
      push(number.kind == detail::ScannedNumber::integer ? Kind::number_integer
                                                         : Kind::number_unsigned,
           0, number.bits);
    }
  }
  // A string whose bytes are at `offset` in the document's string bytes, from a text shorter than
  // 4 GiB.
  [[gnu::always_inline]] void string_in_text(Kind kind, std::size_t offset, std::size_t length) {
    push(kind, static_cast<std::uint32_t>(length), offset);
  }
  void string(Kind kind, std::string_view text) {
    if (text.size() > std::numeric_limits<std::uint32_t>::max()) too_large();
    const std::size_t offset = doc_.strings_.size();
    doc_.strings_.insert(doc_.strings_.end(), text.begin(), text.end());
    string_in_text(kind, offset, text.size());
  }
  // Room for `entries` on the tape before it next grows.
  void reserve(std::size_t entries) {
    const std::uint32_t written = next_index();
    doc_.tape_.resize(std::max<std::size_t>(std::min(entries, kMaxEntries), written));
    point_at_room(written);
  }
  // The tape down to the entries written (an erase, inlined, where a resize's growing branch
  // kept it a call).
  void finish() { doc_.tape_.erase(doc_.tape_.begin() + next_index(), doc_.tape_.end()); }
  std::uint32_t open(Kind kind) {
    push(kind, 0, 0);
    return next_index() - 1;
  }
  // False when an object repeats a key: nlohmann keeps the last value, which a tape in text order
  // cannot say cheaply, so the caller leaves such text to nlohmann.
  bool close(std::uint32_t at, std::uint32_t count) {
    end_container(at, count);
    if (entry_at(at).kind == Kind::array || count < 2) return true;
    if (count > kSmallObject) return order_by_text(at);
    // Keys found on the tape, for the objects no reader kept them for.
    std::array<std::uint64_t, kSmallObject> keys;
    std::array<std::uint32_t, kSmallObject> key_at;
    std::uint32_t i = 0;
    for (std::uint32_t key = at + 1; i < count; key += 1 + doc_.span(key + 1), ++i) {
      const std::string_view text = doc_.text(key);
      key_at[i] = key;
      keys[i] = sort_key(text, i, doc_.strings_.data() + doc_.strings_.size() - text.data() >= 8);
    }
    return key_order_ ? order_small_object<true>(at, keys.data(), key_at.data())
                      : order_small_object<false>(at, keys.data(), key_at.data());
  }

  // A small object's key as an integer that sorts as the key does, decided by its first seven
  // bytes (the most significant first, zeros after a shorter key); the low byte holds the key's
  // position in the object (`i`), so the integers of one object always differ. `loadable`: eight
  // bytes can be read from the key's first (true of any key read from text: it lies in the
  // padded copy).
  static std::uint64_t sort_key(std::string_view key, std::uint32_t i, bool loadable) {
    const std::size_t length = std::min<std::size_t>(key.size(), 8);
    std::uint64_t prefix = 0;
    if (loadable) {
      std::memcpy(&prefix, key.data(), 8);
      if constexpr (std::endian::native == std::endian::little) prefix = byte_swap(prefix);
      if (length < 8) prefix &= ~(~std::uint64_t{0} >> (8 * length));
    } else {
      for (std::size_t b = 0; b < length; ++b) {
        prefix |= std::uint64_t{static_cast<unsigned char>(key[b])} << (56 - 8 * b);
      }
    }
    return (prefix & ~std::uint64_t{0xFF}) | i;
  }
  // close() for an object of 2 to kSmallObject members whose keys the reader kept as it read
  // them: sort_key(key i, i) and the key's tape index, for each member i.
  bool close_object(std::uint32_t at, std::uint32_t count, std::uint64_t* keys,
                    const std::uint32_t* key_at) {
    end_container(at, count);
    return key_order_ ? order_small_object<true>(at, keys, key_at)
                      : order_small_object<false>(at, keys, key_at);
  }
  [[nodiscard]] std::uint32_t next_index() const {
    return static_cast<std::uint32_t>(next_ - first_);
  }

 private:
  [[gnu::always_inline]] void push(Kind kind, std::uint32_t a, std::uint64_t b) {
    if (next_ == room_end_) [[unlikely]]
      grow();
    *next_++ = JsonDocument::Entry{kind, a, b};
  }
  void start_over() {
    doc_.tape_.clear();
    doc_.order_.clear();
    point_at_room(0);
  }
  // Doubles the tape's room (the entries written so far stay).
  void grow() {
    const std::size_t room = doc_.tape_.size();
    if (room == kMaxEntries) too_large();
    reserve(std::max<std::size_t>(2 * room, 16));
  }
  // The tape, sized to its room, after `written` entries.
  void point_at_room(std::uint32_t written) {
    auto& tape = doc_.tape_;
    first_ = tape.data();
    next_ = first_ + written;
    room_end_ = first_ + tape.size();
  }
  static constexpr std::size_t kMaxEntries = std::numeric_limits<std::uint32_t>::max();
  [[noreturn]] static void too_large() {
    throw std::length_error("a JSON value of 4 GiB or more entries or string bytes");
  }

  JsonDocument::Entry& entry_at(std::uint32_t at) { return first_[at]; }

  void end_container(std::uint32_t at, std::uint32_t count) {
    auto& entry = entry_at(at);
    entry.a = next_index() - at;
    entry.b = count;
  }

  // Members are iterated in key order, as nlohmann's std::map does. Text usually gives a small
  // object's keys in some other order, so the order is kept beside the tape rather than moving
  // subtrees, and only when it differs from the text's. A document left in the text's order
  // (kKeyOrder false: key_order_, decided once per object by the caller) records none, but its
  // keys are checked all the same, the same way: a shape known on this thread (sorted once, its
  // keys found to differ) costs a compare per key where holding each key against the earlier
  // ones cost a compare per pair (a reply envelope's top level has eight).
  template <bool kKeyOrder>
  bool order_small_object(std::uint32_t at, std::uint64_t* keys, const std::uint32_t* key_at) {
    const auto count = static_cast<std::size_t>(entry_at(at).b);
    // Documents of one stream mostly share a few shapes: an object whose sort keys are those of
    // an object sorted before takes its order (the sort keys hold each key's position, so equal
    // ones sort alike).
    auto& known = known_orders[shape_set(keys, count)];
    for (const KnownOrder& shape : known) {
      if (count == shape.count && std::equal(keys, keys + count, shape.keys.begin())) {
        if (kKeyOrder && !shape.in_order) append_order(at, key_at, shape.positions.data(), count);
        return true;
      }
    }
    // The set's newer shape becomes its older one only for a shape that can be remembered (one
    // whose keys tie is not), so such objects do not push the stream's usual shapes out.
    std::array<std::uint64_t, kSmallObject> unsorted;
    std::copy(keys, keys + count, unsorted.begin());
    // Insertion sort: a small object is nearly always at most a dozen members.
    bool in_order = true;
    for (std::size_t i = 1; i < count; ++i) {
      const std::uint64_t moving = keys[i];
      std::size_t hole = i;
      for (; hole > 0 && moving < keys[hole - 1]; --hole) keys[hole] = keys[hole - 1];
      keys[hole] = moving;
      in_order = in_order && hole == i;
    }
    // Keys alike in their first seven bytes (or repeated) are ordered, or told apart, by their
    // whole text.
    for (std::size_t i = 1; i < count; ++i) {
      if ((keys[i - 1] ^ keys[i]) >> 8 == 0) {
        return kKeyOrder ? order_by_text(at) : alike_keys_differ(keys, key_at, count);
      }
    }
    known[1] = known[0];
    KnownOrder& last = known[0];
    last.keys = unsorted;
    last.count = count;
    last.in_order = in_order;
    if (in_order) return true;
    // Kept whatever this document's mode: a document in key order may meet the shape next.
    for (std::size_t i = 0; i < count; ++i) {
      last.positions[i] = static_cast<std::uint8_t>(keys[i] & 0xFF);
    }
    if (kKeyOrder) append_order(at, key_at, last.positions.data(), count);
    return true;
  }

  // Whether the keys of an object differ, from their sort keys in order: only keys alike in
  // their first seven bytes (a run of equal prefixes) are compared by their whole text. An
  // envelope's usage has two such pairs (prompt_tokens and prompt_tokens_details): putting it in
  // order by text cost several times as much.
  bool alike_keys_differ(const std::uint64_t* sorted, const std::uint32_t* key_at,
                         std::size_t count) const {
    for (std::size_t i = 1; i < count; ++i) {
      for (std::size_t j = i; j-- > 0 && (sorted[j] ^ sorted[i]) >> 8 == 0;) {
        if (doc_.text(key_at[sorted[i] & 0xFF]) == doc_.text(key_at[sorted[j] & 0xFF])) {
          return false;
        }
      }
    }
    return true;
  }

  bool order_by_text(std::uint32_t at) {
    const std::uint32_t end = at + doc_.tape_[at].a;
    const auto by_key = [&](std::uint32_t x, std::uint32_t y) {
      return doc_.text(x) < doc_.text(y);
    };
    // The in-order check needs no list (a repeated key is not "in order").
    std::uint32_t previous = at + 1;
    bool in_order = true;
    for (std::uint32_t key = previous + 1 + doc_.span(previous + 1); key < end && in_order;
         key += 1 + doc_.span(key + 1)) {
      in_order = by_key(previous, key);
      previous = key;
    }
    if (in_order) return true;
    auto& order = doc_.order_;
    const std::size_t first = order.size();
    for (std::uint32_t key = at + 1; key < end; key += 1 + doc_.span(key + 1)) order.push_back(key);
    std::sort(order.begin() + static_cast<std::ptrdiff_t>(first), order.end(), by_key);
    for (std::size_t i = first + 1; i < order.size(); ++i) {
      if (doc_.text(order[i - 1]) == doc_.text(order[i])) return false;
    }
    doc_.tape_[at].b |= static_cast<std::uint64_t>(first + 1) << 32;
    return true;
  }

  // Records the member order of the object at `at`: key_at[positions[i]] is the tape index of
  // its i-th key in key order. The first growth of order_ takes room for a key every other tape
  // entry, so one document's objects need one allocation.
  void append_order(std::uint32_t at, const std::uint32_t* key_at, const std::uint8_t* positions,
                    std::size_t count) {
    auto& order = doc_.order_;
    const std::size_t first = order.size();
    if (order.capacity() - first < count) {
      order.reserve(std::max(first + count, doc_.tape_.capacity() / 2));
    }
    std::array<std::uint32_t, kSmallObject> keys;
    for (std::size_t i = 0; i < count; ++i) keys[i] = key_at[positions[i]];
    order.insert(order.end(), keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(count));
    entry_at(at).b |= static_cast<std::uint64_t>(first + 1) << 32;
  }

  static std::uint64_t byte_swap(std::uint64_t x) {
#if defined(__GNUC__)
    return __builtin_bswap64(x);  // g++ -O2 does not see the loop below as one instruction
#else
    std::uint64_t swapped = 0;
    for (int i = 0; i < 8; ++i) swapped = (swapped << 8) | ((x >> (8 * i)) & 0xFF);
    return swapped;
#endif
  }

  JsonDocument& doc_;
  // Whether close() puts a small object's members in key order (members() needs it) or only
  // checks that its keys differ.
  bool key_order_ = true;
  // The tape's first entry, where the next is written, and the end of its room (its size while
  // written).
  JsonDocument::Entry* first_ = nullptr;
  JsonDocument::Entry* next_ = nullptr;
  JsonDocument::Entry* room_end_ = nullptr;
};

namespace detail {
namespace {

using TapeWriter = JsonDocument::Writer;
using Kind = TapeWriter::Kind;

// The quick reader's rules (core/fast_json.hpp) writing a tape instead of a tree: it gives up
// on exactly what that reader gives up on. It reads the document's own copy of the text, padded
// (core/json_scanner.hpp), where strings stay: a string without escapes is recorded where it
// lies, and one with escapes is decoded over its own text (never longer than what it decodes).
class TapeReader : BasicJsonScanner<true> {
 public:
  // `copy`: the text, then kTextPadding zero bytes.
  TapeReader(char* copy, std::size_t size, std::size_t max_depth, TapeWriter& out)
      : BasicJsonScanner(std::string_view(copy, size)),
        copy_(copy),
        max_depth_(max_depth),
        out_(out) {}

  bool document() {
    skip_space();
    if (!value(0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  bool value(std::size_t depth) {
    switch (*p_) {
      case '{':
        return object(depth + 1);
      case '[':
        return array(depth + 1);
      case '"': {
        std::string_view bytes;
        return string(Kind::string, bytes);
      }
      case 't':
        out_.scalar(Kind::boolean_true);
        return literal("true");
      case 'f':
        out_.scalar(Kind::boolean_false);
        return literal("false");
      case 'n':
        out_.scalar(Kind::null);
        return literal("null");
      default:
        return number();
    }
  }

  // At a number's first byte: reads it onto the tape.
  [[gnu::always_inline]] bool number() {
    ScannedNumber scanned;
    if (!BasicJsonScanner::number(scanned)) return false;
    out_.number(scanned);
    return true;
  }

  // Decodes a string over its own escaped text: `end` is where the next decoded byte goes.
  struct InPlace {
    char* end;
    // The run of plain bytes from `first` to `last` moved down to `end`, which lies before
    // `first` (an escape decodes to fewer bytes than its text), as memmove would, inline: the
    // runs between the escaped quotes of a JSON text held in a string are a few bytes, and a call
    // to memmove cost several times their copy. Words are copied upward, each loaded before it is
    // stored, so a store never reaches a byte not yet loaded; the last word is loaded first.
    void append(const char* first, const char* last) {
      const auto length = static_cast<std::size_t>(last - first);
      if (length >= 8) {
        const std::uint64_t tail = load<std::uint64_t>(last - 8);
        for (std::size_t i = 0; i + 8 < length; i += 8) {
          store(end + i, load<std::uint64_t>(first + i));
        }
        store(end + length - 8, tail);
      } else if (length >= 4) {
        move_pair<std::uint32_t>(first, length);
      } else if (length >= 2) {
        move_pair<std::uint16_t>(first, length);
      } else if (length == 1) {
        *end = *first;
      }
      end += length;
    }
    // A run of one to two Words' length: its first and last Word, both loaded before storing.
    template <class Word>
    void move_pair(const char* first, std::size_t length) {
      const auto head = load<Word>(first);
      const auto tail = load<Word>(first + length - sizeof(Word));
      store(end, head);
      store(end + length - sizeof(Word), tail);
    }
    void operator+=(char c) { *end++ = c; }

    template <class Word>
    static Word load(const char* from) {
      Word word;
      std::memcpy(&word, from, sizeof(word));
      return word;
    }
    template <class Word>
    static void store(char* to, Word word) {
      std::memcpy(to, &word, sizeof(word));
    }
  };

  // Records the string at the opening quote; `bytes` is then its bytes (a local, not a member:
  // the bytes of a value, which no caller reads, are then never stored).
  [[gnu::always_inline]] bool string(Kind kind, std::string_view& bytes) {
    ++p_;
    char* start = copy_ + (p_ - copy_);
    if (!skip_plain()) return false;
    if (*p_ == '"') {
      bytes = std::string_view(start, static_cast<std::size_t>(p_ - start));
      ++p_;
    } else {
      InPlace decoded{copy_ + (p_ - copy_)};
      if (!unescape(decoded)) return false;
      bytes = std::string_view(start, static_cast<std::size_t>(decoded.end - start));
    }
    out_.string_in_text(kind, static_cast<std::size_t>(start - copy_), bytes.size());
    return true;
  }

  // At a string's first byte that is not plain and not its closing quote (a backslash, or a
  // control byte the string may not hold), the bytes before it decoded (as they are) to
  // `decoded`: decodes the rest over its own text, to past the closing quote. A JSON text held in
  // a string (a model's reply in its envelope) has an escaped quote every few bytes: the special
  // bytes of a 16-byte block are found once and taken one after another, where scanning afresh
  // after each escape (string_from) cost about 1.4 times as much. Bytes are only ever stored below
  // the one being read, so the block's bytes still to be taken are as the mask saw them. The
  // cursors are locals, not members: a byte stored through a char pointer may alias any member,
  // which would be reloaded after each store.
  bool unescape(InPlace& decoded) {
    InPlace out{decoded.end};
    const char* run = p_;    // the first byte not yet moved down to `out`
    const char* taken = p_;  // past the last special byte taken
    const char* block = p_;
    while (true) {
      unsigned mask = scan::special_bytes(block);
      while (mask != 0) {
        const char* at = block + std::countr_zero(mask);
        const auto c = static_cast<unsigned char>(*at);
        if (c == '\\') {
          out.append(run, at);
          if (const char letter = scan::kShortEscapes[static_cast<unsigned char>(at[1])]) {
            out += letter;
            taken = at + 2;
          } else {
            InPlace unicode{out.end};  // its own: `out` stays out of memory
            p_ = at;
            if (!escape(unicode)) return false;
            out.end = unicode.end;
            taken = p_;
          }
          run = taken;
        } else if (c == '"') {
          out.append(run, at);
          decoded.end = out.end;
          p_ = at + 1;
          return true;
        } else if (c >= 0x80) {
          const auto length = scan::utf8_sequence(reinterpret_cast<const unsigned char*>(at),
                                                  reinterpret_cast<const unsigned char*>(end_));
          if (length == 0) return false;
          taken = at + length;
        } else {
          return false;  // a control byte, or the padding's zero: the text ends in the string
        }
        const auto past = taken - block;
        mask = past >= 16 ? 0 : mask & (~0U << past);
      }
      block = std::max(block + 16, taken);
    }
  }

  bool enter(std::size_t depth) {
    if (depth > max_depth_ || depth > kMaxQuickRecursion) return false;
    ++p_;
    skip_space();
    return true;
  }

  // Past `close` when a container has nothing in it.
  bool empty(char close) {
    if (*p_ != close) return false;
    ++p_;
    return true;
  }

  // At ',' or the closing byte after an item or member: true when more follow.
  bool next(char close, bool& more_follow) {
    skip_space();
    if (*p_ == ',') {
      ++p_;
      skip_space();
      more_follow = true;
      return true;
    }
    more_follow = false;
    return empty(close);
  }

  bool array(std::size_t depth) {
    const std::uint32_t at = out_.open(Kind::array);
    if (!enter(depth)) return false;
    if (empty(']')) return out_.close(at, 0);
    std::uint32_t count = 0;
    for (bool more_items = true; more_items; ++count) {
      if (!value(depth) || !next(']', more_items)) return false;
    }
    return out_.close(at, count);
  }

  // The keys of a small object are put in order from the sort keys kept here as they are read
  // (a stack: a nested object's are above its parent's until it closes); a larger object, or one
  // read when the stack is full, is put in order from the tape.
  bool object(std::size_t depth) {
    const std::uint32_t at = out_.open(Kind::object);
    if (!enter(depth)) return false;
    if (empty('}')) return out_.close(at, 0);
    std::uint32_t count = 0;
    const std::size_t first = kept_;
    for (bool more_members = true; more_members; ++count) {
      const std::uint32_t key = out_.next_index();
      std::string_view bytes;
      if (*p_ != '"' || !string(Kind::key, bytes)) return false;
      if (count < kSmallObject && kept_ < kKeptKeys) {
        keys_[kept_] = TapeWriter::sort_key(bytes, count, true);
        key_at_[kept_] = key;
        ++kept_;
      }
      if (*p_ != ':') {  // compact text has it at once
        skip_space();
        if (*p_ != ':') return false;
      }
      ++p_;
      skip_space();
      // A string or a number, the commonest member values, is read here rather than through a
      // call to value().
      bool read = false;
      if (*p_ == '"') {
        read = string(Kind::string, bytes);
      } else if (scan::is_digit(*p_) || *p_ == '-') {
        read = number();
      } else {
        read = value(depth);
      }
      if (!read || !next('}', more_members)) return false;
    }
    const bool kept_all = kept_ - first == count && count >= 2;
    kept_ = first;
    return kept_all ? out_.close_object(at, count, &keys_[first], &key_at_[first])
                    : out_.close(at, count);
  }

  static constexpr std::size_t kKeptKeys = 64;

  char* copy_;
  std::size_t max_depth_;
  TapeWriter& out_;
  // The sort keys (TapeWriter::sort_key) and tape indices of the keys of the objects open.
  std::array<std::uint64_t, kKeptKeys> keys_;
  std::array<std::uint32_t, kKeptKeys> key_at_;
  std::size_t kept_ = 0;
};

// Writes `value` (a nlohmann::json or an ordered_json) to the tape without recursion (a tree
// handed in may nest arbitrarily deep), its members in the tree's order.
template <class Json>
void write_tree(const Json& value, TapeWriter& out) {
  using Type = typename Json::value_t;
  struct Open {
    const Json* container;
    typename Json::const_iterator next;
    std::uint32_t at;
  };
  std::vector<Open> open;
  const auto put = [&](const Json& v) {
    switch (v.type()) {
      case Type::boolean:
        out.scalar(v.template get<bool>() ? Kind::boolean_true : Kind::boolean_false);
        break;
      case Type::number_unsigned:
        out.scalar(Kind::number_unsigned, v.template get<std::uint64_t>());
        break;
      case Type::number_integer:
        out.scalar(Kind::number_integer,
                   static_cast<std::uint64_t>(v.template get<std::int64_t>()));
        break;
      case Type::number_float:
        out.scalar(Kind::number_float, std::bit_cast<std::uint64_t>(v.template get<double>()));
        break;
      case Type::string:
        out.string(Kind::string, v.template get_ref<const std::string&>());
        break;
      case Type::array:
      case Type::object:
        open.push_back(Open{&v, v.cbegin(), out.open(v.is_array() ? Kind::array : Kind::object)});
        break;
      default:  // null, and the binary and discarded values no JSON text has
        out.scalar(Kind::null);
        break;
    }
  };
  put(value);
  while (!open.empty()) {
    Open& top = open.back();
    if (top.next == top.container->cend()) {
      // Either tree's keys are unique (a std::map's, or an ordered_map's, which replaces a
      // repeated key's value): this close cannot fail.
      out.close(top.at, static_cast<std::uint32_t>(top.container->size()));
      open.pop_back();
      continue;
    }
    const Json& child = *top.next;
    if (top.container->is_object()) out.string(Kind::key, top.next.key());
    ++top.next;
    put(child);  // may grow `open`: `top` is not used after this
  }
}

template <class Json>
JsonDocument document_from(const Json& value) {
  JsonDocument document = TapeWriter::empty_document();
  TapeWriter out(document);
  write_tree(value, out);
  out.finish();
  return document;
}

// nlohmann's == on trees, for a view against a view or a tree (number kinds compare as there: two
// integers by their bits as int64, anything with a float as doubles; objects member by member in
// key order).

template <class Other>
bool same_items(JsonView a, const Other& b);
template <class Other>
bool same_members(JsonView a, const Other& b);

template <class Other>
bool equal(JsonView a, const Other& b) {
  const JsonType ta = type_of(a);
  const JsonType tb = type_of(b);
  if (is_number_type(ta) && is_number_type(tb)) {
    const NumberValue na = number_of(a);
    const NumberValue nb = number_of(b);
    if (ta != JsonType::number_float && tb != JsonType::number_float) return na.bits == nb.bits;
    return as_double(na) == as_double(nb);
  }
  if (ta != tb) return false;
  switch (ta) {
    case JsonType::boolean:
      return a.get_bool() == boolean_of(b);
    case JsonType::string:
      return text_of(a) == text_of(b);
    case JsonType::array:
      return a.size() == b.size() && same_items(a, b);
    case JsonType::object:
      return a.size() == b.size() && same_members(a, b);
    default:
      return true;  // null
  }
}

template <class Other>
bool same_items(JsonView a, const Other& b) {
  auto other = std::begin(items_of(b));
  return every_item(a, [&](JsonView item) { return equal(item, *other++); });
}

template <class Other>
bool same_members(JsonView a, const Other& b) {
  if constexpr (std::is_same_v<Other, JsonView>) {
    auto other = b.members().begin();
    for (const JsonMember& member : a.members()) {
      const JsonMember theirs = *other++;
      if (member.key != theirs.key || !equal(member.value, theirs.value)) return false;
    }
  } else {
    auto other = b.cbegin();
    for (const JsonMember& member : a.members()) {
      if (member.key != other.key() || !equal(member.value, *other)) return false;
      ++other;
    }
  }
  return true;
}

// A string as nlohmann's dump() writes it; text that is not UTF-8 throws as nlohmann's would.
void dump_string(std::string_view text, std::string& out) {
  if (!is_valid_utf8(text)) {
    out += nlohmann::json(std::string(text)).dump();
    return;
  }
  out += '"';
  append_escaped_utf8(text, out);
  out += '"';
}

}  // namespace

namespace {

// The letter of a byte's short escape (\" \\ \b \f \n \r \t), 'u' for the other control
// characters (\u00xx), 0 for a byte written as it is.
constexpr std::array<char, 256> kDumpEscapeLetter = [] {
  std::array<char, 256> letters{};
  for (int c = 0; c < 0x20; ++c) letters[static_cast<std::size_t>(c)] = 'u';
  for (const auto& [letter, byte] : scan::kShortEscapeLetters) {
    // \/ is read, but '/' is written as it is.
    if (byte != '/') letters[static_cast<unsigned char>(byte)] = letter;
  }
  return letters;
}();

// How many bytes a byte's escape adds to it: 0, 1 for a short escape, 5 for \u00xx.
constexpr std::array<unsigned char, 256> kDumpEscapeGrowth = [] {
  std::array<unsigned char, 256> growth{};
  for (std::size_t c = 0; c < growth.size(); ++c) {
    const char letter = kDumpEscapeLetter[c];
    growth[c] = letter == 0 ? 0 : letter == 'u' ? 5 : 1;
  }
  return growth;
}();

}  // namespace

// Sized first, then written through a pointer: appending an escape at a time cost about 20
// instructions a byte of a JSON text held in a string (a model's reply inside its envelope).
// The bytes before the first one that may need an escape are found sixteen at a time and
// appended as they are: a text with none (a prompt, most keys) is never looked at byte by byte.
void append_escaped_utf8(std::string_view text, std::string& out) {
  const char* plain_end = scan::plain_ascii_end(text.data(), text.data() + text.size());
  const auto plain = static_cast<std::size_t>(plain_end - text.data());
  out.append(text.substr(0, plain));
  text.remove_prefix(plain);
  std::size_t growth = 0;
  for (const char c : text) growth += kDumpEscapeGrowth[static_cast<unsigned char>(c)];
  if (growth == 0) {
    out.append(text);
    return;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  const std::size_t at = out.size();
  out.resize(at + text.size() + growth);
  char* to = out.data() + at;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const char letter = kDumpEscapeLetter[byte];
    if (letter == 0) {
      *to++ = c;
    } else if (letter != 'u') {
      to[0] = '\\';
      to[1] = letter;
      to += 2;
    } else {
      std::memcpy(to, "\\u00", 4);
      to[4] = kHex[byte >> 4];
      to[5] = kHex[byte & 0xF];
      to += 6;
    }
  }
}

void append_json_escaped(std::string_view text, std::string& out) {
  if (!is_valid_utf8(text)) {
    // nlohmann's serialiser gives the replacement characters, at the cost of a temporary.
    const std::string quoted =
        nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out.append(quoted, 1, quoted.size() - 2);
    return;
  }
  append_escaped_utf8(text, out);
}

void append_json_string(std::string_view text, std::string& out) {
  out += '"';
  append_json_escaped(text, out);
  out += '"';
}

void dump_value(JsonView value, MemberOrder order, std::string& out) {
  switch (type_of(value)) {
    case JsonType::null:
      out += "null";
      return;
    case JsonType::boolean:
      out += value.get_bool() ? "true" : "false";
      return;
    case JsonType::number_unsigned:
      out += std::to_string(value.get_unsigned());
      return;
    case JsonType::number_integer:
      out += std::to_string(value.get_integer());
      return;
    case JsonType::number_float:
      out += nlohmann::json(value.get_double()).dump();  // nlohmann's shortest round trip
      return;
    case JsonType::string:
      dump_string(value.get_string(), out);
      return;
    case JsonType::array: {
      out += '[';
      bool first = true;
      for (JsonView item : value.items()) {
        if (!first) out += ',';
        first = false;
        dump_value(item, order, out);
      }
      out += ']';
      return;
    }
    default: {
      out += '{';
      bool first = true;
      const auto write = [&](const JsonMember& member) {
        if (!first) out += ',';
        first = false;
        dump_string(member.key, out);
        out += ':';
        dump_value(member.value, order, out);
      };
      // The tape holds members in the text's order, members() gives key order.
      const auto members = order == MemberOrder::key ? value.members() : value.members_as_written();
      for (const JsonMember& member : members) write(member);
      out += '}';
      return;
    }
  }
}

}  // namespace detail

JsonDocument::JsonDocument() : tape_{Entry{Kind::null, 0, 0}} {}

JsonDocument JsonDocument::from_json(const nlohmann::json& value) {
  return detail::document_from(value);
}

JsonDocument detail::document_from_ordered_json(const nlohmann::ordered_json& value) {
  return document_from(value);
}

std::size_t JsonDocument::bytes() const {
  return tape_.capacity() * sizeof(Entry) + strings_.capacity() +
         order_.capacity() * sizeof(std::uint32_t);
}

namespace detail {
namespace {

// parse_document into `reuse`; `key_order`: whether each small object's members are put in key
// order, as members() gives them (else only their keys are checked to differ). Inlined into each
// caller: called out of line, it cost every document validated 14 instructions.
[[gnu::always_inline]] inline Issues read_document(std::string_view text, ParseLimits limits,
                                                   bool key_order, JsonDocument& reuse) {
  // Lengths and offsets of strings in the text then fit the tape's 32 bits.
  if (text.size() <= limits.max_bytes && text.size() < std::numeric_limits<std::uint32_t>::max()) {
    TapeWriter out(reuse, text, key_order);
    // The tape gets one entry for a value every 8 bytes, which JSON from a model rarely exceeds.
    out.reserve(text.size() / 8 + 8);
    if (TapeReader(out.text_copy(), text.size(), limits.max_depth, out).document()) {
      out.finish();
      return {};
    }
  }
  // The quick reader gave up: nlohmann reads the text, for its value or its error message.
  ParsedJson tree = parse_json(text, limits);
  TapeWriter out(reuse);
  if (!tree.value) {
    out.scalar(Kind::null);
    out.finish();
    return std::move(tree.issues);
  }
  // The value once more as an ordered_json, whose members stay in the text's order (a repeated
  // key's last value at its first place, as ordered_json::parse keeps it): the tape holds them in
  // that order, as the quick reader's does, so a dump in text order (core/json_dump.hpp) writes
  // back what the model wrote. This text is rare (a repeated key, an integer of 19 or more
  // digits); the first tree is freed first, so a large reply is held as one tree at a time.
  tree.value.reset();
  write_tree(parse_ordered_json(text, /*allow_exceptions=*/false), out);
  out.finish();
  return {};
}

// read_document into a fresh document in `into`, left empty when the text is not read. Inlined,
// as read_document is: every Validator::parse_and_validate (a reply judged, a line validated) reads
// its text through here.
[[gnu::always_inline]] inline Issues read_document_into(std::string_view text, ParseLimits limits,
                                                        bool key_order,
                                                        std::optional<JsonDocument>& into) {
  Issues issues =
      read_document(text, limits, key_order, into.emplace(TapeWriter::empty_document(text.size())));
  if (!issues.empty()) into.reset();
  return issues;
}

}  // namespace
}  // namespace detail

ParsedDocument parse_document(std::string_view text, ParseLimits limits) {
  ParsedDocument parsed;
  parsed.issues = detail::parse_document_into(text, limits, parsed.document);
  return parsed;
}

Issues detail::parse_document_into(std::string_view text, ParseLimits limits,
                                   std::optional<JsonDocument>& into) {
  return read_document_into(text, limits, /*key_order=*/true, into);
}

ParsedDocument detail::parse_document_unordered(std::string_view text, ParseLimits limits) {
  ParsedDocument parsed;
  parsed.issues = read_document_into(text, limits, /*key_order=*/false, parsed.document);
  return parsed;
}

Issues parse_document(std::string_view text, ParseLimits limits, JsonDocument& reuse) {
  return detail::read_document(text, limits, /*key_order=*/true, reuse);
}

const char* JsonView::type_name() const {
  switch (detail::type_of(*this)) {
    case detail::JsonType::null:
      return "null";
    case detail::JsonType::boolean:
      return "boolean";
    case detail::JsonType::string:
      return "string";
    case detail::JsonType::array:
      return "array";
    case detail::JsonType::object:
      return "object";
    default:
      return "number";
  }
}

double JsonView::get_double() const {
  const auto& e = entry();
  if (e.kind == Kind::number_float) return std::bit_cast<double>(e.b);
  if (e.kind == Kind::number_integer) return static_cast<double>(static_cast<std::int64_t>(e.b));
  return static_cast<double>(e.b);
}

std::optional<JsonView> JsonView::find(std::string_view key) const {
  if (kind() != Kind::object) return std::nullopt;
  const auto order_at = static_cast<std::uint32_t>(entry().b >> 32);
  if (order_at == 0 || size() <= 16) {
    // A small object is scanned on the tape, the length deciding most comparisons and a word
    // or two the rest (keys are short: a call to memcmp would cost more).
    for (std::uint32_t at = index_ + 1, end = index_ + entry().a; at < end;
         at += 1 + doc_->span(at + 1)) {
      const auto& candidate = doc_->tape_[at];
      if (candidate.a == key.size() &&
          bytes_detail::same_bytes(doc_->strings_.data() + candidate.b, key.data(), key.size())) {
        return JsonView(doc_, at + 1);
      }
    }
    return std::nullopt;
  }
  const auto first = doc_->order_.begin() + (order_at - 1);
  const auto last = first + static_cast<std::ptrdiff_t>(size());
  const auto at = std::lower_bound(first, last, key, [&](std::uint32_t k, std::string_view wanted) {
    return doc_->text(k) < wanted;
  });
  if (at == last || doc_->text(*at) != key) return std::nullopt;
  return JsonView(doc_, *at + 1);
}

nlohmann::json JsonView::to_json() const {
  switch (kind()) {
    case Kind::null:
      return nullptr;
    case Kind::boolean_false:
      return false;
    case Kind::boolean_true:
      return true;
    case Kind::number_unsigned:
      return get_unsigned();
    case Kind::number_integer:
      return get_integer();
    case Kind::number_float:
      return get_double();
    case Kind::string:
    case Kind::key:
      // Built from the view in the tree's own string: no std::string made and moved in.
      return nlohmann::json(get_string());
    case Kind::array: {
      // Not json::array(): that goes through the initializer-list constructor.
      nlohmann::json out(nlohmann::json::value_t::array);
      auto& items = out.get_ref<nlohmann::json::array_t&>();
      items.reserve(size());
      for (JsonView item : this->items()) items.push_back(item.to_json());
      return out;
    }
    case Kind::object: {
      nlohmann::json out(nlohmann::json::value_t::object);
      auto& members = out.get_ref<nlohmann::json::object_t&>();
      // Members come in key order: each goes in at the end, its key built in the map's node
      // from the view (no key string made and moved in).
      for (const JsonMember& member : this->members()) {
        members.emplace_hint(members.end(), std::piecewise_construct,
                             std::forward_as_tuple(member.key),
                             std::forward_as_tuple(member.value.to_json()));
      }
      return out;
    }
  }
  return nullptr;
}

std::string JsonView::dump() const {
  std::string out;
  detail::dump_value(*this, detail::MemberOrder::key, out);
  return out;
}

bool operator==(JsonView a, JsonView b) {
  return detail::equal(a, b);
}

bool operator==(JsonView a, const nlohmann::json& b) {
  return detail::equal(a, b);
}

}  // namespace accord
