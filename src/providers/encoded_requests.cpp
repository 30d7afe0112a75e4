#include "providers/encoded_requests.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>
#include <vector>

#include "core/json_dump.hpp"
#include "core/utf8.hpp"
#include "providers/wire.hpp"

namespace accord::detail {

namespace {

std::atomic<std::size_t> whole_encodings{0};

// Stands for turn `n`'s text while the shape is encoded. Nothing in it is escaped in a JSON
// string (DEL is written as it is), and the body must hold it exactly once to be kept.
std::string turn_marker(std::size_t n) {
  return "\x7f"
         "accord-turn-" +
         std::to_string(n) + "\x7f";
}

// Whether the codec writes each turn's text once, as a JSON string's content, whatever the text
// says: plain system, user and assistant turns, valid UTF-8, no tools (whose schemas are not
// part of the shape compared below).
bool has_plain_turns(const CallSpec& call) {
  if (!call.tools.empty()) return false;
  if (call.output != nullptr && call.output_text == nullptr) return false;
  return std::all_of(call.turns.begin(), call.turns.end(), [](const Turn& turn) {
    return turn.role != Turn::Role::tool_results && turn.parts.empty() && turn.tool_calls.empty() &&
           turn.results.empty() && turn.raw.empty() && is_valid_utf8(turn.text);
  });
}

}  // namespace

struct EncodedRequests::Skeleton {
  // A shape is probed on its second call (one-off shapes, e.g. a budget's shrinking output cap,
  // then cost one encode, not two), and a shape whose body cannot be kept is remembered as such.
  enum class State { seen_once, kept, unkeepable };
  State state = State::seen_once;
  const Provider* provider = nullptr;
  // The call, each non-empty text a marker; its `output` is null but while probing, when it is
  // the probing call's own (a wire schema lives as long as its call).
  CallSpec shape;
  bool has_output = false;
  std::string output_text;
  HttpRequest request;              // without its body
  std::vector<std::string> pieces;  // the body between the texts: one more than `texts`
  std::vector<std::size_t> texts;   // the turn whose text goes after each piece but the last

  // Every field of CallSpec but the turns' texts (a field added there is compared here).
  [[nodiscard]] bool fits(const Provider& p, const CallSpec& call) const {
    const auto same_turn = [](const Turn& a, const Turn& b) {
      return a.role == b.role && a.text.empty() == b.text.empty();
    };
    return &p == provider && call.base_url == shape.base_url && call.api_key == shape.api_key &&
           call.model == shape.model && call.max_tokens == shape.max_tokens &&
           call.output_cap == shape.output_cap && call.output_name == shape.output_name &&
           (call.output != nullptr) == has_output &&
           (call.output_text == nullptr) == (shape.output_text == nullptr) &&
           (call.output_text == nullptr || *call.output_text == output_text) &&
           call.mode == shape.mode && call.tool_required == shape.tool_required &&
           std::equal(call.turns.begin(), call.turns.end(), shape.turns.begin(), shape.turns.end(),
                      same_turn) &&
           call.parameters == shape.parameters;
  }

