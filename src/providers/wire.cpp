#include "providers/wire.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <vector>

#include "accord/json_text.hpp"
#include "accord/printable.hpp"
#include "core/fast_json.hpp"
#include "core/json_access.hpp"
#include "core/json_depth.hpp"
#include "core/json_document.hpp"
#include "core/json_dump.hpp"
#include "core/utf8.hpp"

namespace accord::detail {

namespace {

std::atomic<std::size_t> trees_built{0};

}  // namespace

std::size_t envelope_trees_built() {
  return trees_built.load(std::memory_order_relaxed);
}

std::optional<ojson> parse_body(std::string_view body, std::string& problem) {
  if (body.empty()) {
    problem = "the body is empty";
    return std::nullopt;
  }
  trees_built.fetch_add(1, std::memory_order_relaxed);
  // The quick reader takes the usual envelope (it stops at the depth limit itself); what it
  // declines goes to nlohmann's parser, after a depth check.
  if (auto quick = fast_parse_ordered_json(body, kMaxReplyDepth)) return quick;
  if (first_too_deep(body, kMaxReplyDepth) != std::string_view::npos) {
    problem = "the body nests deeper than " + std::to_string(kMaxReplyDepth) + " levels";
    return std::nullopt;
  }
  // Linear in the number of keys, however many a hostile envelope carries.
  ojson parsed = parse_ordered_json(body, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) {
    problem = "the body is not JSON: " + snippet(body);
    return std::nullopt;
  }
  return parsed;
}

bool is_success(long status) {
  return status >= 200 && status < 300;
}

template <class Json>
std::optional<Reply> error_envelope(const Json& body) {
  const auto error = find_member(body, "error");
  if (!error) return std::nullopt;
  Reply reply;
  if (error->is_string()) {
    reply.detail = text_of(*error);
  } else if (error->is_object()) {
    reply.detail = string_or_empty(*error, "message");
    const auto code = find_member(*error, "code");
    if (code && code->is_string() && !text_of(*code).empty()) {
      reply.error_code = text_of(*code);
    } else if (code && code->is_number()) {
      reply.error_code = code->dump();
    } else {
      reply.error_code = string_or_empty(*error, "type");
    }
  }
  if (reply.detail.empty()) return std::nullopt;
  return reply;
}
template std::optional<Reply> error_envelope(const ojson&);
template std::optional<Reply> error_envelope(const JsonView&);

Reply http_error_reply(const HttpResponse& response) {
  std::string problem;
  const auto body = parse_body(response.body, problem);
  Reply reply;
  if (body) {
    if (auto envelope = error_envelope(*body)) reply = *std::move(envelope);
  }
  reply.status = ReplyStatus::http_error;
  if (reply.detail.empty()) {
    reply.detail = "HTTP " + std::to_string(response.status);
    if (!response.body.empty()) reply.detail += ": " + snippet(response.body);
  }
  return reply;
}

std::optional<Reply> error_in_2xx_body(const JsonView& body) {
  auto envelope = error_envelope(body);
  if (!envelope) return std::nullopt;
  envelope->status = ReplyStatus::bad_reply;
  envelope->detail = "the provider sent an error with a 2xx status: " + envelope->detail;
  return envelope;
}

Reply bad_reply(std::string detail) {
  Reply reply;
  reply.status = ReplyStatus::bad_reply;
  reply.detail = std::move(detail);
  return reply;
}

Reply bad_reply(std::string detail, const Usage& usage) {
  Reply reply = bad_reply(std::move(detail));
  reply.usage = usage;
  return reply;
}

std::shared_ptr<const JsonDocument> reply_document(const HttpResponse& response, Reply& failure) {
  if (!is_success(response.status)) {
    failure = http_error_reply(response);
    return nullptr;
  }
  std::optional<JsonDocument> document;
  if (!response.body.empty()) {
    // A codec reads the envelope by find and in the text's order, never by members(): its
    // objects are not put in key order.
    document = std::move(parse_document_unordered(
                             response.body, {.max_depth = kMaxReplyDepth,
                                             .max_bytes = std::numeric_limits<std::size_t>::max()})
                             .document);
  }
  if (!document) {
    // Rare: the words are parse_body's, and what its reader takes (it is the reference) is read.
    std::string problem;
    const auto tree = parse_body(response.body, problem);
    if (!tree) {
      failure = bad_reply(problem);
      return nullptr;
    }
    document = document_from_ordered_json(*tree);  // the members in the model's order
  }
  if (!document->root().is_object()) {
    failure = bad_reply("the body is not a JSON object: " + snippet(response.body));
    return nullptr;
  }
  return std::make_shared<const JsonDocument>(*std::move(document));
}

std::string snippet(std::string_view body, std::size_t limit) {
  // A compressed or binary body is described, not quoted: its bytes mean nothing to a reader and
  // could drive a terminal.
  if (body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1F &&
      static_cast<unsigned char>(body[1]) == 0x8B) {
    return "(" + std::to_string(body.size()) + " bytes of gzip-compressed data)";
  }
  if (body.find('\0') != std::string_view::npos || !is_valid_utf8(body)) {
    return "(" + std::to_string(body.size()) + " bytes of binary data, not text)";
  }
  std::string out;
  for (char c : body.substr(0, limit)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  return printable(out) + (body.size() > limit ? "..." : "");
}

namespace {

// `found` is a pointer to a tree's value or an optional view: absent, or the count's value.
template <class Found>
std::int64_t count_in(const Found& found) {
  // Real counts are far below 2^53; clamping there keeps a hostile 1e300 from being UB when
  // converted, and sums of a few counts (input + cache reads, totals over attempts) in range.
  constexpr std::int64_t kMax = std::int64_t{1} << 53;
  if (!found || !found->is_number()) return 0;
  const NumberValue number = number_of(*found);
  if (number.kind == JsonType::number_unsigned) {
    return static_cast<std::int64_t>(
        std::min<std::uint64_t>(number.bits, static_cast<std::uint64_t>(kMax)));
  }
  if (number.kind == JsonType::number_integer) {
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(number.bits), 0, kMax);
  }
  const double count = number.real;
  if (!(count > 0)) return 0;  // negative, zero or NaN
  return count >= static_cast<double>(kMax) ? kMax : static_cast<std::int64_t>(count);
}

}  // namespace

template <class Json>
std::int64_t token_count(const Json& object, const char* key) {
  return count_in(find_member(object, key));
}
template std::int64_t token_count(const ojson&, const char*);
template std::int64_t token_count(const JsonView&, const char*);

std::int64_t token_count(std::optional<JsonView> value) {
  return count_in(value);
}

namespace {

// `found` as count_in's.
template <class Found>
std::string string_in(const Found& found) {
  return found && found->is_string() ? std::string(text_of(*found)) : std::string();
}

}  // namespace

template <class Json>
std::string string_or_empty(const Json& object, const char* key) {
  return string_in(find_member(object, key));
}
template std::string string_or_empty(const ojson&, const char*);
template std::string string_or_empty(const JsonView&, const char*);

std::string string_or_empty(std::optional<JsonView> value) {
  return string_in(value);
}

std::size_t count_at(const ojson& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_number_unsigned() ? found->get<std::size_t>() : 0;
}

std::string serialize(const ojson& body) {
  return body.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

namespace {

// A placeholder is a binary value, which no JSON text parses into, so nothing a conversation or a
// tool schema holds can be mistaken for it: the output schema's has no subtype, a message's holds
// the message's text.
constexpr std::uint8_t kMessageSubtype = 1;

ojson splice_of(std::string_view text) {
  return ojson::binary(ojson::binary_t::container_type(text.begin(), text.end()), kMessageSubtype);
}

bool holds_messages(const CallSpec& call) {
  return std::any_of(call.turns.begin(), call.turns.end(),
                     [](const Turn& turn) { return !turn.raw.empty(); });
}

void write_spliced(const ojson& value, std::string_view splice, std::string& out) {
  if (value.is_binary()) {
    const auto& placeholder = value.get_binary();
    if (placeholder.has_subtype()) {
      out.append(placeholder.begin(), placeholder.end());
    } else {
      out += splice;
    }
  } else if (value.is_object()) {
    out += '{';
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) out += ',';
      append_json_string(it.key(), out);
      out += ':';
      write_spliced(it.value(), splice, out);
    }
    out += '}';
  } else if (value.is_array()) {
    out += '[';
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (it != value.begin()) out += ',';
      write_spliced(*it, splice, out);
    }
    out += ']';
  } else if (value.is_string()) {
    append_json_string(value.get_ref<const std::string&>(), out);
  } else {
    out += serialize(value);
  }
}

}  // namespace

