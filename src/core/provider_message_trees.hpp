#pragma once
// How many trees of provider messages (accord/provider_message.hpp) this process has built: a
// reply read and sent back by a codec builds none. For tests.

#include <cstddef>

namespace accord::detail {

[[nodiscard]] std::size_t provider_message_trees_built();

}  // namespace accord::detail
