// Files a schema leads to (a `$ref` under a SchemaRegistry directory, as `accord validate
// --ref-map` maps them) are read only when they are regular files within the schema-file cap: a
// FIFO blocked the validator forever, /dev/zero and a 1 GiB file were read whole.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "accord/bounded_file.hpp"
#include "accord/json_schema.hpp"
#include "accord/validate.hpp"

namespace accord {
namespace {

namespace fs = std::filesystem;

class RegistryFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "accord-files-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The problems of a validator whose schema's `$ref` reaches `name` under `directory`.
  std::string problems_reaching(const std::string& directory, const std::string& name) const {
    ValidatorOptions options;
    options.registry.directories["https://schemas.example.test/"] = directory;
    const nlohmann::ordered_json schema = {
        {"type", "object"},
        {"properties", {{"amount", {{"$ref", "https://schemas.example.test/" + name}}}}}};
    try {
      (void)Validator::from_json_schema(schema, options);
    } catch (const SchemaError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(RegistryFiles, FifoIsRefusedWithoutWaitingForAWriter) {
  ASSERT_EQ(::mkfifo((dir_ / "amount.json").c_str(), 0600), 0);
  const auto problems = problems_reaching(dir_.string(), "amount.json");
  EXPECT_NE(problems.find("it is a FIFO, not a regular file"), std::string::npos) << problems;
}

TEST_F(RegistryFiles, DeviceIsRefusedUnread) {
  const auto problems = problems_reaching("/dev", "zero");
  EXPECT_NE(problems.find("it is a device or a socket, not a regular file"), std::string::npos)
      << problems;
}

TEST_F(RegistryFiles, FileOverTheSchemaCapIsRefusedUnread) {
  // Sparse: 1 GiB long without taking the disk or the time to write it.
  { std::ofstream(dir_ / "huge.json"); }
  fs::resize_file(dir_ / "huge.json", std::uintmax_t{1} << 30);
  const auto problems = problems_reaching(dir_.string(), "huge.json");
  EXPECT_NE(problems.find("more than " + std::to_string(kMaxSchemaFileBytes) + " bytes"),
            std::string::npos)
      << problems;
}

TEST_F(RegistryFiles, RegularFileWithinTheCapIsRead) {
  std::ofstream(dir_ / "amount.json") << R"({"type": "integer", "minimum": 1})";
  ValidatorOptions options;
  options.registry.directories["https://schemas.example.test/"] = dir_.string();
  const auto validator =
      Validator::from_json_schema({{"$ref", "https://schemas.example.test/amount.json"}}, options);
  EXPECT_TRUE(validator.validate(5).empty());
  EXPECT_FALSE(validator.validate(0).empty());
}

}  // namespace
}  // namespace accord
