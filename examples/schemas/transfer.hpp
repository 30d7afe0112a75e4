#pragma once
// The transfer schema: the rules of /work/shared/anchors/schemas.mjs (Zod's `Transfer`), in accord.

#include <nlohmann/json.hpp>
#include <string>

#include "accord/schema.hpp"

namespace accord::examples {

// A money transfer to a Stripe-style account: a strict object with a bounded amount, an optional
// memo, an idempotency key that defaults to "auto", and a cap on euro transfers.
inline Schema transfer_schema() {
  // Predicates see any JSON; values of the wrong type pass here and fail their type checks instead.
  auto eur_capped = [](const nlohmann::json& value) {
    if (!value.is_object()) return true;
    auto currency = value.find("currency");
    auto amount = value.find("amount");
    if (currency == value.end() || *currency != "eur") return true;
    if (amount == value.end() || !amount->is_number()) return true;
    return amount->get<double>() <= 500;
  };
  return object({
                    {"accountId",
                     string().regex("^acct_[a-z0-9]+$").describe("Stripe-style account id")},
                    {"email", string().email()},
                    {"amount", number().min(1).max(10000)},
                    {"currency", enumeration({"usd", "eur"})},
                    {"memo", string().min(3).max(120).optional()},
                    {"idempotencyKey", string().default_("auto")},
                })
      .refine(eur_capped, "eur transfers are capped at 500");
}

}  // namespace accord::examples
