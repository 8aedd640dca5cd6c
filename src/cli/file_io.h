// Reading a whole file or standard input, and writing a file atomically (a
// temporary beside it, then a rename), for the commands that rewrite files:
// fmt, import, export. Nothing is ever half-written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace oprec::cli {

// The text, or none with `why` saying what went wrong. "-" reads standard input.
std::optional<std::string> read_text(const std::string& path, std::string& why);
// Writes `text` to `path` through a temporary in its folder; keeps an existing
// file's permissions. False with `why` when it could not.
bool write_atomically(const std::filesystem::path& path, const std::string& text, std::string& why);

}  // namespace oprec::cli
