#pragma once
// accord's own checks for JSON Schema `format` values: no std::regex, real calendars. The host
// and email formats are in host_formats.hpp, the IP and URI ones in uri_formats.hpp.

#include <optional>
#include <string_view>

#include "text/host_formats.hpp"
#include "text/uri_formats.hpp"

namespace accord::detail {

// Whose reading of a format applies. The DSL's string().email(), .uuid(), .uri(), .date(),
// .time() and .date_time() promise Zod's verdicts, and the DSL emits them as plain `format`
// keywords; a JSON Schema file means RFC 3339/5321/3986/9562 as the JSON-Schema-Test-Suite reads
// them. The two disagree on a few inputs (a time without offset, a leap second, a quoted local
// part or a tilde in an email, a UUID of version 15, an unescaped non-ASCII character in a URL);
// every other format reads the same under both.
enum class FormatRules { zod, json_schema };

// The pattern emit() writes beside format "date" (for providers without the format); the engine
// does not report it again when the date check has failed.
inline constexpr std::string_view kDatePattern = R"(^\d{4}-\d{2}-\d{2}$)";

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

// RFC 3339 full-time: seconds and offset required; a leap second only at 23:59 UTC.
[[nodiscard]] bool is_rfc3339_time(std::string_view text);
[[nodiscard]] bool is_rfc3339_date_time(std::string_view text);
// RFC 3339 Appendix A duration: P[nY][nM][nD][T[nH][nM][nS]] with adjacent units, or PnW.
[[nodiscard]] bool is_iso_duration(std::string_view text);
// Any 8-4-4-4-12 hex UUID, whatever its version and variant (RFC 4122's text form).
[[nodiscard]] bool is_uuid_text(std::string_view text);
// RFC 6901 JSON Pointer and draft-handrews relative JSON Pointer.
[[nodiscard]] bool is_json_pointer(std::string_view text);
[[nodiscard]] bool is_relative_json_pointer(std::string_view text);

// The check for a `format` value; nullopt for formats accord does not check (annotations only).
// The two-argument form reads the DSL's formats as Zod does.
[[nodiscard]] std::optional<bool> check_format(std::string_view format, std::string_view text);
[[nodiscard]] std::optional<bool> check_format(std::string_view format, std::string_view text,
                                               FormatRules rules);
// The same check chosen once, for code that checks one format many times; nullptr for formats
// accord does not check.
using FormatCheck = bool (*)(std::string_view);
[[nodiscard]] FormatCheck format_check(std::string_view format, FormatRules rules);
// Zod's wording for a failed format, e.g. "Invalid ISO date"; empty for unchecked formats.
[[nodiscard]] std::string_view format_message(std::string_view format);

}  // namespace accord::detail