std::string serialize(JsonView value) {
  std::string out;
  dump_value(value, MemberOrder::text, out);
  return out;
}

ojson output_schema(const CallSpec& call) {
  if (call.output_text != nullptr) return ojson::binary({});
  return call.output->schema;
}

ojson message_splice(const ProviderMessage& message) {
  return splice_of(message.text());
}

void push_message_items(ojson& array, const ProviderMessage& message) {
  // The text is compact (ProviderMessage writes it so): its items are what the brackets enclose.
  const std::string& text = message.text();
  if (message.is_array() && text.size() > 2) {
    array.push_back(splice_of(std::string_view(text).substr(1, text.size() - 2)));
  }
}

ojson message_items(const ProviderMessage& message) {
  ojson items = ojson::array();
  push_message_items(items, message);
  return items;
}

std::string serialize_request(const ojson& body, const CallSpec& call) {
  const bool has_output_text = call.output != nullptr && call.output_text != nullptr;
  if (!has_output_text && !holds_messages(call)) return serialize(body);
  std::string out;
  out.reserve((has_output_text ? call.output_text->size() : 0) + 1024);
  write_spliced(body, has_output_text ? std::string_view(*call.output_text) : std::string_view(),
                out);
  return out;
}

std::string system_text(const CallSpec& call) {
  std::string out;
  for (const auto& turn : call.turns) {
    if (turn.role != Turn::Role::system) continue;
    if (!out.empty()) out += "\n\n";
    out += turn.text;
  }
  return out;
}

