#include "providers/content_parts.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <stdexcept>

#include "core/base64.hpp"
#include "core/sha256.hpp"

namespace accord::detail {
namespace {

std::string megabytes(std::size_t bytes) {
  return fmt::format("{:.2f} MiB", static_cast<double>(bytes) / static_cast<double>(kMiB));
}

struct Where {
  const PartRules& rules;
  std::string_view provider;
};

[[noreturn]] void refuse(const Where& where, std::size_t turn, std::size_t part,
                         const ContentPart& what, std::string_view problem) {
  throw std::invalid_argument(fmt::format(
      "{}: turn {} part {} ({}{}{}): {}", where.provider, turn, part, to_string(what.kind),
      what.media_type.empty() ? "" : ", ", what.media_type, problem));
}

bool listed(const std::vector<std::string_view>& types, const std::string& type) {
  return std::find(types.begin(), types.end(), type) != types.end();
}

std::string joined(const std::vector<std::string_view>& types) {
  std::string out;
  for (const auto type : types) out += (out.empty() ? "" : ", ") + std::string(type);
  return out;
}

void check_part(const Where& where, std::size_t turn, std::size_t n, const ContentPart& part,
                bool turn_has_text) {
  const PartRules& rules = where.rules;
  const std::string_view provider = where.provider;
  const bool image = part.kind == ContentPart::Kind::image;
  const auto& types = image ? rules.image_types : rules.document_types;
  const char* kind = image ? "images" : "documents";
  if (types.empty()) refuse(where, turn, n, part, fmt::format("{} takes no {}", provider, kind));
  if (part.is_url()) {
    if (!(image ? rules.image_urls : rules.document_urls))
      refuse(where, turn, n, part, fmt::format("{} takes {} as bytes, not URLs", provider, kind));
    if (rules.url_needs_media_type && part.media_type.empty())
      refuse(where, turn, n, part, "a URL part needs its media type here");
  }
  if ((!part.is_url() || !part.media_type.empty()) && !listed(types, part.media_type)) {
    refuse(where, turn, n, part,
           fmt::format("{} takes {} of type {} only", provider, kind, joined(types)));
  }
  const std::size_t limit = image ? rules.max_image_bytes : rules.max_document_bytes;
  if (limit > 0 && part.data.size() > limit) {
    refuse(where, turn, n, part,
           fmt::format("{} bytes ({}) is over {}'s limit of {} per {} ({})", part.data.size(),
                       megabytes(part.data.size()), provider, megabytes(limit),
                       image ? "image" : "document", rules.source));
  }
  if (!image && rules.document_needs_text && !turn_has_text)
    refuse(where, turn, n, part, "a document needs text in the same message here");
}

}  // namespace

void check_parts(const CallSpec& call, const PartRules& rules, std::string_view provider) {
  const Where where{rules, provider};
  std::size_t images = 0;
  std::size_t documents = 0;
  for (std::size_t t = 0; t < call.turns.size(); ++t) {
    const Turn& turn = call.turns[t];
    const bool has_text =
        !turn.text.empty() || std::any_of(turn.parts.begin(), turn.parts.end(), [](const auto& p) {
          return p.kind == ContentPart::Kind::text && !p.text.empty();
        });
    for (std::size_t p = 0; p < turn.parts.size(); ++p) {
      const ContentPart& part = turn.parts[p];
      if (part.kind == ContentPart::Kind::text) continue;
      check_part(where, t + 1, p + 1, part, has_text);
      ++(part.kind == ContentPart::Kind::image ? images : documents);
    }
  }
  const auto check_count = [&](std::size_t count, std::size_t limit, const char* kind) {
    if (limit > 0 && count > limit) {
      throw std::invalid_argument(
          fmt::format("{}: {} {} in one request is over its limit of {} ({})", provider, count,
                      kind, limit, rules.source));
    }
  };
  check_count(images, rules.max_images, "images");
  check_count(documents, rules.max_documents, "documents");
}

std::string base64_of(const ContentPart& part) {
  return base64_encode(part.data);
}

std::string data_url(const ContentPart& part) {
  return "data:" + part.media_type + ";base64," + base64_of(part);
}

std::string document_name(const ContentPart& part, std::size_t n) {
  return part.name.empty() ? fmt::format("document-{}", n) : part.name;
}

std::string without_part_bytes(std::string body, const std::vector<Turn>& turns) {
  for (const auto& turn : turns) {
    for (const auto& part : turn.parts) {
      if (part.data.empty()) continue;
      const std::string encoded = base64_of(part);
      const std::string shown = fmt::format("<{}, {} bytes, sha256:{}>", part.media_type,
                                            part.data.size(), hex(sha256(part.data)));
      for (auto at = body.find(encoded); at != std::string::npos;
           at = body.find(encoded, at + shown.size())) {
        body.replace(at, encoded.size(), shown);
      }
    }
  }
  return body;
}

}  // namespace accord::detail
