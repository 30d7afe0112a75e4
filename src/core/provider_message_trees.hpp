#pragma once
// How many trees of provider messages (accord/provider_message.hpp) this process has built (a
// reply read and sent back by a codec builds none), and how many messages' texts it has written
// from a parsed reply, at once or (kept with their document) when first read; a reply that is
// only judged writes none. For tests.

#include <cstddef>

namespace accord::detail {

[[nodiscard]] std::size_t provider_message_trees_built();
[[nodiscard]] std::size_t provider_message_texts_written();

}  // namespace accord::detail
