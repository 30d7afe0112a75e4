#pragma once
// The transfer schema: the rules of /work/shared/anchors/schemas.mjs (Zod's `Transfer`), in accord.

#include "accord/schema.hpp"

namespace accord::examples {

// A money transfer to a Stripe-style account: a strict object with a bounded amount, an optional
// memo, an idempotency key that defaults to "auto", and a cap on euro transfers. The cap is a
// declarative rule rather than a refine(): it is checked locally with Zod's message and path (the
// object itself), and providers that can enforce it get keywords (OpenAI strict: anyOf branches).
inline Schema transfer_schema() {
  return object({
                    {"accountId",
                     string().regex("^acct_[a-z0-9]+$").describe("Stripe-style account id")},
                    {"email", string().email()},
                    {"amount", number().min(1).max(10000)},
                    {"currency", enumeration({"usd", "eur"})},
                    {"memo", string().min(3).max(120).optional()},
                    {"idempotencyKey", string().default_("auto")},
                })
      .rule(when("currency", Op::eq, "eur").then("amount", Op::lte, 500),
            "eur transfers are capped at 500",
            {.path = Path{}, .text = "eur transfers are capped at 500"});
}

}  // namespace accord::examples