std::string output_name(const CallSpec& call) {
  return call.output_name && !call.output_name->empty() ? *call.output_name : "output";
}

bool is_forced_output(const Reply& reply, OutputMode mode) {
  return mode == OutputMode::forced_tool && reply.tool_calls.size() == 1;
}

void set_answer_status(Reply& reply, OutputMode mode, std::string text) {
  if (is_forced_output(reply, mode)) {
    reply.status = ReplyStatus::ok;
    reply.text = reply.tool_calls[0].arguments_text;
  } else if (!reply.tool_calls.empty()) {
    reply.status = ReplyStatus::tool_calls;
    reply.text = std::move(text);
  } else if (text.empty()) {
    reply.status = ReplyStatus::empty;
  } else {
    reply.status = ReplyStatus::ok;
    reply.text = std::move(text);
  }
}

void set_ending(Reply& reply, Ending ending, OutputMode mode, std::string text,
                std::string refusal) {
  switch (ending) {
    case Ending::refused:
      reply.status = ReplyStatus::refusal;
      reply.text = std::move(refusal);
      return;
    case Ending::cut_off:
    case Ending::filtered:
      reply.status =
          ending == Ending::cut_off ? ReplyStatus::truncated : ReplyStatus::content_filtered;
      reply.text =
          is_forced_output(reply, mode) ? reply.tool_calls[0].arguments_text : std::move(text);
      return;
    case Ending::finished:
      set_answer_status(reply, mode, std::move(text));
      return;
  }
}

void set_assistant_turn(Reply& reply, const std::string& text, ProviderMessage raw) {
  reply.assistant.role = Turn::Role::assistant;
  reply.assistant.text = text;
  reply.assistant.tool_calls = reply.tool_calls;
  reply.assistant.raw = std::move(raw);
}

std::string path_segment(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'A' && u <= 'Z') || (u >= 'a' && u <= 'z') || (u >= '0' && u <= '9') || c == '-' ||
        c == '.' || c == '_' || c == '~') {
      out.push_back(c);
    } else {
      out += {'%', kHex[u >> 4], kHex[u & 0xFU]};
    }
  }
  return out;
}

}  // namespace accord::detail
