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
std::uint64_t magnitude(const NumberValue& n) {
  if (n.kind == JsonType::number_unsigned) return n.bits;
  const auto v = static_cast<std::int64_t>(n.bits);
  return v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v);
}

bool is_integral(const NumberValue& n) {
  return n.kind != JsonType::number_float ||
         (std::isfinite(n.real) && std::trunc(n.real) == n.real);
}

bool is_multiple_of(const NumberValue& value, const NumberValue& divisor) {
  if (value.kind != JsonType::number_float && divisor.kind != JsonType::number_float) {
    const auto d = magnitude(divisor);
    return d == 0 || magnitude(value) % d == 0;
  }
  const double v = as_double(value);
  const double d = as_double(divisor);
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

// A tree or a view against a tree or a view (core/json_access.hpp asks each the same way).
template <class A, class B>
bool equal(const A& a, const B& b) {
  const JsonType ta = type_of(a);
  const JsonType tb = type_of(b);
  if (is_number_type(ta) && is_number_type(tb))
    return compare_numbers(number_of(a), number_of(b)) == 0;
  if (ta != tb) return false;
  switch (ta) {
    case JsonType::array: {
      if (a.size() != b.size()) return false;
      auto other = std::begin(items_of(b));
      return every_item(a, [&](const auto& item) { return equal(item, *other++); });
    }
    case JsonType::object:
      return a.size() == b.size() && every_member(a, [&](std::string_view key, const auto& item) {
               const auto found = find_member(b, key);
               return found && equal(item, *found);
             });
    case JsonType::string:
      return text_of(a) == text_of(b);
    case JsonType::boolean:
      return boolean_of(a) == boolean_of(b);
    default:
      return true;  // null
  }
}

template <class Value>
std::size_t hash(const Value& value) {
  const JsonType type = type_of(value);
  if (is_number_type(type)) {
    const NumberValue n = number_of(value);
    if (n.kind == JsonType::number_unsigned) return std::hash<std::uint64_t>{}(n.bits);
    if (n.kind == JsonType::number_integer) {
      return std::hash<std::int64_t>{}(static_cast<std::int64_t>(n.bits));
    }
    // Integral doubles in the int64/uint64 range hash as the integer they equal.
    const double d = n.real;
    if (is_integral(n)) {
      if (d >= -kTwo63 && d < kTwo63)
        return std::hash<std::int64_t>{}(static_cast<std::int64_t>(d));
      if (d >= 0 && d < kTwo64) return std::hash<std::uint64_t>{}(static_cast<std::uint64_t>(d));
    }
    return std::hash<double>{}(d);
  }
  std::size_t seed = static_cast<std::size_t>(type) * 0x9e3779b97f4a7c15ULL;
  auto mix = [&seed](std::size_t h) {
    seed ^= h + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  };
  if (type == JsonType::array) {
    every_item(value, [&](const auto& item) {
      mix(hash(item));
      return true;
    });
  } else if (type == JsonType::object) {
    every_member(value, [&](std::string_view key, const auto& item) {
      mix(std::hash<std::string_view>{}(key));
      mix(hash(item));
      return true;
    });
  } else if (type == JsonType::string) {
    mix(std::hash<std::string_view>{}(text_of(value)));
  } else if (type == JsonType::boolean) {
    mix(boolean_of(value) ? 1 : 2);
  }
  return seed;
}

}  // namespace

int compare_numbers(const NumberValue& a, const NumberValue& b) {
  using T = JsonType;
  const auto as_signed = [](const NumberValue& n) { return static_cast<std::int64_t>(n.bits); };
  if (a.kind == T::number_unsigned && b.kind == T::number_unsigned) return order(a.bits, b.bits);
  if (a.kind == T::number_integer && b.kind == T::number_integer) {
    return order(as_signed(a), as_signed(b));
  }
  if (a.kind == T::number_integer && b.kind == T::number_unsigned) {
    return compare_signed_unsigned(as_signed(a), b.bits);
  }
  if (a.kind == T::number_unsigned && b.kind == T::number_integer) {
    return -compare_signed_unsigned(as_signed(b), a.bits);
  }
  if (a.kind == T::number_integer) return compare_signed_double(as_signed(a), b.real);
  if (a.kind == T::number_unsigned) return compare_unsigned_double(a.bits, b.real);
  if (b.kind == T::number_integer) return -compare_signed_double(as_signed(b), a.real);
  if (b.kind == T::number_unsigned) return -compare_unsigned_double(b.bits, a.real);
  return order(a.real, b.real);
}

bool is_integral(const json& number) {
  return number.is_number() && is_integral(number_of(number));
}

bool is_integral(JsonView number) {
  return number.is_number() && is_integral(number_of(number));
}

bool is_multiple_of(const json& value, const json& divisor) {
  return is_multiple_of(number_of(value), number_of(divisor));
}

bool is_multiple_of(JsonView value, const json& divisor) {
  return is_multiple_of(number_of(value), number_of(divisor));
}

bool json_equal(const json& a, const json& b) {
  return equal(a, b);
}

bool json_equal(JsonView a, const json& b) {
  return equal(a, b);
}

bool json_equal(JsonView a, JsonView b) {
  return equal(a, b);
}

std::size_t json_hash(const json& value) {
  return hash(value);
}

std::size_t json_hash(JsonView value) {
  return hash(value);
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
