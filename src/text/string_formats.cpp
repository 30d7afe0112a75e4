#include "text/string_formats.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/ascii.hpp"
#include "text/ecma_regex.hpp"

namespace accord::detail {
namespace {

// Reads `count` digits at `at` as a number; -1 when any is not a digit.
int number_at(std::string_view text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (!ascii_digit(text[i])) return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

bool leap(int year) {
  return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
  static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && leap(year) ? 29 : days[month - 1];
}

// HH:MM[:SS[.fraction]] at the start of `text`; returns the length read, 0 when absent.
std::size_t partial_time(std::string_view text, bool seconds_required) {
  const int hour = number_at(text, 0, 2);
  const int minute = number_at(text, 3, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || text.size() < 5 || text[2] != ':') {
    return 0;
  }
  std::size_t at = 5;
  if (at < text.size() && text[at] == ':') {
    const int second = number_at(text, at + 1, 2);
    if (second < 0 || second > 59) return 0;
    at += 3;
    if (at < text.size() && text[at] == '.') {
      std::size_t digits = 0;
      ++at;
      while (at < text.size() && ascii_digit(text[at])) ++at, ++digits;
      if (digits == 0) return 0;
    }
  } else if (seconds_required) {
    return 0;
  }
  return at;
}

// Z, z or +HH:MM / -HH:MM, exactly filling `text`.
bool offset(std::string_view text) {
  if (text == "Z" || text == "z") return true;
  if (text.size() != 6 || (text[0] != '+' && text[0] != '-') || text[3] != ':') return false;
  const int hour = number_at(text, 1, 2);
  const int minute = number_at(text, 4, 2);
  return hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59;
}

// RFC 3339 time-secfrac and time-offset after HH:MM:SS; `second` 60 only when the time is
// 23:59 in UTC (a leap second).
bool rfc3339_time(std::string_view text) {
  if (text.size() < 9 || text[2] != ':' || text[5] != ':') return false;
  const int hour = number_at(text, 0, 2);
  const int minute = number_at(text, 3, 2);
  const int second = number_at(text, 6, 2);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
    return false;
  }
  std::size_t at = 8;
  if (text[at] == '.') {
    const std::size_t start = ++at;
    while (at < text.size() && ascii_digit(text[at])) ++at;
    if (at == start) return false;
  }
  const std::string_view zone = text.substr(at);
  if (!offset(zone)) return false;
  if (second < 60) return true;
  int utc = hour * 60 + minute;
  if (zone.size() == 6) {
    const int shift = number_at(zone, 1, 2) * 60 + number_at(zone, 4, 2);
    utc += zone[0] == '+' ? -shift : shift;
  }
  return (utc % 1440 + 1440) % 1440 == 23 * 60 + 59;
}

// 1*DIGIT then one of `units`, each unit only after the one before it in `units`: reads
// "1Y2M" from "YMD". Returns false on a gap ("1Y2D"), a repeat or a bare number.
bool duration_units(std::string_view text, std::string_view units) {
  if (text.empty()) return false;
  std::size_t next_unit = 0;
  bool first = true;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t start = at;
    while (at < text.size() && ascii_digit(text[at])) ++at;
    if (at == start || at == text.size()) return false;
    const auto unit = units.find(text[at], next_unit);
    if (unit == std::string_view::npos || (!first && unit != next_unit)) return false;
    first = false;
    next_unit = unit + 1;
    ++at;
  }
  return true;
}

bool web_scheme(std::string_view scheme) {
  std::string lower;
  for (char c : scheme) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "http" || lower == "https" || lower == "ftp" || lower == "ws" || lower == "wss";
}

// In a namespace of its own: its short names would meet others' in a unity build.
namespace email {

// Zod's email pattern, ^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@
// (?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$, as a table-driven automaton: one class lookup
// and one transition a byte, no branch on the byte. The states say what the text so far allows.
enum EmailClass : unsigned char {
  kLetter,
  kDigit,
  kHyphen,
  kUnderscoreOrPlus,
  kQuote,
  kDot,
  kAt,
  kOther,
  kEmailClassCount
};
enum EmailState : unsigned char {
  kLocalStart,    // at the start or after a dot: a local character must come
  kLocalEnd,      // after a character a local part may end with
  kLocalQuote,    // after a quote, which a local part may not end with
  kFirstLabel,    // after the '@': a label must start
  kInFirstLabel,  // in a label no dot has ended yet
  kLabel,         // after a dot of the domain: a label must start
  kOneLetter,     // in a label of one letter so far
  kLetters,       // in a label of two or more letters: a top-level domain if the text ends
  kMixedLabel,    // in a label with a digit or hyphen
  kNoEmail,       // no continuation matches
  kEmailStateCount
};
constexpr std::array<EmailClass, 256> kEmailClasses = [] {
  std::array<EmailClass, 256> classes{};
  for (int c = 0; c < 256; ++c) {
    const auto ch = static_cast<char>(c);
    EmailClass cls = kOther;
    if (ascii_alpha(ch)) cls = kLetter;
    if (ascii_digit(ch)) cls = kDigit;
    if (ch == '-') cls = kHyphen;
    if (ch == '_' || ch == '+') cls = kUnderscoreOrPlus;
    if (ch == '\'') cls = kQuote;
    if (ch == '.') cls = kDot;
    if (ch == '@') cls = kAt;
    classes[static_cast<std::size_t>(c)] = cls;
  }
  return classes;
}();
constexpr std::array<std::array<EmailState, kEmailClassCount>, kEmailStateCount> kEmailNext = [] {
  std::array<std::array<EmailState, kEmailClassCount>, kEmailStateCount> next{};
  for (auto& row : next) row.fill(kNoEmail);
  for (const EmailState local : {kLocalStart, kLocalEnd, kLocalQuote}) {
    for (const EmailClass cls : {kLetter, kDigit, kHyphen, kUnderscoreOrPlus}) {
      next[local][cls] = kLocalEnd;
    }
    next[local][kQuote] = kLocalQuote;
  }
  next[kLocalEnd][kDot] = kLocalStart;
  next[kLocalQuote][kDot] = kLocalStart;
  next[kLocalEnd][kAt] = kFirstLabel;
  next[kFirstLabel][kLetter] = next[kFirstLabel][kDigit] = kInFirstLabel;
  next[kInFirstLabel][kLetter] = next[kInFirstLabel][kDigit] = kInFirstLabel;
  next[kInFirstLabel][kHyphen] = kInFirstLabel;
  next[kInFirstLabel][kDot] = kLabel;
  next[kLabel][kLetter] = kOneLetter;
  next[kLabel][kDigit] = kMixedLabel;
  for (const EmailState label : {kOneLetter, kLetters, kMixedLabel}) {
    next[label][kLetter] = label == kMixedLabel ? kMixedLabel : kLetters;
    next[label][kDigit] = next[label][kHyphen] = kMixedLabel;
    next[label][kDot] = kLabel;
  }
  return next;
}();

}  // namespace email

}  // namespace

