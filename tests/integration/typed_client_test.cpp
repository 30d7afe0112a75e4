// The typed path end to end over real HTTP against accord-mock: extract<T>, extract_async<T> and
// typed tools.
#include <gtest/gtest.h>

#include <future>

#include "accord/typed_tools.hpp"
#include "fixtures/mock_process.hpp"
#include "fixtures/provider_params.hpp"
#include "fixtures/typed_fixtures.hpp"

namespace typed_fixtures {

struct Order {
  std::string sku;
  std::int32_t quantity = 0;
};
BOOST_DESCRIBE_STRUCT(Order, (), (sku, quantity))

struct Receipt {
  std::string transferId;
  double amount = 0;
};
BOOST_DESCRIBE_STRUCT(Receipt, (), (transferId, amount))

}  // namespace typed_fixtures

namespace accord {
namespace {

using nlohmann::json;
using namespace typed_fixtures;

const auto kRefundSchema = typed<Refund>()
                               .field(&Refund::orderId, regex(R"(^ORD-\d{6}$)"))
                               .field(&Refund::amount, positive())
                               .refine([](const Refund& r) { return r.refundDate >= r.orderDate; },
                                       "refundDate is before orderDate", {.path = {"refundDate"}});

class TypedLoop : public ::testing::Test {
 protected:
  Client client_for(const std::vector<json>& replies) {
    mock_ = std::make_unique<MockProcess>(json{{"replies", replies}}.dump());
    return Client(testing_support::mock_client_options("openai-chat", mock_->base_url()));
  }
  std::unique_ptr<MockProcess> mock_;
};

TEST_F(TypedLoop, ExtractReturnsTheStructWithAnAbsentOptionalMemberEmpty) {
  const auto client = client_for({{{"json", kRefundJson}}});
  const auto result = client.extract<Refund>({.schema = kRefundSchema, .prompt = "Extract."});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().orderId, "ORD-482913");
  EXPECT_EQ(result.value().currency, Currency::EUR);
  EXPECT_FALSE(result.value().note.has_value());
}

TEST_F(TypedLoop, ExtractReadsANullOptionalMemberAsEmpty) {
  json reply = kRefundJson;
  reply["note"] = nullptr;  // what OpenAI strict mode sends for an absent optional field
  const auto client = client_for({{{"json", reply}}});
  const auto result = client.extract<Refund>({.schema = kRefundSchema, .prompt = "Extract."});
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_FALSE(result.value().note.has_value());
}

TEST_F(TypedLoop, TypedRefinementFailureIsCorrectedLikeAnyIssue) {
  json swapped = kRefundJson;
  std::swap(swapped["orderDate"], swapped["refundDate"]);
  const auto client = client_for({{{"json", swapped}}, {{"json", kRefundJson}}});
  const auto result = client.extract<Refund>({.schema = kRefundSchema, .prompt = "Extract."});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result.trace().attempts.size(), 2U);
  EXPECT_EQ(result.trace().attempts[0].issues[0].message, "refundDate is before orderDate");
}

TEST_F(TypedLoop, ValidValueThatDoesNotFitIsAConversionErrorWithItsPath) {
  const auto client = client_for({{{"json", {{"sku", "KT-200"}, {"quantity", 5000000000LL}}}}});
  const auto result = client.extract<Order>({.schema = typed<Order>(), .prompt = "Extract."});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::conversion);
  EXPECT_EQ(result.error().path, (Path{"quantity"}));
  EXPECT_EQ(
      result.error().message,
      "the value does not fit the C++ type: 5000000000 does not fit in int32_t (at quantity)");
  EXPECT_EQ(result.trace().attempts.size(), 1U);
}

TEST_F(TypedLoop, ExtractAsyncFutureHoldsTheStructAfterACorrection) {
  json swapped = kRefundJson;
  std::swap(swapped["orderDate"], swapped["refundDate"]);
  const auto client = client_for({{{"json", swapped}}, {{"json", kRefundJson}}});
  const auto result =
      client.extract_async<Refund>({.schema = kRefundSchema, .prompt = "Extract."}).get();
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_EQ(result.value().orderId, "ORD-482913");
  EXPECT_EQ(result.value().currency, Currency::EUR);
  EXPECT_EQ(result.trace().attempts.size(), 2U);
}

