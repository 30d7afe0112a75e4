#include "core/json_number.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>

namespace accord::detail {
namespace {

using json = nlohmann::json;

constexpr double kTwo63 = 9223372036854775808.0;
constexpr double kTwo64 = 18446744073709551616.0;

template <class T>
int order(T a, T b) {
  return a < b ? -1 : (a > b ? 1 : 0);
}

// An int64 against a double, exactly: the double is split into its integral part (which fits
// in an int64 inside the range checked first) and its fraction.
int compare_signed_double(std::int64_t a, double b) {
  if (std::isnan(b)) return 0;
  if (b >= kTwo63) return -1;
  if (b < -kTwo63) return 1;
  const double whole = std::trunc(b);
  const auto integer = static_cast<std::int64_t>(whole);
  if (a != integer) return order(a, integer);
  return order(0.0, b - whole);
}

int compare_unsigned_double(std::uint64_t a, double b) {
  if (std::isnan(b)) return 0;
  if (b >= kTwo64) return -1;
  if (b < 0) return 1;
  const double whole = std::trunc(b);
  const auto integer = static_cast<std::uint64_t>(whole);
  if (a != integer) return order(a, integer);
  return order(0.0, b - whole);
}

int compare_signed_unsigned(std::int64_t a, std::uint64_t b) {
  if (a < 0) return -1;
  return order(static_cast<std::uint64_t>(a), b);
}

// Digits after the decimal point in the shortest form that reads back as `value`.
int decimals(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string text(buffer, result.ptr);
  const auto e = text.find('e');
  const auto dot = text.find('.');
  const int fraction = dot == std::string::npos ? 0 : static_cast<int>(e - dot - 1);
  return std::max(0, fraction - std::stoi(text.substr(e + 1)));
}

// |n| of an integer JSON number as a uint64 (exact for every int64, INT64_MIN included).
std::uint64_t magnitude(const json& n) {
  if (n.is_number_unsigned()) return n.get<std::uint64_t>();
  const auto v = n.get<std::int64_t>();
  return v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v);
}

}  // namespace

int compare_numbers(const json& a, const json& b) {
  const bool au = a.is_number_unsigned();
  const bool bu = b.is_number_unsigned();
  const bool ai = a.is_number_integer() && !au;
  const bool bi = b.is_number_integer() && !bu;
  if (au && bu) return order(a.get<std::uint64_t>(), b.get<std::uint64_t>());
  if (ai && bi) return order(a.get<std::int64_t>(), b.get<std::int64_t>());
  if (ai && bu) return compare_signed_unsigned(a.get<std::int64_t>(), b.get<std::uint64_t>());
  if (au && bi) return -compare_signed_unsigned(b.get<std::int64_t>(), a.get<std::uint64_t>());
  if (ai) return compare_signed_double(a.get<std::int64_t>(), b.get<double>());
  if (au) return compare_unsigned_double(a.get<std::uint64_t>(), b.get<double>());
  if (bi) return -compare_signed_double(b.get<std::int64_t>(), a.get<double>());
  if (bu) return -compare_unsigned_double(b.get<std::uint64_t>(), a.get<double>());
  return order(a.get<double>(), b.get<double>());
}

bool is_integral(const json& number) {
  if (number.is_number_integer()) return true;
  if (!number.is_number_float()) return false;
  const double d = number.get<double>();
  return std::isfinite(d) && std::trunc(d) == d;
}

bool is_multiple_of(const json& value, const json& divisor) {
  if (value.is_number_integer() && divisor.is_number_integer()) {
    const auto d = magnitude(divisor);
    return d == 0 || magnitude(value) % d == 0;
  }
  const double v = value.get<double>();
  const double d = divisor.get<double>();
  if (d == 0 || !std::isfinite(d)) return true;
  if (!std::isfinite(v)) return false;
  const int places = std::max(decimals(v), decimals(d));
  if (places <= 15) {
    const double scale = std::pow(10.0, places);
    const double a = std::round(v * scale);
    const double b = std::round(d * scale);
    if (std::fabs(a) < 9e15 && std::fabs(b) < 9e15 && b != 0) return std::fmod(a, b) == 0;
  }
  const double quotient = v / d;
  if (!std::isfinite(quotient)) return false;
  return std::fabs(quotient - std::round(quotient)) <= 1e-9 * std::max(1.0, std::fabs(quotient));
}

bool json_equal(const json& a, const json& b) {
  if (a.is_number() && b.is_number()) return compare_numbers(a, b) == 0;
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::array: {
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!json_equal(a[i], b[i])) return false;
      }
      return true;
    }
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      for (const auto& [key, item] : a.items()) {
        auto it = b.find(key);
        if (it == b.end() || !json_equal(item, *it)) return false;
      }
      return true;
    }
    default:
      return a == b;
  }
}

std::size_t json_hash(const json& value) {
  if (value.is_number()) {
    if (is_integral(value)) {
      // Integral doubles in the int64/uint64 range hash as the integer they equal.
      if (value.is_number_float()) {
        const double d = value.get<double>();
        if (d >= -kTwo63 && d < kTwo63)
          return std::hash<std::int64_t>{}(static_cast<std::int64_t>(d));
        if (d >= 0 && d < kTwo64) return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(d));
        return std::hash<double>{}(d);
      }
      if (value.is_number_unsigned()) return std::hash<std::uint64_t>{}(value.get<std::uint64_t>());
      return std::hash<std::int64_t>{}(value.get<std::int64_t>());
    }
    return std::hash<double>{}(value.get<double>());
  }
  std::size_t seed = static_cast<std::size_t>(value.type()) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&seed](std::size_t h) {
    seed ^= h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  };
  if (value.is_array()) {
    for (const auto& item : value) mix(json_hash(item));
  } else if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      mix(std::hash<std::string>{}(key));
      mix(json_hash(item));
    }
  } else if (value.is_string()) {
    mix(std::hash<std::string>{}(value.get_ref<const std::string&>()));
  } else if (value.is_boolean()) {
    mix(value.get<bool>() ? 1 : 2);
  }
  return seed;
}

std::string js_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";
  if (std::trunc(value) == value && std::fabs(value) < 1e21) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string text(buffer, result.ptr);
  // text is "-d.ddde+XX": shortest round-trip digits and a decimal exponent.
  std::string sign;
  std::size_t at = 0;
  if (text[0] == '-') {
    sign = "-";
    at = 1;
  }
  const auto e = text.find('e');
  std::string digits;
  for (std::size_t i = at; i < e; ++i) {
    if (text[i] != '.') digits += text[i];
  }
  const int exponent = std::stoi(text.substr(e + 1));
  const int k = static_cast<int>(digits.size());
  const int n = exponent + 1;
  if (k <= n && n <= 21) return sign + digits + std::string(static_cast<std::size_t>(n - k), '0');
  if (0 < n && n <= 21) {
    return sign + digits.substr(0, static_cast<std::size_t>(n)) + "." +
           digits.substr(static_cast<std::size_t>(n));
  }
  if (-6 < n && n <= 0)
    return sign + "0." + std::string(static_cast<std::size_t>(-n), '0') + digits;
  std::string mantissa = digits.substr(0, 1);
  if (k > 1) mantissa += "." + digits.substr(1);
  return sign + mantissa + "e" + (n - 1 >= 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
}

std::string js_number(const json& number) {
  if (number.is_number_unsigned()) return std::to_string(number.get<std::uint64_t>());
  if (number.is_number_integer()) return std::to_string(number.get<std::int64_t>());
  if (number.is_number_float()) return js_number(number.get<double>());
  return number.dump();
}

}  // namespace accord::detail
