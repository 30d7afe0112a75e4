#pragma once
// The meta-schemas of draft-04, draft-06, draft-07, 2019-09 and 2020-12 (with the vocabularies of
// the last two), known to the engine so a schema that references them ("$ref":
// "http://json-schema.org/draft-04/schema#") works without the network. Written for accord from
// the specifications' keyword definitions.

#include <string_view>

namespace accord::detail {

// The meta-schema document published at `uri` (without fragment), or empty when it is not one.
[[nodiscard]] std::string_view meta_schema(std::string_view uri);

}  // namespace accord::detail
