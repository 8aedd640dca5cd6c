// oprec: the op records of an LLM training memory estimator, as a language.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/commands.h"

int main(int argc, char** argv) {
    CLI::App app{"oprec: price the activation memory of a transformer layer from op records"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "oprec 0.1.0");
    int exit_code = oprec::cli::kOk;
    oprec::cli::add_calc_command(app, exit_code);
    oprec::cli::add_eval_command(app, exit_code);
    oprec::cli::add_bench_command(app, exit_code);
    oprec::cli::add_fit_command(app, exit_code);
    oprec::cli::add_sweep_command(app, exit_code);
    oprec::cli::add_repl_command(app, exit_code);
    oprec::cli::add_lint_command(app, exit_code);
    oprec::cli::add_fmt_command(app, exit_code);
    oprec::cli::add_import_command(app, exit_code);
    oprec::cli::add_export_command(app, exit_code);
    oprec::cli::add_lsp_command(app, exit_code);
    oprec::cli::add_serve_command(app, exit_code);
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
