#pragma once
// The refund documents the loop tests script accord-mock with: one valid for
// examples/schemas/refund.hpp, one that breaks its date rule, and a scenario of replies.

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "accord/client.hpp"
#include "schemas/refund.hpp"

namespace accord::testing_documents {

// An extraction of the example refund schema, for tests about the call rather than the text.
inline ExtractRequest refund_request() {
  return {.schema = examples::refund_schema(), .prompt = "Extract the refund.", .name = "refund"};
}

inline const nlohmann::json kValidRefund = {{"orderId", "ORD-482913"},
                                            {"amount", 42.5},
                                            {"currency", "EUR"},
                                            {"orderDate", "2026-11-02"},
                                            {"refundDate", "2026-11-20"},
                                            {"note", "Kettle arrived broken."},
                                            {"sku", "KT-200"}};

// refundDate before orderDate: fails the schema's refinement only.
inline nlohmann::json swapped_dates() {
  nlohmann::json doc = kValidRefund;
  std::swap(doc["orderDate"], doc["refundDate"]);
  return doc;
}

// A negative amount: fails one field's own check, nothing else.
inline nlohmann::json bad_amount() {
  nlohmann::json doc = kValidRefund;
  doc["amount"] = -42.5;
  return doc;
}

inline std::string scenario(const std::vector<nlohmann::json>& replies) {
  return nlohmann::json{{"replies", replies}}.dump();
}

}  // namespace accord::testing_documents
