// A money-transfer tool whose input is validated before the handler runs: the model's call with
// 900 eur breaks "eur transfers are capped at 500", so the handler does not run and the model is
// told why; its corrected call runs once.
//
//   accord-mock --scenario examples/transfer_tool_scenario.json   (prints its port)
//   transfer_tool --provider openai-chat --base-url http://127.0.0.1:PORT/v1
//
// The steps go to stderr; the final answer and then `handler_runs: N` go to stdout.
#include <CLI/CLI.hpp>
#include <accord/printable.hpp>
#include <accord/typed_tools.hpp>
#include <iostream>

#include "schemas/transfer.hpp"

// What the transfer tool sends back to the model.
struct Receipt {
  std::string transferId;
  std::string status;
  double amount = 0;
  accord::examples::TransferCurrency currency = accord::examples::TransferCurrency::usd;
};
BOOST_DESCRIBE_STRUCT(Receipt, (), (transferId, status, amount, currency))

namespace {

// Each line of `text` made printable (the model's words are in it), the lines after the first
// indented: whatever the text holds, it stays inside its block.
std::string indented(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  for (std::size_t end = text.find('\n');; end = text.find('\n', start)) {
    out += (start == 0 ? "" : "\n" + prefix) + accord::printable(text.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

void print_steps(const accord::ToolRun& run) {
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    const auto& step = run.steps[i];
    std::cerr << "step " << i + 1 << ": HTTP " << step.attempt.http_status << ", "
              << accord::to_string(step.attempt.status) << ", tokens "
              << step.attempt.usage.total_tokens << "\n";
    for (const auto index : step.calls) {
      const auto& call = run.calls[index];
      std::cerr << "  " << accord::printable(call.call.name) << " "
                << accord::printable(call.call.arguments_text) << " -> "
                << accord::to_string(call.verdict) << "\n";
      if (!call.sent_back.empty())
        std::cerr << "    sent back: " << indented(call.sent_back, "      ") << "\n";
    }
  }
  std::cerr << "total tokens: " << run.usage.total_tokens << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"accord example: a validated transfer tool"};
  accord::ClientOptions options;
  std::string prompt =
      "Send 900 eur to acct_9f3k2 (billing contact ops@example.com), memo: "
      "November invoice.";
  app.add_option("--provider", options.provider,
                 "a provider name, e.g. openai-chat, anthropic, gemini, bedrock, ollama")
      ->required();
  app.add_option("--base-url", options.base_url, "the provider's base URL (e.g. accord-mock's)");
  app.add_option("--model", options.model, "the model name");
  app.add_option("--prompt", prompt, "what the user asks for");
  CLI11_PARSE(app, argc, argv);

  int handler_runs = 0;
  int exit_code = 0;
  try {
    // The handler takes the Transfer struct and returns a Receipt; a real handler would move
    // money here, and it only ever sees input that passed every rule.
    const accord::Toolset tools{
        accord::typed_tool("transfer", "Sends money to a Stripe-style account.",
                           accord::examples::typed_transfer_schema(),
                           [&handler_runs](const accord::examples::Transfer& transfer) {
                             ++handler_runs;
                             return Receipt{"tr_000" + std::to_string(handler_runs), "sent",
                                            transfer.amount, transfer.currency};
                           })};
    const accord::Client client(std::move(options));
    auto result = accord::run_tools(
        client, {.prompt = prompt, .system = "You move money with the transfer tool."}, tools);
    if (result.ok()) {
      print_steps(result.value());
      std::cout << accord::printable(result.value().final_text) << "\n";
    } else {
      std::cerr << result.trace().to_text() << "\n";
      std::cerr << "error: " << accord::to_string(result.error().kind) << ": "
                << accord::printable(result.error().message) << "\n";
      exit_code = 1;
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    exit_code = 2;
  }
  std::cout << "handler_runs: " << handler_runs << "\n";
  return exit_code;
}
