#pragma once
// The OpenAI Responses API's stream of typed events and its parameter places (the rest of its
// codec is codec.cpp's alone).

#include <memory>

#include "providers/parameters.hpp"
#include "providers/stream_assembly.hpp"

namespace accord::detail {

// `response.*` events, ending with one that carries the whole response.
[[nodiscard]] std::unique_ptr<StreamAssembler> make_responses_stream(OutputMode mode);
// Where the Responses API's body takes each request parameter.
[[nodiscard]] const ParameterPlaces& responses_parameter_places();

}  // namespace accord::detail
