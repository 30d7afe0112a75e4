#pragma once
// The compile step of each keyword, by family: the keyword table (validate/keyword_table.cpp)
// points each row at one of these. A family's file defines its steps, the Run steps that check
// what they compiled, and the words of its issues.

#include "validate/compiler.hpp"

namespace accord::detail {

// keywords/references.cpp
void compile_ref(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_dynamic_ref(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);
void compile_definitions(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);

// keywords/applicators.cpp
void compile_combination(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);
void compile_not(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_conditional(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);

// keywords/type.cpp
void compile_type(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_enum(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_const(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);

// keywords/numeric.cpp
void compile_bound(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_multiple_of(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);

// keywords/string.cpp
void compile_length(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_pattern(KeywordCompiler& k, const std::string& key, const ojson& value,
                     const Path& at);
void compile_format(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);

// keywords/array.cpp
void compile_prefix_items(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at);
void compile_items(KeywordCompiler& k, const std::string& key, const ojson& value, const Path& at);
void compile_additional_items(KeywordCompiler& k, const std::string& key, const ojson& value,
                              const Path& at);
void compile_item_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                        const Path& at);
void compile_unique_items(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at);
void compile_contains(KeywordCompiler& k, const std::string& key, const ojson& value,
                      const Path& at);
void compile_contains_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                            const Path& at);

// keywords/object.cpp
void compile_properties(KeywordCompiler& k, const std::string& key, const ojson& value,
                        const Path& at);
void compile_pattern_properties(KeywordCompiler& k, const std::string& key, const ojson& value,
                                const Path& at);
void compile_additional_properties(KeywordCompiler& k, const std::string& key, const ojson& value,
                                   const Path& at);
void compile_required(KeywordCompiler& k, const std::string& key, const ojson& value,
                      const Path& at);
void compile_property_names(KeywordCompiler& k, const std::string& key, const ojson& value,
                            const Path& at);
void compile_property_count(KeywordCompiler& k, const std::string& key, const ojson& value,
                            const Path& at);
void compile_dependencies(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at);
void compile_dependent_schemas(KeywordCompiler& k, const std::string& key, const ojson& value,
                               const Path& at);

// keywords/unevaluated.cpp
void compile_unevaluated(KeywordCompiler& k, const std::string& key, const ojson& value,
                         const Path& at);

// keywords/accord_rules.cpp
void compile_accord_rules(KeywordCompiler& k, const std::string& key, const ojson& value,
                          const Path& at);

}  // namespace accord::detail