bool is_iso_date(std::string_view text) {
  if (text.size() != 10) return false;
  // "YYYY-MM-" as one word, byte i of the text in byte i of the word: a digit's high half is 3,
  // and stays 3 when 6 is added (0x3A-0x3F become 0x40-0x45); no byte carries into the next once
  // the first test passed.
  constexpr std::uint64_t kHighHalves = 0x00F0F000F0F0F0F0;  // the six digits' places
  constexpr std::uint64_t kThrees = 0x0030300030303030;
  constexpr std::uint64_t kSixes = 0x0006060006060606;
  constexpr std::uint64_t kDashPlaces = 0xFF0000FF00000000;  // bytes 4 and 7
  constexpr std::uint64_t kDashes = 0x2D00002D00000000;
  std::uint64_t word = 0;
  std::memcpy(&word, text.data(), 8);
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  if ((word & (kHighHalves | kDashPlaces)) != (kThrees | kDashes) ||
      ((word + kSixes) & kHighHalves) != kThrees) {
    return false;
  }
  const auto digit = [&](std::size_t i) {
    return static_cast<unsigned>(static_cast<unsigned char>(text[i])) - '0';
  };
  const unsigned d0 = digit(8), d1 = digit(9);
  if (d0 > 9 || d1 > 9) return false;
  const int month = static_cast<int>(digit(5) * 10 + digit(6));
  const int day = static_cast<int>(d0 * 10 + d1);
  if (month < 1 || month > 12 || day < 1) return false;
  const auto year = static_cast<int>(digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3));
  return day <= days_in_month(year, month);
}

