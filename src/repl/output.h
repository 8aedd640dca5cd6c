// Where a REPL command writes: results to one stream, errors and notes to
// another, coloured only when a person is watching a terminal.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace oprec::repl {

// "did you mean `x`?" for the known name nearest `name` (by edit distance,
// or the only one it begins), else "".
std::string did_you_mean(std::string_view name, const std::vector<std::string>& known);
// Whether `name` is one of `known`.
bool contains(const std::vector<std::string>& known, std::string_view name);

struct Output {
    std::ostream& out;
    std::ostream& err;
    bool color = false;

    void error(std::string_view message) const;  // "error: message"
    void note(std::string_view message) const;   // "note: message"
    void warning(std::string_view message) const;
};

// A command that cannot run as typed: bad syntax, an unknown name. The REPL
// prints it (and its note) and goes on.
class CommandError : public std::runtime_error {
public:
    explicit CommandError(const std::string& message, std::string note = {})
        : std::runtime_error(message), note_(std::move(note)) {}
    const std::string& note() const { return note_; }

private:
    std::string note_;
};

}  // namespace oprec::repl
