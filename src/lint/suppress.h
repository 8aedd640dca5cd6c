// `# rec: allow CODE[, CODE...]`: a comment that silences warnings. At the
// end of a line it covers that line; alone on its line it covers the next.
// Text after the codes is free: say why (`# rec: allow W0109: never 0`).
#pragma once

#include <string>
#include <vector>

#include "diag/diagnostic.h"
#include "lint/index.h"

namespace oprec::lint {

struct Suppression {
    std::string code;
    Span span;                 // the code in the comment
    Span comment;              // the whole comment
    std::uint32_t first_line;  // the lines it covers
    std::uint32_t last_line;
    bool sole = false;         // the comment's only code
    bool used = false;
};

// Every suppression in the records' own files (not the library's). A comment
// that names no code, or something not a warning's code, is reported in `bad`.
std::vector<Suppression> find_suppressions(const Index& index, std::vector<Diagnostic>& bad);

// Drops the warnings a suppression covers, marking it used; errors stay.
void apply_suppressions(std::vector<Diagnostic>& diags, std::vector<Suppression>& sups);

// W0114 for each suppression that covered nothing.
void report_unused(const std::vector<Suppression>& sups, std::vector<Diagnostic>& out);

}  // namespace oprec::lint
