#pragma once
// Host names (RFC 1123, IDNA2008) and email addresses (RFC 5321, RFC 6531), for the `hostname`,
// `idn-hostname`, `email` and `idn-email` formats.

#include <string_view>

namespace accord::detail {

// RFC 1123 host name; an `xn--` label must be a valid IDNA2008 A-label.
[[nodiscard]] bool is_hostname(std::string_view text);
// IDNA2008 host name: U-labels and A-labels, the contextual rules of RFC 5892 and RFC 5893's Bidi
// rule, with the four label separators of RFC 3490.
[[nodiscard]] bool is_idn_hostname(std::string_view text);
// RFC 5321 mailbox (dot-atom or quoted local part; host name or address literal) and RFC 6531's
// internationalised form.
[[nodiscard]] bool is_rfc5321_email(std::string_view text);
[[nodiscard]] bool is_idn_email(std::string_view text);

}  // namespace accord::detail
