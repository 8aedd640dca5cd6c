// Where the shipped records and the standard library are, with no
// configuration: beside an installed binary (../share/oprec, or
// ../../share/oprec for a helper in libexec/oprec), else the source tree
// the binary was built from. OPREC_PATH adds import folders.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>

#include "oprec/records.h"

namespace oprec::cli {

std::filesystem::path data_dir();                 // holds records/ and stdlib/
// A program of oprec's own that a command runs (oprec-serve): beside this
// one (a build tree), else in ../libexec/oprec (an install).
std::optional<std::filesystem::path> helper_program(std::string_view name);
std::filesystem::path default_records();          // records/op_records.rec
std::filesystem::path web_dir();                  // oprec serve's page: web/
// The chart library: an install's web/vendor, else web/node_modules (npm ci).
std::filesystem::path chart_library_dir();
// What a `--records` argument names: nothing, the shipped records; a bare
// name (no path separator, no extension) that names records/<name>.rec in
// the data dir, that file (`calibrated`); anything else, the path as given.
std::filesystem::path resolve_records(std::string_view arg);
// How the commands load records through the public API: the data dir, and
// OPREC_PATH's folders (cli/load_options.h: the same for the checker's tools).
RecordsOptions records_options();
// After a load's errors, where `path` (what --records ARG resolved to) is
// no file: a note of what --records takes (`names`); else nothing.
std::string records_hint(const std::filesystem::path& path, std::string_view names);
// A load's diagnostics as the terminal shows them.
std::string render_problems(const RecordsError& e, bool color);

}  // namespace oprec::cli
