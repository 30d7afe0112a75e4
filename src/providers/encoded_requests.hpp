#pragma once
// A request encoded once per shape. Calls of one client usually differ only in their turns'
// texts (each extract's prompt): the model, the wire schema, the parameters, the headers and
// the body's fixed parts are the same. The first call of a shape is encoded whole, with each
// text replaced by a marker; the body is kept as the text between the markers, and a later call
// of that shape writes only its texts into it. The bytes are the codec's own: a call the codec
// might write differently (tools, images, tool calls or results, a provider's echoed message, a
// text that is not valid UTF-8), or a marker the body does not hold exactly once, is encoded
// whole every time.

#include <cstddef>
#include <memory>
#include <mutex>

#include "accord/providers/provider.hpp"

namespace accord::detail {

class EncodedRequests {
 public:
  // provider.encode(call), the same bytes; throws what it throws.
  [[nodiscard]] HttpRequest encode(const Provider& provider, const CallSpec& call) const;

  struct Skeleton;  // src/providers/encoded_requests.cpp

 private:
  // The last shape kept: a client's calls keep to one (the bench, a batch of extracts).
  mutable std::mutex mutex_;
  mutable std::shared_ptr<const Skeleton> kept_;
};

// Requests a codec has encoded whole through an EncodedRequests, in this process (tests: a
// second call of one shape encodes none).
[[nodiscard]] std::size_t requests_encoded_whole();

}  // namespace accord::detail
