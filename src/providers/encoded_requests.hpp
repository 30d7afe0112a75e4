#pragma once
// A request encoded once per shape. Calls of one client usually differ only in their turns'
// texts (each extract's prompt): the model, the wire schema, the parameters, the headers and
// the body's fixed parts are the same. The second call of a shape is encoded whole twice, once
// with each text replaced by a marker; the body is kept as the text between the markers, and a
// later call of that shape writes only its texts into it. A shape is probed on its second call, and
// a few shapes are kept, the most recently used first. The bytes are the codec's own: a call the
// codec might write differently (tools, images, tool calls or results, a provider's echoed message,
// a text that is not valid UTF-8), or a marker the body does not hold exactly once, is encoded
// whole every time.

#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "accord/providers/provider.hpp"

namespace accord::detail {

class EncodedRequests {
 public:
  // provider.encode(call), the same bytes; throws what it throws.
  [[nodiscard]] HttpRequest encode(const Provider& provider, const CallSpec& call) const;

  struct Skeleton;  // src/providers/encoded_requests.cpp

 private:
  // A client's calls keep to a few shapes (a schema or two, a correction's longer conversation).
  static constexpr std::size_t kShapesKept = 4;
  mutable std::mutex mutex_;
  mutable std::vector<std::shared_ptr<const Skeleton>> shapes_;
};

// Requests a codec has encoded whole through an EncodedRequests, in this process (tests: a
// second call of one shape encodes none).
[[nodiscard]] std::size_t requests_encoded_whole();

}  // namespace accord::detail
