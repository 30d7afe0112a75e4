// A Contract given to calls that may fall back is lowered once per fallback provider and kept by
// the caller's client (Client::Internals::contract_for): each call with fallbacks checks the
// fallback's refusals with it before sending, and extract_async runs many such calls at once.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "accord/client.hpp"
#include "loop/client.hpp"
#include "schemas/refund.hpp"

namespace accord {
namespace {

class FallbackContract : public ::testing::Test {
 protected:
  std::shared_ptr<const Contract> given() const {
    return std::make_shared<const Contract>(examples::refund_schema(), "refund",
                                            client_.provider());
  }

  const Client client_{{.provider = "openai-chat", .base_url = "http://127.0.0.1:9"}};
  const std::unique_ptr<Provider> anthropic_ = make_provider("anthropic");
  const std::unique_ptr<Provider> gemini_ = make_provider("gemini");
};

TEST_F(FallbackContract, TheSameContractAndProviderGiveTheSameLoweredObject) {
  const auto contract = given();
  const auto first = Client::Internals::contract_for(client_, contract, *anthropic_);
  const auto again = Client::Internals::contract_for(client_, contract, *anthropic_);
  EXPECT_EQ(first.get(), again.get());
  EXPECT_EQ(first->provider_name(), "anthropic");
  EXPECT_EQ(first->name(), "refund");
}

TEST_F(FallbackContract, EachProviderHasItsOwnLowering) {
  const auto contract = given();
  const auto for_anthropic = Client::Internals::contract_for(client_, contract, *anthropic_);
  const auto for_gemini = Client::Internals::contract_for(client_, contract, *gemini_);
  EXPECT_NE(for_anthropic.get(), for_gemini.get());
  EXPECT_EQ(for_gemini->provider_name(), "gemini");
}

TEST_F(FallbackContract, CallsAtOnceShareOneLowering) {
  const auto contract = given();
  std::vector<const Contract*> seen(16);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&, i] {
      seen[i] = Client::Internals::contract_for(client_, contract, *anthropic_).get();
    });
  }
  for (auto& thread : threads) thread.join();
  for (const auto* lowered : seen) EXPECT_EQ(lowered, seen.front());
}

TEST_F(FallbackContract, ALoweringIsLetGoOnceItsContractIsGone) {
  auto contract = given();
  const auto lowered = Client::Internals::contract_for(client_, contract, *anthropic_);
  EXPECT_EQ(lowered.use_count(), 2);  // here and in the client
  contract.reset();
  (void)Client::Internals::contract_for(client_, given(), *anthropic_);
  EXPECT_EQ(lowered.use_count(), 1);
}

}  // namespace
}  // namespace accord
