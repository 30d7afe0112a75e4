#pragma once
// OpenAI Chat Completions, for OpenAI itself and (subclassed) for OpenAI-compatible servers: the
// codec and the stream of `chat.completion.chunk` events.

#include <memory>
#include <string>

#include "providers/content_parts.hpp"
#include "providers/openai/openai.hpp"
#include "providers/parameters.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

class ChatCompletions : public OpenAIProvider {
 public:
  [[nodiscard]] std::string_view name() const override { return "openai-chat"; }
  [[nodiscard]] HttpRequest encode(const CallSpec& call) const override;
  [[nodiscard]] Reply decode(const HttpResponse& response, OutputMode mode) const override;

 protected:
  // o-series models reject max_tokens; Ollama reads only max_tokens.
  [[nodiscard]] virtual const char* max_tokens_field() const { return "max_completion_tokens"; }
  // Where the request goes and how it is authorised (Azure: deployment URLs and `api-key`).
  [[nodiscard]] virtual std::string url(const CallSpec& call) const {
    return call.base_url + "/chat/completions";
  }
  [[nodiscard]] virtual Headers headers(const CallSpec& call) const { return openai_headers(call); }
  // How choices[0] ended: a refusal, then finish_reason ("length", "content_filter"), `reason`
  // (read once, by decode). A provider with more words for an ending (Mistral's model_length,
  // Azure's filter annotations) adds them here.
  [[nodiscard]] virtual Ending ending(JsonView body, JsonView choice, std::string_view reason,
                                      bool refused) const;
  // What it takes of images and documents, and how it writes one in a user message's content
  // (Mistral: image_url as a bare string, documents as document_url).
  [[nodiscard]] virtual const PartRules& part_rules() const;
  [[nodiscard]] virtual ojson content_part(const ContentPart& part, std::size_t n) const;
  // Where its body takes each request parameter: OpenAI's by default.
  [[nodiscard]] virtual const ParameterPlaces& parameter_places() const;
};

// OpenAI's content parts: text, image_url (a data: URL for bytes) and file (PDF bytes as
// file_data).
[[nodiscard]] ojson openai_content_part(const ContentPart& part, std::size_t n);

// OpenAI's Chat Completions parameters, which compatible servers take in part.
[[nodiscard]] const ParameterPlaces& openai_chat_parameter_places();

// Chunks with choices[0].delta, then `[DONE]`.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_chat_stream(OutputMode mode);
// A stream sends usage in its last chunk only when asked.
void ask_for_chat_stream(ojson& body);

}  // namespace accord::detail
