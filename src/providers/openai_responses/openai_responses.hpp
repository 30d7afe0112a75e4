#pragma once
// The OpenAI Responses API's stream of typed events and its parameter places (the rest of its
// codec is codec.cpp's alone).

#include <memory>
#include <string_view>

#include "providers/parameters.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

// `response.*` events, ending with one that carries the whole response.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_responses_stream(OutputMode mode);
// Where the Responses API's body takes each request parameter.
[[nodiscard]] const ParameterPlaces& responses_parameter_places();
// The Responses API's request for `call` to {base_url}/responses: its parts and parameters
// judged, and the parameters placed, under `provider`'s name and `places`; the extra headers go
// over `headers`, the endpoint's own. Azure's Responses sends it with its own URL and headers.
[[nodiscard]] HttpRequest responses_request(const CallSpec& call, Headers headers,
                                            const ParameterPlaces& places,
                                            std::string_view provider);

}  // namespace accord::detail
