// Checks of option values the commands share, in the commands' words.
#pragma once

#include <cstdint>

#include <CLI/CLI.hpp>

namespace oprec::cli {

// A whole number of at least `least` that fits 64 bits: CLI11's own
// checks clamp a larger one and print their bounds as 300-digit floats.
CLI::Validator whole_number(std::int64_t least);

}  // namespace oprec::cli
