// The .rec language's lexer: text -> tokens, by hand, the tokens the lexer
// rules of grammar/Rec.g4 define. Those rules stay the definition: ANTLR
// generates a lexer from them that only the tests and the fuzz target run,
// to check this one gives its tokens on every input (fuzz/exercise.h,
// lexer_disagreement). By hand because ANTLR's lexer costs a lock, a hash
// lookup and a heap token per character or token (a third of a large
// file's parse) and deserialises its tables at every program's start.
//
// Every token, as ANTLR's lexer makes them: white space and `\` line
// continuations skipped, comments given on the hidden channel, newlines
// given everywhere (the parser's filter drops those inside brackets:
// token_filter.h), and a character the language does not have one ERRCHAR
// token, so lexing never fails.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace oprec {

// One token of the text. Positions as ANTLR counts them: line from 1,
// column and start/stop index in characters (code points) from 0.
struct Lexeme {
    std::size_t type = 0;  // RecParser's token type; antlr4::Token::EOF at the end
    std::uint32_t offset = 0, length = 0;  // bytes of the text
    std::uint32_t line = 1, col = 0;
    std::uint32_t start = 0, stop = 0;  // stop = start - 1 for the end of file (ANTLR's)
    bool hidden = false;                // a comment
};

class Lexer {
public:
    // `text`: valid UTF-8 with no NUL and no lone CR (parse.cpp's
    // checked_utf8 makes it so); it must outlive the lexer.
    // A leading UTF-8 byte order mark is skipped, counted as no character,
    // as ANTLR's input stream drops it.
    explicit Lexer(std::string_view text)
        : text_(text), pos_(text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0) {}

    // The next token; the end of file again and again at the end.
    Lexeme next();

private:
    // Each gives the end (a byte offset) of the longest token of its kind at
    // `at`, or `at` where there is none.
    std::size_t number_end(std::size_t at, std::size_t& type) const;
    std::size_t string_end(std::size_t at) const;  // a quoted string, at its quote
    std::size_t continuation_end(std::size_t at) const;
    // The token from pos_ to `end`; advances line and column over it.
    Lexeme take(std::size_t type, std::size_t end, bool hidden = false);

    std::string_view text_;
    std::size_t pos_;
    std::uint32_t line_ = 1, col_ = 0;
    std::uint32_t chars_ = 0;  // characters before pos_
};

// The token type of one of the grammar's literals (`"("`, `"slot"`); 0
// where the grammar has no such literal.
std::size_t literal_type(std::string_view literal);

}  // namespace oprec
