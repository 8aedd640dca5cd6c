// The subcommands of `oprec`. Each file cmd_NAME.cpp adds one to the app;
// its callback leaves the process's exit code in `exit_code`.
#pragma once

#include <CLI/CLI.hpp>

namespace oprec::cli {

// Exit codes shared by every command.
inline constexpr int kOk = 0;
inline constexpr int kProblems = 1;   // it ran, and something failed or was found
inline constexpr int kCannotRun = 2;  // bad arguments, unreadable input

void add_calc_command(CLI::App& app, int& exit_code);
void add_eval_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_sweep_command(CLI::App& app, int& exit_code);
void add_fit_command(CLI::App& app, int& exit_code);
void add_repl_command(CLI::App& app, int& exit_code);
void add_lint_command(CLI::App& app, int& exit_code);
void add_fmt_command(CLI::App& app, int& exit_code);
void add_import_command(CLI::App& app, int& exit_code);
void add_export_command(CLI::App& app, int& exit_code);
void add_lsp_command(CLI::App& app, int& exit_code);
void add_serve_command(CLI::App& app, int& exit_code);

}  // namespace oprec::cli
