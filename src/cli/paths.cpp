#include "cli/paths.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <unistd.h>

#include <fmt/format.h>

namespace oprec::cli {

namespace fs = std::filesystem;

fs::path data_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        // bin/oprec, or libexec/oprec/oprec-serve: share/oprec beside bin/ or libexec/
        for (const fs::path& prefix : {exe.parent_path().parent_path(), exe.parent_path().parent_path().parent_path()}) {
            const fs::path installed = prefix / "share" / "oprec";
            if (fs::exists(installed / "stdlib", ec)) return installed;
        }
    }
    // A build tree's command reads the source tree's data (an edit to
    // records/ needs no install), whatever an earlier install left in the prefix.
    const fs::path source = OPREC_SOURCE_DIR;
    if (fs::exists(source / "stdlib", ec)) return source;
    return OPREC_INSTALL_DATADIR;
}

std::optional<fs::path> helper_program(std::string_view name) {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec) return std::nullopt;
    for (const fs::path& dir : {exe.parent_path(), exe.parent_path().parent_path() / "libexec" / "oprec"}) {
        const fs::path program = dir / name;
        if (fs::is_regular_file(program, ec) && access(program.c_str(), X_OK) == 0) return program;
    }
    return std::nullopt;
}

fs::path default_records() { return data_dir() / "records" / "op_records.rec"; }

fs::path web_dir() { return data_dir() / "web"; }

fs::path chart_library_dir() {
    std::error_code ec;
    const fs::path installed = web_dir() / "vendor";
    return fs::exists(installed, ec) ? installed : web_dir() / "node_modules";
}

fs::path resolve_records(std::string_view arg) {
    if (arg.empty()) return default_records();
    const fs::path given(arg);
    if (arg.find('/') == std::string_view::npos && !given.has_extension()) {
        std::error_code ec;
        const fs::path named = data_dir() / "records" / (std::string(arg) + ".rec");
        if (fs::is_regular_file(named, ec)) return named;
    }
    return given;
}

RecordsOptions records_options() {
    RecordsOptions options;
    options.data_dir = data_dir();
    if (const char* env = std::getenv("OPREC_PATH")) {
        std::stringstream dirs(env);
        std::string dir;
        while (std::getline(dirs, dir, ':'))
            if (!dir.empty()) options.search_path.emplace_back(dir);
    }
    return options;
}

std::string records_hint(const fs::path& path, std::string_view names) {
    std::error_code ec;
    if (fs::exists(path, ec)) return "";
    return fmt::format("note: --records takes {} or a .rec file's path\n", names);
}

std::string render_problems(const RecordsError& e, bool color) {
    std::string out;
    for (const Problem& p : e.problems()) out += color ? p.rendered_color : p.rendered;
    return out.empty() ? std::string(e.what()) : out;
}

}  // namespace oprec::cli
