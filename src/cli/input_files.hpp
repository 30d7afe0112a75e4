#pragma once
// The files named on the command line, read for the commands: every one a regular file or a pipe
// the user chose (`-`, `<(...)`), never a device, and within its size limit. A file that cannot be
// read, is not JSON or is not a usable JSON Schema is a Failure (exit 2) saying which and where.

#include <CLI/CLI.hpp>
#include <accord/bounded_file.hpp>
#include <accord/json_schema.hpp>
#include <accord/schema.hpp>
#include <accord/validate.hpp>
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"

namespace accord_cli {

// Adds the required FILE argument every command takes first: the JSON Schema file.
void add_schema_file_argument(CLI::App& command, std::string& file);

// The file's bytes, within `max_bytes` (accord/bounded_file.hpp).
[[nodiscard]] std::string read_file(const std::string& path,
                                    std::size_t max_bytes = accord::kMaxDocumentsFileBytes);

// The schema file as JSON with its members in the order written.
[[nodiscard]] nlohmann::ordered_json read_schema_document(const std::string& file);

// "FILE is not a usable JSON Schema:" and the JSON path of every problem, one a line.
[[nodiscard]] Failure unusable(const std::string& file, const accord::SchemaError& e);
// `message` followed by each problem's place and words.
[[nodiscard]] Failure schema_failure(std::string message, const accord::SchemaError& e);

// Calls `each(line, number)` for every line of `text` that is not blank, numbered from 1 as an
// editor numbers them: the documents of a JSONL file.
void for_each_line(const std::string& text,
                   const std::function<void(const std::string& line, std::size_t number)>& each);

// Adds the repeatable --ref-map option: URI=FILE (one document) or URI_PREFIX=DIR.
void add_ref_map_option(CLI::App& command, std::vector<std::string>& ref_maps);

// The registry the --ref-map entries make: a regular file is the document at its URI, anything
// else a directory under the prefix (its files are read when a reference needs them).
[[nodiscard]] accord::SchemaRegistry registry_from(const std::vector<std::string>& ref_maps);

// The schema file as an imported schema, other documents it refers to from `registry`.
[[nodiscard]] accord::EmittedSchema load_schema(const std::string& file,
                                                const accord::SchemaRegistry& registry = {});

}  // namespace accord_cli
