#pragma once
// accord's own checks for JSON Schema `format` values: no std::regex, real calendars.

#include <optional>
#include <string_view>

namespace accord::detail {

// YYYY-MM-DD with a real day of the month (leap years included).
[[nodiscard]] bool is_iso_date(std::string_view text);
// HH:MM, optional :SS and fraction, optional offset (Z or +HH:MM): Zod's z.iso.time() plus
// RFC 3339's full-time.
[[nodiscard]] bool is_iso_time(std::string_view text);
// RFC 3339 date-time: date, T, time (seconds optional as in Zod), offset required (Z or +HH:MM).
[[nodiscard]] bool is_iso_date_time(std::string_view text);
// Zod 4's practical email rule: dotted local part, dotted domain, alphabetic top-level domain.
[[nodiscard]] bool is_email(std::string_view text);
// An absolute URI: scheme ":" then printable characters with valid %-escapes; web schemes need a
// host.
[[nodiscard]] bool is_uri(std::string_view text);
// RFC 9562 UUID (versions 1-8, variant 10xx), or the nil and max UUIDs, as Zod's z.uuid().
[[nodiscard]] bool is_uuid(std::string_view text);

// The check for a `format` value; nullopt for formats accord does not check (annotations only).
[[nodiscard]] std::optional<bool> check_format(std::string_view format, std::string_view text);
// Zod's wording for a failed format, e.g. "Invalid ISO date"; empty for unchecked formats.
[[nodiscard]] std::string_view format_message(std::string_view format);

}  // namespace accord::detail
