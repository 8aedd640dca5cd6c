#include "hf/load.h"

#include <fmt/format.h>

namespace oprec::hf {

namespace fs = std::filesystem;

namespace {
// An import of `path`. A bare name ("profiles.rec") is the standard
// library's or the import path's where one of them has it, as an import
// from a library file finds it: not a file of that name in the working
// directory, which would silently price other profiles ("./profiles.rec"
// names that one). Else the path, absolute where it exists as given.
std::string import_line(const fs::path& path, const LoadOptions& options) {
    std::error_code ec;
    fs::path target = path;
    bool found = false;
    if (!path.has_parent_path())
        for (const fs::path& dir : options.search_path)
            if (fs::exists(dir / path, ec)) {
                target = fs::absolute(dir / path, ec);
                found = true;
                break;
            }
    if (!found && fs::exists(path, ec)) target = fs::absolute(path, ec);
    // The import string is taken as written (no escapes): a path holding a
    // double quote cannot be imported, as in a .rec file.
    return fmt::format("import \"{}\"\n", target.string());
}
}  // namespace

LoadResult load_with_profiles(const fs::path& records, const fs::path& profiles, const LoadOptions& options) {
    return load_text(import_line(records, options) + import_line(profiles, options), "<records and profiles>",
                     options);
}

}  // namespace oprec::hf
