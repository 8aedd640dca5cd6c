// The program `--hf` and `sweep` price with: the records and the op
// profiles, loaded and checked together (the profiles' counts follow the
// records' op vector).
#pragma once

#include <filesystem>

#include "check/loader.h"

namespace oprec::hf {

// Loads `records` and `profiles` (a path, or a name searched like an import:
// "profiles.rec" finds the standard library's) as one program.
LoadResult load_with_profiles(const std::filesystem::path& records, const std::filesystem::path& profiles,
                              const LoadOptions& options);

}  // namespace oprec::hf