bool is_iso_time(std::string_view text) {
  const std::size_t length = partial_time(text, false);
  if (length == 0) return false;
  return length == text.size() || offset(text.substr(length));
}

bool is_iso_date_time(std::string_view text) {
  if (text.size() < 11 || !is_iso_date(text.substr(0, 10))) return false;
  if (text[10] != 'T' && text[10] != 't') return false;
  const std::string_view time = text.substr(11);
  const std::size_t length = partial_time(time, false);
  return length > 0 && offset(time.substr(length));
}

bool is_email(std::string_view text) {
  email::EmailState state = email::kLocalStart;
  for (const char c : text) {
    state = email::kEmailNext[state][email::kEmailClasses[static_cast<unsigned char>(c)]];
  }
  return state == email::kLetters;
}

bool is_uri(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || !ascii_alpha(text[0])) return false;
  const std::string_view scheme = text.substr(0, colon);
  for (char c : scheme) {
    if (!ascii_alnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  const std::string_view rest = text.substr(colon + 1);
  if (rest.empty()) return false;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    const auto c = static_cast<unsigned char>(rest[i]);
    if (c <= 0x20 || c == 0x7F) return false;
    if (c == '<' || c == '>' || c == '"' || c == '{' || c == '}' || c == '|' || c == '\\' ||
        c == '^' || c == '`') {
      return false;
    }
    if (c == '%' && (i + 2 >= rest.size() || !ascii_hex(rest[i + 1]) || !ascii_hex(rest[i + 2])))
      return false;
  }
  if (web_scheme(scheme)) {
    if (!rest.starts_with("//")) return false;
    const std::string_view authority = rest.substr(2, rest.find_first_of("/?#", 2) - 2);
    const auto user_end = authority.rfind('@');
    std::string_view host =
        user_end == std::string_view::npos ? authority : authority.substr(user_end + 1);
    // What the WHATWG URL parser behind z.url() refuses too: a bracketed host that is not IPv6,
    // a port that is not a number.
    std::string_view port;
    if (host.starts_with("[")) {
      const auto close = host.find(']');
      if (close == std::string_view::npos || !is_ipv6(host.substr(1, close - 1))) return false;
      port = host.substr(close + 1);
      if (!port.empty() && port[0] != ':') return false;
    } else {
      port = host.substr(std::min(host.find(':'), host.size()));
      host = host.substr(0, host.find(':'));
      if (host.empty()) return false;
    }
    for (char c : port.substr(port.empty() ? 0 : 1)) {
      if (!ascii_digit(c)) return false;
    }
  }
  return true;
}

bool is_uuid(std::string_view text) {
  if (text == "00000000-0000-0000-0000-000000000000") return true;
  if (text == "ffffffff-ffff-ffff-ffff-ffffffffffff" ||
      text == "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF") {
    return true;
  }
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (text[i] != '-') return false;
    } else if (!ascii_hex(text[i])) {
      return false;
    }
  }
  const char version = text[14];
  const char variant = text[19];
  return version >= '1' && version <= '8' &&
         (variant == '8' || variant == '9' || variant == 'a' || variant == 'b' || variant == 'A' ||
          variant == 'B');
}

bool is_rfc3339_time(std::string_view text) {
  return rfc3339_time(text);
}

bool is_rfc3339_date_time(std::string_view text) {
  if (text.size() < 11 || !is_iso_date(text.substr(0, 10))) return false;
  return (text[10] == 'T' || text[10] == 't') && rfc3339_time(text.substr(11));
}

