// A launch command's text split into words as a POSIX shell would split
// it, without running anything: single and double quotes, backslash
// escapes and backslash-newline continuations, `#` comments, command
// separators (newline, `;`, `&&`, `||`, `|`, `&`). Parameters (`$VAR`,
// `${VAR}`) stay as text; bash arrays assigned in the text
// (`ARGS=( --a 1 )`) are expanded where `${ARGS[@]}` names them, since
// Megatron-LM's example scripts pass their flags that way.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace oprec::rank {

// A text that cannot be split (an unclosed quote): the message holds
// "SOURCE:LINE:COL: ...".
class ShellError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Word {
    std::string text;  // after quote removal
    int line = 1;      // where the word starts in the text, 1-based
    int col = 1;
};

// One simple command: its words in order (array expansions done).
using Command = std::vector<Word>;

// Splits `text` into commands. Throws ShellError naming `source` and the
// position of an unclosed quote.
std::vector<Command> split_commands(std::string_view text, const std::string& source);

}  // namespace oprec::rank
