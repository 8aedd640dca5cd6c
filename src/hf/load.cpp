#include "hf/load.h"

#include <optional>

#include <fmt/format.h>

namespace oprec::hf {

namespace fs = std::filesystem;

namespace {
// An import of `path`. A bare name ("profiles.rec") is the standard
// library's or the import path's where one of them has it, as an import
// from a library file finds it: not a file of that name in the working
// directory, which would silently price other profiles ("./profiles.rec"
// names that one). Else the path, absolute where it exists as given.
std::optional<fs::path> found(const fs::path& path, const LoadOptions& options) {
    std::error_code ec;
    if (!path.has_parent_path())
        for (const fs::path& dir : options.search_path)
            if (fs::exists(dir / path, ec)) return fs::absolute(dir / path, ec);
    if (fs::exists(path, ec)) return fs::absolute(path, ec);
    return std::nullopt;
}

std::string import_line(const fs::path& path, const LoadOptions& options) {
    // The import string is taken as written (no escapes): a path holding a
    // double quote cannot be imported, as in a .rec file.
    return fmt::format("import \"{}\"\n", found(path, options).value_or(path).string());
}
}  // namespace

LoadResult load_with_profiles(const fs::path& records, const fs::path& profiles, const LoadOptions& options) {
    // Records that are not there are said as a records file that cannot be
    // read, not as an import of a file the user never wrote.
    if (!found(records, options)) return load_file(records, options);
    return load_text(import_line(records, options) + import_line(profiles, options), "<records and profiles>",
                     options);
}

}  // namespace oprec::hf
