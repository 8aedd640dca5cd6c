// oprec repl: query slot bytes interactively over the records and one layer,
// reloading the records as their files are edited.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/layer_options.h"
#include "cli/paths.h"
#include "value/format.h"
#include "diag/diagnostic.h"
#include "repl/line_editor.h"
#include "repl/session.h"

namespace oprec::cli {

namespace {

namespace fs = std::filesystem;

struct ReplArgs {
    std::string records;
    std::string layer;
    LayerEdits edits;
    bool echo = false;
    bool no_history = false;
};

// $XDG_STATE_HOME/oprec/history, else ~/.local/state/oprec/history.
std::optional<fs::path> history_file() {
    if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/')
        return fs::path(state) / "oprec" / "history";
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0')
        return fs::path(home) / ".local" / "state" / "oprec" / "history";
    return std::nullopt;
}

bool want_color() {
    const char* term = std::getenv("TERM");
    return isatty(STDOUT_FILENO) && isatty(STDERR_FILENO) && std::getenv("NO_COLOR") == nullptr &&
           !(term != nullptr && std::string_view(term) == "dumb");
}

// Reads commands from a pipe or file: no prompt, no colour; fails if any command did.
int run_script(repl::Session& session, const repl::Output& out, bool echo) {
    bool failed = false;
    std::string line;
    for (std::size_t number = 1; !session.done() && std::getline(std::cin, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (echo) {
            const bool comment = line.find_first_not_of(" \t") != std::string::npos &&
                                 line[line.find_first_not_of(" \t")] == '#';
            out.out << (comment || line.empty() ? line : "> " + line) << '\n';
        }
        if (!session.handle(line, out)) {
            failed = true;
            // A transcript shows the command; a script's errors say which line they are from.
            if (!echo) out.note(fmt::format("from line {} of the input: {}", number, str_repr(line)));
        }
        out.out.flush();
    }
    return failed ? kProblems : kOk;
}

int run_interactive(repl::Session& session, const repl::Output& out, const ReplArgs& args) {
    out.out << fmt::format("oprec repl: records {}{}. `help` lists the commands; Tab completes; Ctrl-D leaves.\n",
                           args.records.empty() ? default_records().string() : args.records,
                           args.layer.empty() ? ", an empty layer" : ", layer " + args.layer);
    out.out.flush();
    repl::LineEditor editor("oprec> ", args.no_history ? std::nullopt : history_file(),
                            [&](std::string_view before) { return session.complete(before); });
    while (!session.done()) {
        std::optional<std::string> line = editor.read();
        if (!line) {
            out.out << '\n';
            break;
        }
        editor.remember(*line);
        session.handle(*line, out);
        out.out.flush();
    }
    return kOk;
}

int run(const ReplArgs& args) {
    const bool interactive = isatty(STDIN_FILENO) != 0;
    const repl::Output out{std::cout, std::cerr, interactive && want_color()};
    repl::SessionOptions options;
    options.records = resolve_records(args.records);
    options.load = records_options();
    std::optional<repl::Session> session;
    try {
        session.emplace(options);
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, out.color);
        std::cerr << "oprec repl: the records do not load\n";
        return kCannotRun;
    }
    try {
        for (const std::string& w : session->start(args.layer, args.edits.sets, args.edits.switches)) out.warning(w);
    } catch (const std::exception& e) {  // a file that does not read, a bad document or edit
        std::cerr << "oprec repl: " << e.what() << '\n';
        return kCannotRun;
    }
    return interactive ? run_interactive(*session, out, args) : run_script(*session, out, args.echo);
}

}  // namespace

void add_repl_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ReplArgs>();
    CLI::App* cmd = app.add_subcommand(
        "repl", "Query slot bytes interactively; the records reload as they are edited (commands from a pipe: a script)");
    cmd->add_option("--records", args->records, "The records: a file, or a name in records/ such as calibrated (default: the shipped records)");
    cmd->add_option("--layer", args->layer, "A layer document (JSON) to start from (default: an empty layer)");
    add_layer_edit_options(*cmd, args->edits);
    cmd->add_flag("--echo", args->echo, "Without a terminal: print each command before its output (a transcript)");
    cmd->add_flag("--no-history", args->no_history, "Keep no history file");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
