// The formatter's layout: tokens (comments and newlines included) -> text.
// Knows nothing of parsing: format.cpp hands it the tokens of a file that
// parsed, and checks what it gives back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace oprec::format {

enum class TokKind : std::uint8_t { Code, Newline, Comment };

struct Tok {
    TokKind kind = TokKind::Code;
    bool operand = false;    // a name, number, string or literal keyword: what a sign after it is binary to
    std::string text;        // as written (a comment without its trailing blanks)
    std::uint32_t line = 0;  // 1-based, in the source
    std::uint32_t col = 0;   // 0-based, in characters
    std::uint32_t len = 0;   // in characters
};

std::string lay_out(const std::vector<Tok>& tokens, std::size_t line_width);

}  // namespace oprec::format
