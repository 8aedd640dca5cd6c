// Reading a whole input file with a cap on its size: `/dev/zero`, a huge
// file or a pipe that never ends is refused with a clear reason, never read
// until memory runs out. One cap per kind of input (docs/limits.md).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>

namespace oprec {

// Records (a .rec or .yaml file, each import): small, hand-written text.
inline constexpr std::uintmax_t kMaxRecordsBytes = std::uintmax_t{64} << 20;
// A layer document (JSON) and a Hugging Face config.json: a few KiB each.
inline constexpr std::uintmax_t kMaxDocumentBytes = std::uintmax_t{16} << 20;

// The file's text, or none with `why` saying what went wrong ("it is a
// directory", "it is larger than 16 MiB", ...). `regular_only`: anything
// but a regular file is refused unread (an import naming a FIFO or a device
// would block or never end); otherwise a pipe is read, up to the cap. "-"
// is not standard input here.
std::optional<std::string> read_file_capped(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                            std::string& why, bool regular_only = false);

// The same from an open stream (standard input): at most `max_bytes`.
std::optional<std::string> read_stream_capped(std::FILE* in, std::uintmax_t max_bytes, std::string& why);

}  // namespace oprec
