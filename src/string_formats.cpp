#include "string_formats.hpp"

#include <string>

namespace accord::detail {
namespace {

bool digit(char c) {
  return c >= '0' && c <= '9';
}
bool alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool alnum(char c) {
  return digit(c) || alpha(c);
}
bool hex(char c) {
  return digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Reads `count` digits at `at` as a number; -1 when any is not a digit.
int number_at(std::string_view text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (!digit(text[i])) return -1;
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
      while (at < text.size() && digit(text[at])) ++at, ++digits;
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

bool web_scheme(std::string_view scheme) {
  std::string lower;
  for (char c : scheme) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return lower == "http" || lower == "https" || lower == "ftp" || lower == "ws" || lower == "wss";
}

}  // namespace

bool is_iso_date(std::string_view text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  const int year = number_at(text, 0, 4);
  const int month = number_at(text, 5, 2);
  const int day = number_at(text, 8, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
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
  const auto at = text.find('@');
  if (at == std::string_view::npos || at == 0) return false;
  if (text.find("..") != std::string_view::npos) return false;
  const std::string_view local = text.substr(0, at);
  const std::string_view domain = text.substr(at + 1);
  if (local.front() == '.') return false;
  for (char c : local) {
    if (!alnum(c) && c != '_' && c != '\'' && c != '+' && c != '-' && c != '.') return false;
  }
  const char last = local.back();
  if (last == '.' || last == '\'') return false;
  // One or more labels each ending in '.', then a top-level domain of two or more letters.
  const auto tld_dot = domain.rfind('.');
  if (tld_dot == std::string_view::npos) return false;
  const std::string_view tld = domain.substr(tld_dot + 1);
  if (tld.size() < 2) return false;
  for (char c : tld) {
    if (!alpha(c)) return false;
  }
  std::size_t start = 0;
  while (start < tld_dot) {
    const auto end = domain.find('.', start);
    const std::string_view label = domain.substr(start, end - start);
    if (label.empty() || !alnum(label.front())) return false;
    for (char c : label) {
      if (!alnum(c) && c != '-') return false;
    }
    start = end + 1;
  }
  return tld_dot > 0;
}

bool is_uri(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos || colon == 0 || !alpha(text[0])) return false;
  const std::string_view scheme = text.substr(0, colon);
  for (char c : scheme) {
    if (!alnum(c) && c != '+' && c != '-' && c != '.') return false;
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
    if (c == '%' && (i + 2 >= rest.size() || !hex(rest[i + 1]) || !hex(rest[i + 2]))) return false;
  }
  if (web_scheme(scheme)) {
    if (!rest.starts_with("//")) return false;
    const std::string_view authority = rest.substr(2, rest.find_first_of("/?#", 2) - 2);
    const auto user_end = authority.rfind('@');
    std::string_view host =
        user_end == std::string_view::npos ? authority : authority.substr(user_end + 1);
    if (!host.starts_with("[")) host = host.substr(0, host.find(':'));
    if (host.empty()) return false;
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
    } else if (!hex(text[i])) {
      return false;
    }
  }
  const char version = text[14];
  const char variant = text[19];
  return version >= '1' && version <= '8' &&
         (variant == '8' || variant == '9' || variant == 'a' || variant == 'b' || variant == 'A' ||
          variant == 'B');
}

std::optional<bool> check_format(std::string_view format, std::string_view text) {
  if (format == "date") return is_iso_date(text);
  if (format == "time") return is_iso_time(text);
  if (format == "date-time") return is_iso_date_time(text);
  if (format == "email") return is_email(text);
  if (format == "uri" || format == "url") return is_uri(text);
  if (format == "uuid") return is_uuid(text);
  return std::nullopt;
}

std::string_view format_message(std::string_view format) {
  if (format == "date") return "Invalid ISO date";
  if (format == "time") return "Invalid ISO time";
  if (format == "date-time") return "Invalid ISO datetime";
  if (format == "email") return "Invalid email address";
  if (format == "uri" || format == "url") return "Invalid URL";
  if (format == "uuid") return "Invalid UUID";
  return {};
}

}  // namespace accord::detail