  [[nodiscard]] std::string body_for(const CallSpec& call) const {
    std::size_t size = 0;
    for (const auto& piece : pieces) size += piece.size();
    for (const std::size_t turn : texts) size += call.turns[turn].text.size() + 8;
    std::string body;
    body.reserve(size);
    for (std::size_t i = 0; i < texts.size(); ++i) {
      body += pieces[i];
      // has_plain_turns checked every text is UTF-8 before a kept shape is used or probed.
      append_escaped_utf8(call.turns[texts[i]].text, body);
    }
    body += pieces.back();
    return body;
  }
};

namespace {

using Skeleton = EncodedRequests::Skeleton;

// The shape of `call`: its texts replaced by markers, not yet probed.
std::shared_ptr<Skeleton> shape_of(const Provider& provider, const CallSpec& call) {
  auto made = std::make_shared<Skeleton>();
  made->provider = &provider;
  made->shape = call;
  made->shape.output = nullptr;
  made->has_output = call.output != nullptr;
  if (call.output_text != nullptr) {
    made->output_text = *call.output_text;
    made->shape.output_text = &made->output_text;
  }
  for (std::size_t n = 0; n < made->shape.turns.size(); ++n) {
    auto& text = made->shape.turns[n].text;
    if (!text.empty()) text = turn_marker(n);
  }
  return made;
}

// `seen` probed with `call`, whose request `encoded` is: kept when its body is made of the texts
// as plain string content and gives this very call's request back byte for byte, unkeepable
// otherwise (a marker missing or repeated, or written back differently).
std::shared_ptr<const Skeleton> probed(const Skeleton& seen, const Provider& provider,
                                       const CallSpec& call, const HttpRequest& encoded) {
  auto kept = std::make_shared<Skeleton>(seen);
  kept->shape.output_text = kept->shape.output_text != nullptr ? &kept->output_text : nullptr;
  kept->shape.output = call.output;
  kept->state = Skeleton::State::unkeepable;
  HttpRequest probe;
  try {
    probe = provider.encode(kept->shape);
  } catch (const std::exception&) {
    return kept;
  }
  kept->shape.output = nullptr;
  std::vector<std::pair<std::size_t, std::size_t>> places;  // (offset in the body, turn)
  for (std::size_t n = 0; n < call.turns.size(); ++n) {
    if (call.turns[n].text.empty()) continue;
    const std::string m = turn_marker(n);
    const std::size_t at = probe.body.find(m);
    if (at == std::string::npos || probe.body.find(m, at + 1) != std::string::npos) return kept;
    places.emplace_back(at, n);
  }
  std::sort(places.begin(), places.end());
  std::size_t from = 0;
  for (const auto& [at, n] : places) {
    kept->pieces.push_back(probe.body.substr(from, at - from));
    kept->texts.push_back(n);
    from = at + turn_marker(n).size();
  }
  kept->pieces.push_back(probe.body.substr(from));
  if (probe.url != encoded.url || probe.headers != encoded.headers ||
      probe.method != encoded.method || probe.aws_sigv4 != encoded.aws_sigv4 ||
      probe.aws_credentials != encoded.aws_credentials || kept->body_for(call) != encoded.body) {
    kept->pieces.clear();
    kept->texts.clear();
    return kept;
  }
  probe.body.clear();
  kept->request = std::move(probe);
  kept->state = Skeleton::State::kept;
  return kept;
}

}  // namespace

HttpRequest EncodedRequests::encode(const Provider& provider, const CallSpec& call) const {
  if (!has_plain_turns(call)) {
    whole_encodings.fetch_add(1, std::memory_order_relaxed);
    return provider.encode(call);
  }
  std::shared_ptr<const Skeleton> known;
  {
    const std::lock_guard lock(mutex_);
    for (auto at = shapes_.begin(); at != shapes_.end(); ++at) {
      if (!(*at)->fits(provider, call)) continue;
      known = *at;
      std::rotate(shapes_.begin(), at, at + 1);  // the most recent first
      break;
    }
  }
  if (known && known->state == Skeleton::State::kept) {
    HttpRequest request = known->request;
    request.body = known->body_for(call);
    return request;
  }
  whole_encodings.fetch_add(1, std::memory_order_relaxed);
  HttpRequest request = provider.encode(call);
  if (known && known->state == Skeleton::State::unkeepable) return request;
  std::shared_ptr<const Skeleton> next =
      known ? probed(*known, provider, call, request) : shape_of(provider, call);
  const std::lock_guard lock(mutex_);
  const auto same = std::find(shapes_.begin(), shapes_.end(), known);
  if (known && same != shapes_.end()) {
    *same = std::move(next);
  } else {
    shapes_.insert(shapes_.begin(), std::move(next));
    if (shapes_.size() > kShapesKept) shapes_.pop_back();
  }
  return request;
}

std::size_t requests_encoded_whole() {
  return whole_encodings.load(std::memory_order_relaxed);
}

}  // namespace accord::detail
