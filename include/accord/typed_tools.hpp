#pragma once
// A tool whose handler takes its argument struct and returns a typed result:
//
//   struct TransferArgs { std::string accountId; double amount; Currency currency; };
//   struct Receipt { std::string transferId; std::string status; };
//   BOOST_DESCRIBE_STRUCT(TransferArgs, (), (accountId, amount, currency))
//   BOOST_DESCRIBE_STRUCT(Receipt, (), (transferId, status))
//
//   Toolset tools{typed_tool("transfer", "Sends money.", typed<TransferArgs>().field(...),
//                            [](const TransferArgs& args) { return Receipt{...}; })};
//
// The input schema is the TypedSchema's; run_tools validates every call against it before the
// handler runs (tools.hpp), so the handler only ever sees a valid value. The struct is read from
// the call's parsed arguments (a ToolViewHandler): no nlohmann::json is built for the input. The
// handler returns a value the typed layer converts (sent back as its JSON) or a ToolOutput (to
// report a failure). A valid input that does not fit the struct (typed_value.hpp) is not handed
// over: the model reads why, as for a handler's failure, but the call is CallVerdict::unfit, not a
// handler run.

#include <string>
#include <type_traits>
#include <utility>

#include "accord/tools.hpp"
#include "accord/typed_rules.hpp"

namespace accord {

template <class In, class F>
[[nodiscard]] Tool typed_tool(std::string name, std::string description,
                              const TypedSchema<In>& input, F handler) {
  static_assert(std::is_invocable_v<const F&, const In&>,
                "accord: a typed tool's handler takes its argument struct");
  using Out = std::invoke_result_t<const F&, const In&>;
  Schema schema = input.schema();
  // The struct is read from the parsed arguments, with its member plan made once here.
  const typed_detail::RootPlan<In> plan(schema);
  return Tool::reading_views(
      std::move(name), std::move(description), schema,
      ToolViewHandler([schema, plan, handler = std::move(handler)](JsonView raw) {
        auto converted = typed_detail::read_value<In>(&schema, raw, plan.get());
        if (!converted) {
          const auto where = converted.error().path.to_string();
          return ToolOutput::unfit(
              "the input does not fit the tool's argument type: " + converted.error().message +
              (where.empty() ? "" : " (at " + where + ")"));
        }
        if constexpr (std::is_same_v<Out, ToolOutput>) {
          return handler(converted.value());
        } else {
          static_assert(KnownType<Out>,
                        "accord: a typed tool returns ToolOutput or a type the typed "
                        "layer converts (typed_types.hpp)");
          return ToolOutput::ok(to_json_value(handler(converted.value())));
        }
      }));
}

// The input schema derived from the argument struct with no rules added.
template <class In, class F>
[[nodiscard]] Tool typed_tool(std::string name, std::string description, F handler) {
  return typed_tool(std::move(name), std::move(description), typed<In>(), std::move(handler));
}

}  // namespace accord
