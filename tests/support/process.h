// Running the `oprec` binary as a user would: arguments, standard input
// from a file, standard output and error captured, the exit code.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "support/temp_dir.h"

namespace oprec::testing {

struct RunResult {
    int exit_code = -1;  // -1: the process did not exit normally
    std::string out;
    std::string err;
};

// Single-quotes a word for /bin/sh.
inline std::string shell_quote(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Runs OPREC_BINARY with `args`, feeding `input` on standard input.
// `env` is prefixed to the command (e.g. "OPREC_PATH=/x").
inline RunResult run_oprec(const std::vector<std::string>& args, const std::string& input = "",
                           const std::string& env = "") {
    TempDir dir;
    const auto in = dir.write("stdin", input);
    std::string command = env.empty() ? "" : env + " ";
    command += shell_quote(OPREC_BINARY);
    for (const std::string& a : args) command += " " + shell_quote(a);
    command += " < " + shell_quote(in.string()) + " > " + shell_quote((dir / "stdout").string()) + " 2> " +
               shell_quote((dir / "stderr").string());
    const int status = std::system(command.c_str());
    RunResult r;
    if (status != -1 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    r.out = read_text(dir / "stdout");
    r.err = read_text(dir / "stderr");
    return r;
}

}  // namespace oprec::testing
