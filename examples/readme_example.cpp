// The example in README.md, word for word below this comment; tests/docs/docs_test.cpp holds the
// two together and runs this program against accord-mock, so the README's code compiles and works.
#include <accord/accord.hpp>
#include <iostream>
enum class Currency { EUR, USD };
BOOST_DESCRIBE_ENUM(Currency, EUR, USD)
struct Refund {
  std::string orderId, orderDate, refundDate;
  double amount;
  Currency currency;
};
BOOST_DESCRIBE_STRUCT(Refund, (), (orderId, amount, currency, orderDate, refundDate))
int main() {
  using namespace accord;
  const auto refund =
      typed<Refund>()
          .field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))
          .refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
                  "refundDate is before orderDate",
                  {.path = {"refundDate"}, .rule_text = "refundDate is on or after orderDate"});
  const Client client({.provider = "openai-chat"});  // OPENAI_API_KEY, OPENAI_BASE_URL
  auto result = client.extract<Refund>({.schema = refund,
                                        .prompt = "Order ORD-482913 (2026-11-02) arrived broken; "
                                                  "I ask on 2026-11-20 for my 42.50 EUR back."});
  if (!result) return (std::cerr << to_string(result.error().kind) << "\n"), 1;
  std::cout << to_json_value(result.value()).dump(2) << "\n";
}