TEST_F(TypedLoop, ExtractAsyncCallbackGetsTheConversionErrorExtractGives) {
  const json too_big = {{"sku", "KT-200"}, {"quantity", 5000000000LL}};
  const auto client = client_for({{{"json", too_big}}, {{"json", too_big}}});
  const ExtractRequest request{.schema = typed<Order>(), .prompt = "Extract."};
  const auto blocking = client.extract<Order>(request);
  std::promise<Result<Order>> delivered;
  (void)client.extract_async<Order>(
      request, [&delivered](Result<Order> result) { delivered.set_value(std::move(result)); });
  const auto result = delivered.get_future().get();
  ASSERT_FALSE(blocking.ok());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().kind, ErrorKind::conversion);
  EXPECT_EQ(result.error().path, blocking.error().path);
  EXPECT_EQ(result.error().message, blocking.error().message);
  EXPECT_EQ(result.trace().attempts.size(), 1U);
}

class TypedTool : public TypedLoop {
 protected:
  Toolset toolset() {
    return Toolset{typed_tool("transfer", "Moves money.",
                              typed<Order>().field(&Order::sku, regex("^KT-[0-9]+$")),
                              [this](const Order& order) {
                                orders_.push_back(order);
                                return Receipt{"tr_1", order.quantity * 2.0};
                              })};
  }
  static json call(const std::string& id, const json& arguments) {
    return {{"tool_calls", {{{"id", id}, {"name", "transfer"}, {"arguments", arguments}}}}};
  }
  std::vector<Order> orders_;
};

TEST_F(TypedTool, HandlerGetsTheStructOnlyForValidInputAndItsResultGoesBack) {
  const auto client = client_for({call("a", {{"sku", "bad"}, {"quantity", 1}}),
                                  call("b", {{"sku", "KT-200"}, {"quantity", 3}}),
                                  {{"text", "done"}}});
  const auto result = run_tools(client, {.prompt = "Move it."}, toolset());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(orders_.size(), 1U);
  EXPECT_EQ(orders_[0].sku, "KT-200");
  const auto& calls = result.value().calls;
  ASSERT_EQ(calls.size(), 2U);
  EXPECT_EQ(calls[0].verdict, CallVerdict::rejected);
  EXPECT_EQ(calls[1].verdict, CallVerdict::ran);
  EXPECT_EQ(calls[1].result, to_json_value(Receipt{"tr_1", 6.0}));
}

TEST_F(TypedTool, InputThatDoesNotFitTheStructNeverReachesTheHandler) {
  const auto client =
      client_for({call("a", {{"sku", "KT-200"}, {"quantity", 5000000000LL}}), {{"text", "no"}}});
  const auto result = run_tools(client, {.prompt = "Move it."}, toolset());
  ASSERT_TRUE(result.ok()) << result.error().message;
  EXPECT_TRUE(orders_.empty());
  ASSERT_EQ(result.value().calls.size(), 1U);
  EXPECT_EQ(result.value().calls[0].verdict, CallVerdict::unfit);
  EXPECT_NE(result.value().calls[0].sent_back.find("does not fit in int32_t"), std::string::npos);
}

TEST_F(TypedTool, HandlerRunsCountsOnlyCallsWhoseHandlerRan) {
  const auto client = client_for({call("a", {{"sku", "KT-200"}, {"quantity", 5000000000LL}}),
                                  call("b", {{"sku", "KT-200"}, {"quantity", 5}}),
                                  {{"text", "done"}}});
  const auto result = run_tools(client, {.prompt = "Move it."}, toolset());
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(orders_.size(), 1U);
  EXPECT_EQ(result.value().handler_runs(), orders_.size());
  ASSERT_EQ(result.value().rejected().size(), 1U);
  EXPECT_EQ(result.value().rejected()[0]->call.id, "a");
}

}  // namespace
}  // namespace accord
