// oprec fmt: lays .rec files out canonically (src/format), in place, or
// says which would change (--check) and how (--diff).
#include <iostream>
#include <memory>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "format/diff.h"
#include "format/format.h"

namespace oprec::cli {

namespace {

struct FmtArgs {
    std::vector<std::string> files;
    bool check = false;
    bool diff = false;
};

// One file: 0 nothing to do or done, 1 it would change (--check) or does
// not parse, 2 it cannot be read or written.
int format_one(const std::string& file, const FmtArgs& args) {
    const bool stdio = file == "-";
    const std::string name = stdio ? "<stdin>" : file;
    std::string why;
    auto text = read_text(file, why);
    if (!text) {
        std::cerr << fmt::format("oprec fmt: cannot read `{}`: {}\n", file, why);
        return kCannotRun;
    }
    const format::Formatted out = format::format_source(*text, name);
    if (!out.ok()) {
        std::cerr << render_all(out.diagnostics, out.sources, isatty(2) != 0);
        std::cerr << fmt::format("oprec fmt: `{}` does not parse: left as it is\n", name);
        return kProblems;
    }
    const bool changes = *out.text != *text;
    if (args.diff) std::cout << format::unified_diff(*text, *out.text, name);
    if (args.check) {
        if (changes) std::cout << name << '\n';
        return changes ? kProblems : kOk;
    }
    if (args.diff) return kOk;
    if (stdio) {
        std::cout << *out.text;
        return kOk;
    }
    if (changes && !write_file(file, *out.text, why, &*text)) {
        std::cerr << fmt::format("oprec fmt: cannot write `{}`: {}\n", file, why);
        return kCannotRun;
    }
    return kOk;
}

int run(const FmtArgs& args) {
    std::vector<std::string> files = args.files.empty() ? std::vector<std::string>{"-"} : args.files;
    int status = kOk;
    for (const std::string& f : files) status = std::max(status, format_one(f, args));
    return status;
}

}  // namespace

void add_fmt_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<FmtArgs>();
    CLI::App* cmd = app.add_subcommand("fmt", "Lay .rec files out canonically, in place (- or nothing: stdin to stdout)");
    cmd->add_option("files", args->files, "The .rec files");
    cmd->add_flag("--check", args->check, "Change nothing: list the files that would change, exit 1 if any");
    cmd->add_flag("--diff", args->diff, "Change nothing: show what would change, as a unified diff");
    cmd->footer("Exit status: 0 done, 1 a file would change (--check) or does not parse, 2 could not read or write.");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
