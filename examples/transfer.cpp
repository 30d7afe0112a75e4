// Extract a money transfer instruction from a message. Run with --help for the options.
#include "schemas/transfer.hpp"
#include "example_main.hpp"

int main(int argc, char** argv) {
  return accord::examples::example_main<accord::examples::Transfer>(
      argc, argv,
      {.name = "transfer",
       .schema = accord::examples::typed_transfer_schema(),
       .instructions = "Extract the transfer instruction from the message as JSON.",
       .default_input = "Please send 250 usd to account acct_9f3k2 (billing contact "
                        "ops@example.com), memo: November invoice."});
}
