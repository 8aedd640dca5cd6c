// `oprec lint`: everything wrong with a records file in one run. The
// loader's errors (syntax and checks, every one it finds) and the linter's
// warnings (src/lint/check_*.cpp), with suppressions applied, sorted by place.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "check/loader.h"
#include "diag/diagnostic.h"

namespace oprec::lint {

struct Options {
    LoadOptions load;
    std::set<std::string> disabled;  // warning codes not to report (--allow)
};

struct Report {
    std::vector<Diagnostic> diagnostics;
    SourceMap sources;
    bool could_not_run = false;  // the file itself could not be read
    bool warnings_checked = false;  // false where errors left the records incomplete

    std::size_t count(Severity s) const;
};

Report lint_file(const std::filesystem::path& path, const Options& options);
Report lint_text(std::string text, std::string name, const Options& options);
// The lint of what a load produced (load_file/load_text).
Report lint_loaded(LoadResult load, const Options& options);

}  // namespace oprec::lint
