#pragma once
// Where `accord batch` writes what it was paid for: the output is checked before any request,
// and text that cannot be written where asked is kept in a rescue file the message names, so
// answers paid for never vanish with a full disk or a bad path.

#include <optional>
#include <string>

namespace accord_cli {

// Why `path` cannot take the output, or nothing. A regular file (or a new one) must open to
// append, which neither creates content nor empties it; a device that is not a terminal is
// written one newline, which it keeps nowhere (`/dev/full` refuses it, `/dev/null` takes it).
[[nodiscard]] std::optional<std::string> unwritable(const std::string& path);

// Writes `text` to `path` ("-": standard output). Returns "" when it is there; otherwise says why
// not and where the text was kept instead: a new file (mode 0600, a name mkstemp picks) beside
// `path` when that is a regular file, else one in the temporary directory, else standard error.
[[nodiscard]] std::string write_or_rescue(const std::string& path, const std::string& text);

}  // namespace accord_cli
