#include "input_files.hpp"

#include <accord/json_schema_file.hpp>
#include <accord/json_text.hpp>
#include <accord/printable.hpp>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace accord_cli {

void add_schema_file_argument(CLI::App& command, std::string& file) {
  command.add_option("FILE", file, "the JSON Schema file")->required();
}

std::string read_file(const std::string& path, std::size_t max_bytes) {
  try {
    return accord::read_bounded_file(path, {.max_bytes = max_bytes, .pipes = true});
  } catch (const std::runtime_error& e) {
    throw Failure{kUsage, accord::printable(e.what())};
  }
}

nlohmann::ordered_json read_schema_document(const std::string& file) {
  try {
    return accord::parse_ordered_json(read_file(file, accord::kMaxSchemaFileBytes));
  } catch (const nlohmann::json::parse_error& e) {
    throw Failure{kUsage, file + " is not JSON: " + accord::printable(e.what())};
  }
}

Failure unusable(const std::string& file, const accord::SchemaError& e) {
  return schema_failure(file + " is not a usable JSON Schema:", e);
}

Failure schema_failure(std::string message, const accord::SchemaError& e) {
  for (const auto& problem : e.problems()) {
    message += "\n  at " + accord::printable("#" + problem.path.to_pointer()) + ": " +
               accord::printable(problem.message);
  }
  return Failure{kUsage, message};
}

void for_each_line(const std::string& text,
                   const std::function<void(const std::string& line, std::size_t number)>& each) {
  std::istringstream lines(text);
  std::size_t number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") != std::string::npos) each(line, number);
  }
}

void add_ref_map_option(CLI::App& command, std::vector<std::string>& ref_maps) {
  command.add_option("--ref-map", ref_maps,
                     "URI=FILE: the document at URI is FILE; URI_PREFIX=DIR: read $refs under "
                     "URI_PREFIX from files in DIR (repeatable; the network is never used)");
}

accord::SchemaRegistry registry_from(const std::vector<std::string>& ref_maps) {
  accord::SchemaRegistry registry;
  for (const auto& entry : ref_maps) {
    const auto equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw Failure{kUsage, "--ref-map takes URI_PREFIX=DIR or URI=FILE, not " + entry};
    }
    const auto uri = entry.substr(0, equals);
    const auto path = entry.substr(equals + 1);
    if (std::filesystem::is_regular_file(path)) {
      registry.documents[uri] = read_schema_document(path);
    } else {
      registry.directories[uri] = path;
    }
  }
  return registry;
}

accord::EmittedSchema load_schema(const std::string& file, const accord::SchemaRegistry& registry) {
  const nlohmann::ordered_json document = read_schema_document(file);
  try {
    return accord::import_json_schema(document, registry);
  } catch (const accord::SchemaError& e) {
    throw unusable(file, e);
  }
}

}  // namespace accord_cli
