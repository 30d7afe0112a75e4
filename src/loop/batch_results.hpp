#pragma once
// Reading a batch's results files: a line at a time as they arrive, each line one item's answer
// as the provider's protocol reads it.

#include <cstddef>
#include <string>
#include <vector>

#include "providers/batch_protocol.hpp"

namespace accord::detail {

// Reads one results file as it arrives, a line at a time, into the answers not read yet: memory
// is bounded by `max_line_bytes`, and a longer line, a line that is not JSON or a line of a shape
// not expected costs only its own item. Throws BatchFailure when the download fails; what was
// read before stays in `answers`. A file on another origin than the API's is fetched without
// credentials.
void read_results(const BatchProtocol& protocol, const std::string& url, BatchAnswers& answers,
                  std::size_t max_line_bytes);

// Keeps the answers a status reply carried itself (BatchState::inline_results) for `items`, the
// batch's items in the order they were sent: a line names its item, or stands at its position.
void keep_inline_results(const BatchProtocol& protocol,
                         const std::vector<nlohmann::ordered_json>& lines,
                         const std::vector<BatchItem>& items, BatchAnswers& answers);

}  // namespace accord::detail
