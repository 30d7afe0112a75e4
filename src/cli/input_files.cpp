#include "input_files.hpp"

#include <accord/json_schema_file.hpp>
#include <accord/json_text.hpp>
#include <accord/printable.hpp>
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
  std::string message = file + " is not a usable JSON Schema:";
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

accord::EmittedSchema load_schema(const std::string& file) {
  const nlohmann::ordered_json document = read_schema_document(file);
  try {
    return accord::import_json_schema(document);
  } catch (const accord::SchemaError& e) {
    throw unusable(file, e);
  }
}

}  // namespace accord_cli