bool is_iso_duration(std::string_view text) {
  if (text.size() < 2 || text[0] != 'P') return false;
  const std::string_view body = text.substr(1);
  if (body.back() == 'W') return duration_units(body, "W");
  const auto t = body.find('T');
  const std::string_view date = body.substr(0, t);
  if (!date.empty() && !duration_units(date, "YMD")) return false;
  if (t == std::string_view::npos) return !date.empty();
  return duration_units(body.substr(t + 1), "HMS");
}

bool is_uuid_text(std::string_view text) {
  if (text.size() != 36) return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? text[i] != '-' : !ascii_hex(text[i])) return false;
  }
  return true;
}

bool is_json_pointer(std::string_view text) {
  if (!text.empty() && text[0] != '/') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '~' && (i + 1 == text.size() || (text[i + 1] != '0' && text[i + 1] != '1'))) {
      return false;
    }
  }
  return true;
}

bool is_relative_json_pointer(std::string_view text) {
  std::size_t digits = 0;
  while (digits < text.size() && ascii_digit(text[digits])) ++digits;
  if (digits == 0 || (text[0] == '0' && digits > 1)) return false;
  const std::string_view rest = text.substr(digits);
  return rest == "#" || is_json_pointer(rest);
}

std::optional<bool> check_format(std::string_view format, std::string_view text) {
  return check_format(format, text, FormatRules::zod);
}

FormatCheck format_check(std::string_view format, FormatRules rules) {
  const bool zod = rules == FormatRules::zod;
  if (format == "date") return is_iso_date;
  if (format == "time") return zod ? is_iso_time : is_rfc3339_time;
  if (format == "date-time") return zod ? is_iso_date_time : is_rfc3339_date_time;
  if (format == "duration") return is_iso_duration;
  if (format == "email") return zod ? is_email : is_rfc5321_email;
  if (format == "idn-email") return is_idn_email;
  if (format == "hostname") return is_hostname;
  if (format == "idn-hostname") return is_idn_hostname;
  if (format == "ipv4") return is_ipv4;
  if (format == "ipv6") return is_ipv6;
  if (format == "uri") {
    if (zod) return is_uri;
    return [](std::string_view text) { return is_rfc3986_uri(text, false); };
  }
  if (format == "url") return is_uri;  // not a JSON Schema format: Zod's z.url() only
  if (format == "uri-reference") {
    return [](std::string_view text) { return is_uri_reference(text, false); };
  }
  if (format == "iri") return [](std::string_view text) { return is_rfc3986_uri(text, true); };
  if (format == "iri-reference") {
    return [](std::string_view text) { return is_uri_reference(text, true); };
  }
  if (format == "uri-template") return is_uri_template;
  if (format == "uuid") return zod ? is_uuid : is_uuid_text;
  if (format == "json-pointer") return is_json_pointer;
  if (format == "relative-json-pointer") return is_relative_json_pointer;
  if (format == "regex") return is_ecma_regex;
  return nullptr;
}

std::optional<bool> check_format(std::string_view format, std::string_view text,
                                 FormatRules rules) {
  const FormatCheck check = format_check(format, rules);
  if (check == nullptr) return std::nullopt;
  return check(text);
}

std::string_view format_message(std::string_view format) {
  if (format == "date") return "Invalid ISO date";
  if (format == "time") return "Invalid ISO time";
  if (format == "date-time") return "Invalid ISO datetime";
  if (format == "duration") return "Invalid ISO duration";
  if (format == "email" || format == "idn-email") return "Invalid email address";
  if (format == "hostname" || format == "idn-hostname") return "Invalid hostname";
  if (format == "ipv4") return "Invalid IPv4 address";
  if (format == "ipv6") return "Invalid IPv6 address";
  if (format == "uri" || format == "url" || format == "iri") return "Invalid URL";
  if (format == "uri-reference" || format == "iri-reference") return "Invalid URI reference";
  if (format == "uri-template") return "Invalid URI template";
  if (format == "uuid") return "Invalid UUID";
  if (format == "json-pointer") return "Invalid JSON Pointer";
  if (format == "relative-json-pointer") return "Invalid relative JSON Pointer";
  if (format == "regex") return "Invalid regex";
  return {};
}

}  // namespace accord::detail
