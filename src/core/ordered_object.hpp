#pragma once
// Setting keys of an ordered_json object in linear time. ordered_json's operator[] searches
// every earlier key first, so building an object of n keys that way takes n^2/2 comparisons
// (40,000 properties took seconds in a schema file).

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>

namespace accord::detail {

class ObjectWriter {
 public:
  explicit ObjectWriter(nlohmann::ordered_json start = nlohmann::ordered_json::object())
      : object_(std::move(start)) {
    auto& entries = this->entries();
    for (std::size_t i = 0; i < entries.size(); ++i) index_.emplace(entries[i].first, i);
  }
  // A key set twice keeps its first place and its last value, as operator[] does.
  void set(const std::string& key, nlohmann::ordered_json value) {
    auto& entries = this->entries();
    const auto [at, added] = index_.try_emplace(key, entries.size());
    if (added) {
      entries.emplace_back(key, std::move(value));
    } else {
      entries[at->second].second = std::move(value);
    }
  }
  [[nodiscard]] nlohmann::ordered_json done() && { return std::move(object_); }

 private:
  nlohmann::ordered_json::object_t::Container& entries() {
    return object_.get_ref<nlohmann::ordered_json::object_t&>();
  }
  nlohmann::ordered_json object_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace accord::detail
