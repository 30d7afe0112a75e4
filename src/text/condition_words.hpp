#pragma once
// A JSON Schema `if`/`then`/`else` branch as words about the object it judges, for the model (a
// provider that takes no if/then reads the condition in the description) and for the person
// reading an issue (a property the `then` requires is "required when ...").

#include <nlohmann/json.hpp>
#include <string>

namespace accord::detail {

// How a branch is stated: as a condition that holds ("\"kind\" is \"domestic\"") or as a
// requirement ("\"sort_code\" must be present").
enum class Mood { condition, requirement };

// `branch` in words: one clause per property it names (joined with "and"), or, for a branch
// that is more than properties and required names, the branch itself as JSON.
[[nodiscard]] std::string branch_words(const nlohmann::ordered_json& branch, Mood mood);

// The sentence for an if/then/else: "If <if>, then <then>; otherwise <else>." (`then` and
// `otherwise` null when the schema has none).
[[nodiscard]] std::string conditional_words(const nlohmann::ordered_json& if_branch,
                                            const nlohmann::ordered_json* then_branch,
                                            const nlohmann::ordered_json* else_branch);

}  // namespace accord::detail
