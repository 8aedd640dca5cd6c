// oprec: the op records of an LLM training memory estimator, as a language.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string_view>

#include "cli/commands.h"

namespace {

// The commands in the order `oprec --help` lists them.
struct Command {
    std::string_view name;
    void (*add)(CLI::App&, int&);
};
constexpr Command kCommands[] = {
    {"calc", oprec::cli::add_calc_command},   {"eval", oprec::cli::add_eval_command},
    {"bench", oprec::cli::add_bench_command}, {"fit", oprec::cli::add_fit_command},
    {"sweep", oprec::cli::add_sweep_command}, {"repl", oprec::cli::add_repl_command},
    {"lint", oprec::cli::add_lint_command},   {"fmt", oprec::cli::add_fmt_command},
    {"import", oprec::cli::add_import_command}, {"export", oprec::cli::add_export_command},
    {"lsp", oprec::cli::add_lsp_command},     {"serve", oprec::cli::add_serve_command},
};

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"oprec: price the activation memory of a transformer layer from op records"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "oprec 0.1.0");
    int exit_code = oprec::cli::kOk;
    // Only the command named first is built, where one is: building every
    // command's options was a tenth of the instructions of `oprec eval`.
    // Anything else (--help, a misspelt command) builds them all.
    const std::string_view first = argc > 1 ? argv[1] : "";
    const auto named = std::find_if(std::begin(kCommands), std::end(kCommands),
                                    [&](const Command& c) { return c.name == first; });
    for (const Command& c : kCommands)
        if (named == std::end(kCommands) || &c == named) c.add(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : oprec::cli::kCannotRun;
    }
    // Every command's output, checked once here: a write that failed (a full
    // disk, `> /dev/full`) must not end in success with the output lost.
    // (A command that already said it could not write, --jsonl's, is not told twice.)
    std::cout.flush();
    if ((!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) && exit_code != oprec::cli::kCannotRun) {
        std::cerr << "oprec: cannot write the output: " << std::strerror(errno != 0 ? errno : EIO) << '\n';
        return oprec::cli::kCannotRun;
    }
    return exit_code;
}
