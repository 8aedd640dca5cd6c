// A size in bytes as people write it: "40GiB", "40 GiB", "1.5TB", "512M",
// "1073741824". Binary units (KiB MiB GiB TiB, and the bare K M G T) are powers
// of 1024; decimal ones (kB MB GB TB) powers of 1000.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace oprec {

std::optional<double> parse_byte_size(std::string_view text);

// Why a parsed size cannot be a device's memory or a budget; none where it
// can. Under a MiB it is a unit left out ("80" reads as 80 bytes).
std::optional<std::string> device_size_problem(double bytes);

}  // namespace oprec
