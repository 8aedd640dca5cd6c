// oprec import FILE.yaml: the reference's YAML records as .rec, laid out by
// fmt. oprec export FILE.rec: .rec records as YAML the reference's loader
// takes. Each writes to standard output, or atomically to -o FILE.
#include <filesystem>
#include <iostream>
#include <memory>
#include <unistd.h>

#include <fmt/format.h>

#include "check/loader.h"
#include "cli/commands.h"
#include "cli/load_options.h"
#include "cli/file_io.h"
#include "cli/paths.h"
#include "format/format.h"
#include "convert/convert.h"
#include "yaml/records_yaml.h"

namespace oprec::cli {

namespace {

struct ConvertArgs {
    std::string file;
    std::string output;
};

// The records loaded and checked, or the diagnostics printed.
std::optional<LoadResult> loaded(const std::string& command, const std::string& file) {
    LoadResult r = load_file(file, load_options());
    if (r.ok()) return r;
    std::cerr << render_all(r.diagnostics, r.sources, isatty(2) != 0);
    std::cerr << fmt::format("oprec {}: `{}` does not load\n", command, file);
    return std::nullopt;
}

int emit(const std::string& command, const std::string& text, const std::string& output) {
    if (output.empty() || output == "-") {
        std::cout << text;
        return kOk;
    }
    std::string why;
    if (write_file(output, text, why)) return kOk;
    std::cerr << fmt::format("oprec {}: cannot write `{}`: {}\n", command, output, why);
    return kCannotRun;
}

int run_import(const ConvertArgs& args) {
    if (!yaml::is_yaml_path(args.file)) {
        std::cerr << fmt::format("oprec import: `{}` is not YAML records (.yaml or .yml)\n", args.file);
        return kCannotRun;
    }
    auto r = loaded("import", args.file);
    if (!r) return kProblems;
    const ast::Module& module = r->modules.back();  // the file itself: imports load first
    const std::string rec = yaml::rec_from_yaml(module, r->sources.file(module.file));
    const format::Formatted laid_out = format::format_source(rec, args.file);
    if (!laid_out.ok()) {  // a bug: what import writes always parses
        std::cerr << render_all(laid_out.diagnostics, laid_out.sources, false);
        return kProblems;
    }
    return emit("import", *laid_out.text, args.output);
}

int run_export(const ConvertArgs& args) {
    auto r = loaded("export", args.file);
    if (!r) return kProblems;
    const std::string yaml = yaml::yaml_from_rec(r->modules, *r->program, args.file);
    // What import would refuse is not written: the YAML is loaded back first,
    // beside the records (their own vocabulary, if any, found the same way).
    const std::string back_name = (std::filesystem::path(args.file).parent_path() / "exported.yaml").string();
    const LoadResult back = load_text(yaml, back_name, load_options());
    if (!back.ok()) {
        std::cerr << render_all(back.diagnostics, back.sources, false);
        std::cerr << fmt::format("oprec export: `{}` has no YAML the reference's loader (and `oprec import`) "
                                 "would accept: nothing written\n", args.file);
        return kProblems;
    }
    return emit("export", yaml, args.output);
}

void add(CLI::App& app, int& exit_code, const char* name, const char* what, const char* file_help,
         int (*run)(const ConvertArgs&)) {
    auto args = std::make_shared<ConvertArgs>();
    CLI::App* cmd = app.add_subcommand(name, what);
    cmd->add_option("file", args->file, file_help)->required();
    cmd->add_option("-o,--output", args->output, "Write here (atomically), not to standard output");
    cmd->footer("Exit status: 0 done, 1 the records do not load, 2 could not read or write.");
    cmd->callback([args, &exit_code, run] { exit_code = run(*args); });
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
    add(app, exit_code, "import", "Write the reference's YAML op records as .rec, laid out by fmt",
        "The YAML records (.yaml or .yml)", run_import);
}

void add_export_command(CLI::App& app, int& exit_code) {
    add(app, exit_code, "export", "Write .rec records as YAML the reference's loader accepts",
        "The .rec records", run_export);
}

}  // namespace oprec::cli
