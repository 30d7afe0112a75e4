// Extract a refund request from a customer e-mail into the Refund struct. Run with --help for
// the options.
#include "schemas/refund.hpp"
#include "example_main.hpp"

int main(int argc, char** argv) {
  return accord::examples::example_main<accord::examples::Refund>(
      argc, argv,
      {.name = "refund",
       .schema = accord::examples::typed_refund_schema(),
       .instructions = "Extract the refund request from the customer's e-mail as JSON.",
       .default_input =
           "Hello, I ordered a kettle (SKU KT-200) on 2026-11-02, order ORD-482913, and "
           "it arrived broken. Please refund the 42.50 EUR I paid. I am writing on "
           "2026-11-20. Thanks, Dana"});
}
