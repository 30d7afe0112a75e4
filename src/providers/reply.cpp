#include "accord/reply.hpp"

namespace accord {

Usage& Usage::operator+=(const Usage& other) {
  input_tokens += other.input_tokens;
  output_tokens += other.output_tokens;
  total_tokens += other.total_tokens;
  cache_read_input_tokens += other.cache_read_input_tokens;
  cache_write_input_tokens += other.cache_write_input_tokens;
  estimated = estimated || other.estimated;
  return *this;
}

std::string_view to_string(ReplyStatus status) {
  switch (status) {
    case ReplyStatus::ok:
      return "ok";
    case ReplyStatus::refusal:
      return "refusal";
    case ReplyStatus::truncated:
      return "truncated";
    case ReplyStatus::content_filtered:
      return "content_filtered";
    case ReplyStatus::empty:
      return "empty";
    case ReplyStatus::tool_calls:
      return "tool_calls";
    case ReplyStatus::http_error:
      return "http_error";
    case ReplyStatus::bad_reply:
      return "bad_reply";
  }
  return "unknown";
}

}  // namespace accord
