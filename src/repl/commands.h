// The REPL's commands: their names, usage and help, for `help`, for the
// dispatcher and for tab completion.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace oprec::repl {

struct CommandInfo {
    std::string_view name;     // what the line starts with; "SLOT" and "EXPR" stand for a slot's name and an expression
    std::string_view usage;
    std::string_view summary;  // one line, for `help`
    std::string_view details;  // for `help NAME`: what it does, with examples
};

// Every command, in the order `help` lists them.
const std::vector<CommandInfo>& command_table();
// A command by its name (or an alias: `quit` for `:quit`, `reload` for `:reload`); nullptr if none.
const CommandInfo* find_command(std::string_view name);
// The names a line can start with, for completion and did-you-mean.
std::vector<std::string> command_names();

// `help` and `help NAME`; throws CommandError for an unknown NAME.
std::string help_text();
std::string help_text(std::string_view name);

}  // namespace oprec::repl
