#include "hf/load.h"

#include <fmt/format.h>

namespace oprec::hf {

namespace fs = std::filesystem;

namespace {
// An import of `path`: absolute where the file exists as given, else the name
// as written (searched in the standard library and the import path).
std::string import_line(const fs::path& path) {
    std::error_code ec;
    const fs::path target = fs::exists(path, ec) ? fs::absolute(path, ec) : path;
    // The import string is taken as written (no escapes): a path holding a
    // double quote cannot be imported, as in a .rec file.
    return fmt::format("import \"{}\"\n", target.string());
}
}  // namespace

LoadResult load_with_profiles(const fs::path& records, const fs::path& profiles, const LoadOptions& options) {
    return load_text(import_line(records) + import_line(profiles), "<records and profiles>", options);
}

}  // namespace oprec::hf
