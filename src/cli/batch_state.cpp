#include "batch_state.hpp"

#include <accord/bounded_file.hpp>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace accord_cli {

namespace fs = std::filesystem;

std::string BatchStateFile::default_path(const std::string& output, const std::string& input) {
  const std::string beside = output != "-" ? output : input;
  if (beside == "-") return {};
  // A directory given as "mails/" keeps its state beside it, as "mails.batch-state.json".
  std::string base = beside;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + ".batch-state.json";
}

bool BatchStateFile::exists() const {
  std::error_code error;
  return fs::exists(path_, error);
}

accord::BatchRecord BatchStateFile::read() const {
  // A regular file within the schema files' bound: a record is a few KiB.
  const auto document = nlohmann::json::parse(accord::read_bounded_file(path_, {}), nullptr, false);
  try {
    return accord::BatchRecord::from_json(document);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(path_ + " is " + e.what());
  }
}

void BatchStateFile::write(const accord::BatchRecord& record) const {
  {
    std::ofstream out(temporary(), std::ios::binary | std::ios::trunc);
    out << record.to_json().dump(2) << "\n";
    out.close();
    if (!out) throw std::runtime_error("cannot write " + temporary());
  }
  std::error_code error;
  fs::rename(temporary(), path_, error);
  if (error) throw std::runtime_error("cannot rename " + temporary() + " to " + path_);
}

void BatchStateFile::check_writable() const {
  {
    std::ofstream probe(temporary(), std::ios::binary | std::ios::trunc);
    if (!probe) throw std::runtime_error("cannot write the batch state file " + path_);
  }
  std::error_code error;
  fs::remove(temporary(), error);
}

void BatchStateFile::remove() const {
  std::error_code error;
  fs::remove(path_, error);
}

}  // namespace accord_cli
