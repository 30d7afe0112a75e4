#pragma once
// A correction scoped to the failing fields: which values to ask for, the schema that holds each
// one to its own sub-schema, and the answer merged back into the previous object.
//
// The patch is a JSON object of dotted path -> value ({"items.3.price": 12.5}) rather than an
// RFC 6902 JSON Patch: every value can carry its exact sub-schema on the wire, so a provider's
// structured output constrains each value's type (a JSON Patch's `value` can only be "anything"),
// and there is no `op`, `add`-versus-`replace` or `~1` escaping to get wrong. The keys are dotted
// wire names (accord/wire_name.hpp): every provider takes them as property keys.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accord/issue.hpp"
#include "accord/path.hpp"
#include "accord/providers/provider.hpp"

namespace accord::detail {

struct ScopedCorrection {
  struct Target {
    std::string key;                     // in the patch: "items.3.price"
    std::vector<PathSegment> wire_path;  // where its value goes in the reply as sent
  };
  std::vector<Target> targets;
  WireSchema patch;          // {key: sub-schema, ...}, every key required but a member not written
  std::string request_text;  // the user turn asking for the values

  [[nodiscard]] std::string keys() const;  // "amount, items.3.price", for the Trace
};

// The scoped correction for `issues` of `wire_value` (the reply as parsed, before unlowering), or
// nullopt with `why` saying why the correction should be whole: an issue at the root, a path a
// patch key cannot name or the wire schema does not reach plainly (a map sent as a list of
// entries, or a real union, on the way to it; a map or recursive definition elsewhere in the
// schema does not matter), or failing parts heavier than `max_share` of the object and its schema.
//
// `stopped_at` (a path without the wrapper of a wrapped root): the reply is a stream stopped when
// the part there broke a rule, and `wire_value` is what was read up to that part (see
// value_read_until). The rest was never written, so the correction also asks for the members the
// objects still open lack, and for a list or map still open whole (its other entries are unknown).
[[nodiscard]] std::optional<ScopedCorrection> plan_scoped_correction(
    const nlohmann::json& wire_value, const Issues& issues, const WireSchema& wire,
    double max_share, std::string& why, const std::optional<Path>& stopped_at = std::nullopt);

// What a stream stopped at `stopped_at` held: `text` (its output so far) read up to the close of
// the part there, every closed part inside the containers still open.
[[nodiscard]] nlohmann::json value_read_until(std::string_view text, const Lowering& lowering,
                                              const Path& stopped_at);

// `previous` (the reply as parsed, before unlowering) with the values in `patch_text` put in
// place, or nullopt with `problem` set when the text is not a usable patch: not a JSON object,
// a key that was not asked for, or none of the keys asked for.
[[nodiscard]] std::optional<nlohmann::json> merge_scoped_reply(const ScopedCorrection& plan,
                                                               nlohmann::json previous,
                                                               std::string_view patch_text,
                                                               std::string& problem);

}  // namespace accord::detail
