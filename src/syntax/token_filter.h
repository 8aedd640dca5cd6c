// Python's implicit line joining: inside ( ) and [ ] a newline is white space.
// The filter sits between the lexer and the parser and drops those newlines,
// so the grammar stays free of target code. It also guards the nesting depth
// and remembers a bracket never closed. Comments (the hidden channel) stop
// here too: the parser never needs them.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <antlr4-runtime.h>

#include "RecLexer.h"

namespace oprec {

class TokenFilter : public antlr4::TokenSource {
public:
    struct Open {
        std::size_t line;
        std::size_t col;  // 0-based, as ANTLR counts
        char bracket;
    };

    // `junk_type`: the token of a character the language does not have; after
    // `max_junk` of them the input ends there (binary data would otherwise
    // make one token, and one recovery step, per byte).
    TokenFilter(antlr4::Lexer& lexer, std::size_t newline_type, int max_depth, std::size_t junk_type,
                std::size_t max_junk);

    std::unique_ptr<antlr4::Token> nextToken() override;
    std::size_t getLine() const override { return lexer_.getLine(); }
    std::size_t getCharPositionInLine() override { return lexer_.getCharPositionInLine(); }
    antlr4::CharStream* getInputStream() override { return lexer_.getInputStream(); }
    std::string getSourceName() override { return lexer_.getSourceName(); }
    antlr4::TokenFactory<antlr4::CommonToken>* getTokenFactory() override { return lexer_.getTokenFactory(); }

    // Brackets still open at the end of the input.
    const std::vector<Open>& unclosed() const { return open_; }
    // The first bracket that went deeper than the limit, if any.
    const std::optional<Open>& too_deep() const { return too_deep_; }
    // Where the input was cut after too many characters the language does not have.
    const std::optional<Open>& junk_stop() const { return junk_stop_; }
    // Where the input was cut in a declaration of too many tokens (kMaxDeclarationTokens).
    const std::optional<Open>& too_long() const { return too_long_; }

private:
    antlr4::Lexer& lexer_;
    std::size_t newline_type_;
    int max_depth_;
    std::vector<std::size_t> open_types_, close_types_;  // ( [ and ) ]
    std::size_t open_brace_ = 0, close_brace_ = 0;       // { and }
    int braces_ = 0;
    std::size_t run_ = 0;  // tokens of the declaration so far
    std::optional<Open> too_long_;
    std::vector<Open> open_;
    std::optional<Open> too_deep_;
    std::size_t junk_type_;
    std::size_t max_junk_;
    std::size_t junk_ = 0;
    std::optional<Open> junk_stop_;
};

// ANTLR's lexer for the language, its console listener removed, behind the
// filter with the front end's limits (parse.h): the tokens as the parser
// takes them from ANTLR.
struct FilteredLexer {
    explicit FilteredLexer(antlr4::CharStream& input);
    oprec_gen::RecLexer lexer;
    TokenFilter filter;
};

}  // namespace oprec
