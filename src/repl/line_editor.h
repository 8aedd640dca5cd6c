// Line editing for the interactive REPL, with libedit: a prompt, history kept
// in a file across sessions, tab completion, Ctrl-C cancelling the line and
// Ctrl-D leaving. The one place that knows libedit.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "repl/completion.h"

namespace oprec::repl {

class LineEditor {
public:
    using Completer = std::function<Completion(std::string_view before_cursor)>;

    // `history`: the file the history is read from and saved to (nullopt:
    // none); a file that cannot be read or written is no error.
    LineEditor(std::string prompt, std::optional<std::filesystem::path> history, Completer complete);
    ~LineEditor();
    LineEditor(const LineEditor&) = delete;
    LineEditor& operator=(const LineEditor&) = delete;

    // The next line, without its newline; nullopt at end of input (Ctrl-D on
    // an empty line). A line cancelled with Ctrl-C comes back empty.
    std::optional<std::string> read();
    // Adds the line to the history and saves the history file.
    void remember(const std::string& line);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace oprec::repl
