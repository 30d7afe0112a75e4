#pragma once
// The refund schema: the rules of /work/shared/anchors/schemas.mjs (Zod's `Refund`), in accord.

#include <nlohmann/json.hpp>
#include <string>

#include "accord/schema.hpp"

namespace accord::examples {

// A refund request: a strict object whose `note` may not carry links and whose refund may not
// predate its order. The date-order issue points at `refundDate`, as Zod's `path` does.
inline Schema refund_schema() {
  // Predicates see any JSON; one of the wrong type passes here and fails its type check instead.
  auto no_links = [](const nlohmann::json& value) {
    if (!value.is_string()) return true;
    const auto& text = value.get_ref<const std::string&>();
    return text.find("http://") == std::string::npos && text.find("https://") == std::string::npos;
  };
  // ISO dates compare correctly as strings, as `r.refundDate >= r.orderDate` does in JavaScript.
  auto dates_in_order = [](const nlohmann::json& value) {
    if (!value.is_object()) return true;
    auto order = value.find("orderDate");
    auto refund = value.find("refundDate");
    if (order == value.end() || refund == value.end()) return true;
    if (!order->is_string() || !refund->is_string()) return true;
    return refund->get_ref<const std::string&>() >= order->get_ref<const std::string&>();
  };
  return object({
                    {"orderId", string().regex(R"(^ORD-\d{6}$)")},
                    {"amount", number().positive()},
                    {"currency", enumeration({"EUR", "USD"})},
                    {"orderDate", string().date()},
                    {"refundDate", string().date()},
                    {"note", string().refine(no_links, "note must not contain links")},
                    {"sku", string()},
                })
      // The message names the violation (as Zod's does); the model reads the rule itself.
      .refine(dates_in_order, "refundDate is before orderDate",
              {.path = {"refundDate"}, .rule_text = "refundDate is on or after orderDate"});
}

}  // namespace accord::examples
