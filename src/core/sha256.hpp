#pragma once
// SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for AWS Signature Version 4: small enough to
// keep the library free of a crypto dependency for one signing scheme.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace accord::detail {

using Sha256Digest = std::array<std::uint8_t, 32>;

[[nodiscard]] Sha256Digest sha256(std::string_view data);
[[nodiscard]] Sha256Digest hmac_sha256(std::string_view key, std::string_view data);

// Lower-case hex, as SigV4 writes hashes and signatures.
[[nodiscard]] std::string hex(const Sha256Digest& digest);
// The digest's bytes as a string, to key the next HMAC with.
[[nodiscard]] std::string bytes(const Sha256Digest& digest);

}  // namespace accord::detail
