#pragma once
// The refund schema: the rules of ../shared/anchors/schemas.mjs (Zod's `Refund`), declared as a
// C++ struct.

#include <string>

#include "accord/typed_rules.hpp"

namespace accord::examples {

enum class RefundCurrency { EUR, USD };
BOOST_DESCRIBE_ENUM(RefundCurrency, EUR, USD)

// A refund request whose `note` may not carry links and whose refund may not predate its order.
struct Refund {
  std::string orderId;
  double amount = 0;
  RefundCurrency currency = RefundCurrency::EUR;
  std::string orderDate;
  std::string refundDate;
  std::string note;
  std::string sku;
};
BOOST_DESCRIBE_STRUCT(Refund, (), (orderId, amount, currency, orderDate, refundDate, note, sku))

inline TypedSchema<Refund> typed_refund_schema() {
  auto no_links = [](const std::string& note) {
    return note.find("http://") == std::string::npos && note.find("https://") == std::string::npos;
  };
  return typed<Refund>()
      .field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))
      .field(&Refund::amount, positive())
      .field(&Refund::orderDate, date())
      .field(&Refund::refundDate, date())
      .field(&Refund::note, refine(no_links, "note must not contain links"))
      // ISO dates compare correctly as strings, as `r.refundDate >= r.orderDate` does in
      // JavaScript. The message names the violation (as Zod's does); the model reads the rule
      // itself. The issue points at `refundDate`, as Zod's `path` does.
      .refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
              "refundDate is before orderDate",
              {.path = {"refundDate"}, .rule_text = "refundDate is on or after orderDate"});
}

inline Schema refund_schema() {
  return typed_refund_schema();
}

}  // namespace accord::examples
