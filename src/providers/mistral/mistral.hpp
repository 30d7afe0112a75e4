#pragma once
// Mistral: what codec.cpp takes from the folder's other files.

#include <memory>

#include "providers/batch_protocol.hpp"

namespace accord::detail {

// Mistral's batch jobs (batches.cpp).
[[nodiscard]] std::unique_ptr<BatchProtocol> make_mistral_batches(const BatchSetup& setup);

}  // namespace accord::detail
