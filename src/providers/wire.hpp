#pragma once
// Pieces every provider codec shares: reading a reply body defensively, the error envelopes,
// usage numbers, and how a reply's ending sets its status.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "accord/json_view.hpp"
#include "accord/providers/provider.hpp"
#include "accord/same_bytes.hpp"

namespace accord::detail {

using ojson = nlohmann::ordered_json;

// Nesting deeper than this is not a provider's reply; refusing it keeps later recursive walks
// (dump, echo) off a hostile stack.
constexpr std::size_t kMaxReplyDepth = 512;

// The parsed body, or nullopt with `problem` saying why it is not usable JSON. Never throws.
[[nodiscard]] std::optional<ojson> parse_body(std::string_view body, std::string& problem);

[[nodiscard]] bool is_success(long status);

// A non-2xx reply: detail = the provider's message (OpenAI and Anthropic envelopes, or a bare
// string error as some local servers send), error_code = error.code, else error.type.
[[nodiscard]] Reply http_error_reply(const HttpResponse& response);

// The provider's message and code when `body` is an error envelope ({"error": "..."} or
// {"error": {"message", "code"/"type"}}); nullopt when it is not one or says nothing. `Json` is
// JsonView (a whole reply, read to a tape) or ojson (a stream event, a batch line): one reading
// for both.
template <class Json>
[[nodiscard]] std::optional<Reply> error_envelope(const Json& body);

// A 2xx body that is an error envelope (some gateways and proxies answer 200 with one): a
// bad_reply that keeps the provider's message; nullopt when it is not one.
[[nodiscard, gnu::cold]] std::optional<Reply> error_in_2xx_body(const JsonView& body);
// The same, read only when the body lacks the member a reply holds (`expected`, as the codec
// looked it up: a reply is not searched for it twice). Inline: a reply pays one test, no call.
[[nodiscard]] inline std::optional<Reply> error_in_success(
    const JsonView& body, const std::optional<JsonView>& expected) {
  if (expected) return std::nullopt;
  return error_in_2xx_body(body);
}

[[nodiscard]] Reply bad_reply(std::string detail);
// The same, keeping the usage the body reported: the tokens were spent.
[[nodiscard]] Reply bad_reply(std::string detail, const Usage& usage);

// A whole reply's 2xx body read to a tape (accord/json_view.hpp), no tree built, when it is a
// JSON object; otherwise null, with `failure` saying why, in parse_body's words: the HTTP
// error, or a body that is empty, too deep, not JSON or not an object. Shared, so the reply's
// assistant message can keep it (a ProviderMessage written when first read). Read by find(),
// items() and members_as_written() only: its objects are not put in key order
// (parse_document_unordered), so members() is not called on it.
[[nodiscard]] std::shared_ptr<const JsonDocument> reply_document(const HttpResponse& response,
                                                                 Reply& failure);

// Envelopes parse_body has read (to a tree, or failed to) in this process: a whole reply read
// through reply_document builds none (tests hold the codecs to that).
[[nodiscard]] std::size_t envelope_trees_built();

// The start of a body on one line, for details about bodies that are not the expected shape; a
// compressed or binary body is described by its size instead of quoted.
[[nodiscard]] std::string snippet(std::string_view body, std::size_t limit = 200);

// A token count, 0 when absent or not a number.
template <class Json>
[[nodiscard]] std::int64_t token_count(const Json& object, const char* key);
// The same of a member already found (members_named).
[[nodiscard]] std::int64_t token_count(std::optional<JsonView> value);

// The members of `object` named in `names`, nullopt where absent (every one when `object` is not
// an object), found in one walk of its members: a reply's usage object is read for four to six
// counts, and a find for each would walk it again.
template <std::size_t N>
[[nodiscard]] std::array<std::optional<JsonView>, N> members_named(
    JsonView object, const std::array<std::string_view, N>& names) {
  std::array<std::optional<JsonView>, N> found;
  for (const JsonMember& member : object.members_as_written()) {
    for (std::size_t i = 0; i < N; ++i) {
      if (bytes_detail::same_text(member.key, names[i])) {
        // A document's keys are unique (a repeated key is read by nlohmann, which keeps the
        // last), so each slot is written at most once.
        found[i] = member.value;
      }
    }
  }
  return found;
}

template <class Json>
[[nodiscard]] std::string string_or_empty(const Json& object, const char* key);
// The same of a member already found (members_named).
[[nodiscard]] std::string string_or_empty(std::optional<JsonView> value);

// A count (an index, a number of items); 0 when absent or not one (a hostile number must not
// throw).
[[nodiscard]] std::size_t count_at(const ojson& object, const char* key);

// Request body text; invalid UTF-8 in the conversation is replaced rather than thrown on.
[[nodiscard]] std::string serialize(const ojson& body);
// A value of a reply as serialize() writes the ordered tree of it: compact, members in the
// order the text gave them (a tool call's input, sent back and judged as the model wrote it).
[[nodiscard]] std::string serialize(JsonView value);

// The output schema's place in a request body: a copy of `call.output->schema`, or, when the call
// carries its text, a placeholder that serialize_request() replaces with that text.
[[nodiscard]] ojson output_schema(const CallSpec& call);
// serialize(body), with the call's output schema text where output_schema() put its placeholder
// and each turn's message where message_splice() or push_message_items() put one.
[[nodiscard]] std::string serialize_request(const ojson& body, const CallSpec& call);

// The system turns, joined; empty when there are none.
[[nodiscard]] std::string system_text(const CallSpec& call);

[[nodiscard]] std::string output_name(const CallSpec& call);

// In forced-tool mode one call to the tool is the output; its arguments are the text to judge.
[[nodiscard]] bool is_forced_output(const Reply& reply, OutputMode mode);

// Status and text for a reply that was not refused, cut off or filtered: the forced tool's
// arguments, a turn of tool calls (decided by the list: servers say "stop" with calls present),
// no output, or the text.
void set_answer_status(Reply& reply, OutputMode mode, std::string text);

// How the provider says a reply ended, in its own words (finish_reason, status, stop_reason).
enum class Ending { finished, refused, cut_off, filtered };

// Status and text from the ending: a refusal keeps `refusal` (the model's words), a cut-off or
// filtered reply the output so far, and a finished one is read by set_answer_status. `text` is
// taken: a codec done with its text moves it in (a reply's text is a few hundred bytes).
void set_ending(Reply& reply, Ending ending, OutputMode mode, std::string text,
                std::string refusal = {});

// The assistant turn the reply adds to a conversation: its text and tool calls, and `raw`, the
// provider's own form, sent back as received so tool-call ids and refusals stay intact.
void set_assistant_turn(Reply& reply, const std::string& text, ProviderMessage raw);

// A provider's message in a request body: a placeholder serialize_request() writes the message's
// text in place of, so the message goes back as received without a tree of it.
[[nodiscard]] ojson message_splice(const ProviderMessage& message);
// The items of an array message, pushed onto `array` the same way (as one placeholder; none when
// the message holds no items).
void push_message_items(ojson& array, const ProviderMessage& message);
// An array message as an array of that one placeholder: a message joined to the one before it
// (turns of one role in a row, which Converse and Gemini merge) adds its items, not an array.
[[nodiscard]] ojson message_items(const ProviderMessage& message);

// `name` as one URL path segment (a deployment name, a model id or ARN): everything but RFC 3986's
// unreserved characters percent-encoded, so `:` is %3A and `/` is %2F, as the SDKs send them.
[[nodiscard]] std::string path_segment(std::string_view name);

// Said to the model about the forced output tool.
inline constexpr const char* kOutputToolDescription =
    "Return the final answer by calling this tool once; its input is the answer.";

}  // namespace accord::detail
