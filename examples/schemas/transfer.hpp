#pragma once
// The transfer schema: the rules of ../shared/anchors/schemas.mjs (Zod's `Transfer`), declared as a
// C++ struct.

#include <optional>
#include <string>

#include "accord/typed_rules.hpp"

namespace accord::examples {

enum class TransferCurrency { usd, eur };
BOOST_DESCRIBE_ENUM(TransferCurrency, usd, eur)

// A money transfer to a Stripe-style account.
struct Transfer {
  std::string accountId;
  std::string email;
  double amount = 0;
  TransferCurrency currency = TransferCurrency::usd;
  std::optional<std::string> memo;
  std::string idempotencyKey = "auto";
};
BOOST_DESCRIBE_STRUCT(Transfer, (), (accountId, email, amount, currency, memo, idempotencyKey))

// A strict object with a bounded amount, an optional memo, an idempotency key that defaults to
// "auto" (the struct's own initial value), and a cap on euro transfers. The cap is a declarative
// rule rather than a refine(): it is checked locally with Zod's message and path (the object
// itself), and providers that can enforce it get keywords (OpenAI strict: anyOf branches).
inline TypedSchema<Transfer> typed_transfer_schema() {
  return typed<Transfer>()
      .field(&Transfer::accountId, regex("^acct_[a-z0-9]+$"), describe("Stripe-style account id"))
      .field(&Transfer::email, email())
      .field(&Transfer::amount, min(1), max(10000))
      .field(&Transfer::memo, min(3), max(120))
      .field(&Transfer::idempotencyKey, defaulted())
      .rule(when(&Transfer::currency, Op::eq, TransferCurrency::eur)
                .then(&Transfer::amount, Op::lte, 500),
            "eur transfers are capped at 500",
            {.path = Path{}, .text = "eur transfers are capped at 500"});
}

inline Schema transfer_schema() {
  return typed_transfer_schema();
}

}  // namespace accord::examples
