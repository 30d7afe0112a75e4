#include "transport/url_origin.hpp"

#include "core/ascii.hpp"

namespace accord::detail {

bool same_origin(const std::string& a, const std::string& b) {
  const std::string origin = ascii_lower(origin_of(a));
  return origin.find("://") != std::string::npos && origin == ascii_lower(origin_of(b));
}

}  // namespace accord::detail
