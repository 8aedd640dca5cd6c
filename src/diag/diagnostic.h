// Diagnostics as a compiler writes them: file:line:col: severity: message [CODE],
// the source line with a caret range, notes at related places, a fix-it.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "diag/source.h"

namespace oprec {

enum class Severity { Error, Warning, Note };

struct Note {
    Span span;  // may be unknown: a note with no place
    std::string message;
};

struct FixIt {
    Span span;            // the text to replace
    std::string replacement;
    std::string message = {};  // what the fix does; empty: "did you mean `replacement`?"
};

struct Diagnostic {
    Severity severity = Severity::Error;
    std::string code;     // stable, e.g. "E0101"; documented in docs/diagnostics.md
    Span span;
    std::string message;
    std::vector<Note> notes;
    std::optional<FixIt> fix;
};

const char* severity_name(Severity s);

// The text form: header, the line, carets under the span, notes and fix.
std::string render(const Diagnostic& d, const SourceMap& sources, bool color = false);
std::string render_all(const std::vector<Diagnostic>& ds, const SourceMap& sources, bool color = false);

// What a load that failed throws: every error it found, with the sources to show them.
class LoadError : public std::runtime_error {
public:
    LoadError(std::vector<Diagnostic> diagnostics, SourceMap sources);
    const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
    const SourceMap& sources() const { return sources_; }

private:
    std::vector<Diagnostic> diagnostics_;
    SourceMap sources_;
};

}  // namespace oprec
