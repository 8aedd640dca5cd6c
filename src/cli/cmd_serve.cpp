// oprec serve: runs the program oprec-serve (serve_main.cpp) in this
// process's place, with the arguments after `serve`. The web server is a
// program of its own so that the HTTP library, and the OpenSSL it brings,
// are loaded by `oprec serve` alone, not at the start of every command.
#include <cerrno>
#include <cstring>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/paths.h"

namespace oprec::cli {

namespace {

int run_serve(const std::vector<std::string>& args) {
    const std::optional<std::filesystem::path> program = helper_program("oprec-serve");
    if (!program) {
        std::cerr << "oprec serve: the program oprec-serve is missing: it belongs beside this command (a build "
                     "tree) or in ../libexec/oprec (an install)\n";
        return kCannotRun;
    }
    std::vector<std::string> words{program->string()};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    std::cout.flush();
    execv(argv[0], argv.data());
    std::cerr << fmt::format("oprec serve: cannot run {}: {}\n", words[0], std::strerror(errno));
    return kCannotRun;
}

}  // namespace

void add_serve_command(CLI::App& app, int& exit_code) {
    CLI::App* cmd = app.add_subcommand(
        "serve", "A local web page: will a training job fit, per pipeline stage, redrawn as the strategy changes");
    // Every argument after `serve`, --help too, is oprec-serve's to read.
    cmd->prefix_command();
    cmd->set_help_flag();
    cmd->callback([cmd, &exit_code] { exit_code = run_serve(cmd->remaining()); });
}

}  // namespace oprec::cli
