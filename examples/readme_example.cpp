// The example in README.md, word for word below this comment; tests/docs_test.cpp holds the two
// together and runs this program against accord-mock, so the README's code compiles and works.
#include <accord/client.hpp>
#include <iostream>

int main() {
  using namespace accord;
  const auto refund =
      object({{"orderId", string().regex(R"(^ORD-\d{6}$)")},
              {"amount", number().positive()},
              {"currency", enumeration({"EUR", "USD"})},
              {"orderDate", string().date()},
              {"refundDate", string().date()}})
          .refine([](const nlohmann::json& r) { return r.at("refundDate") >= r.at("orderDate"); },
                  "refundDate is before orderDate",
                  {.path = {"refundDate"}, .rule_text = "refundDate is on or after orderDate"});

  const Client client({.provider = "openai-chat"});  // OPENAI_API_KEY, OPENAI_BASE_URL
  auto result = client.extract({.schema = refund,
                                .prompt = "Order ORD-482913 (2026-11-02) arrived broken; I ask "
                                          "on 2026-11-20 for my 42.50 EUR back."});
  if (!result) {
    std::cerr << to_string(result.error().kind) << ": " << result.error().message << "\n"
              << result.trace().to_text() << "\n";
    return 1;
  }
  std::cout << result.value().dump(2) << "\n";
}
