// The tokens as the parser takes them, from the lexer (lexer.h): Python's
// implicit line joining (inside ( ) a newline is white space), comments
// dropped (the parser never needs them; the formatter reads the lexer's),
// and the front end's limits (parse.h): a bracket nested too deep, a
// declaration of too many tokens, too many characters the language does not
// have. At a limit the input ends there, with an end of file, and the
// filter says where, for the parser's caller to report.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <antlr4-runtime.h>

#include "syntax/lexer.h"

namespace oprec {

// One token, in the source text it points into, as ANTLR's parser reads it.
class ScannedToken final : public antlr4::Token {
public:
    ScannedToken(std::string_view source, const Lexeme& lexeme, std::uint32_t index)
        : source_(source), lexeme_(lexeme), index_(index) {}

    std::string getText() const override;
    std::size_t getType() const override { return lexeme_.type; }
    std::size_t getLine() const override { return lexeme_.line; }
    std::size_t getCharPositionInLine() const override { return lexeme_.col; }
    std::size_t getChannel() const override { return lexeme_.hidden ? HIDDEN_CHANNEL : DEFAULT_CHANNEL; }
    std::size_t getTokenIndex() const override { return index_; }
    std::size_t getStartIndex() const override { return lexeme_.start; }
    std::size_t getStopIndex() const override {
        return lexeme_.stop == kNone ? INVALID_INDEX : lexeme_.stop;
    }
    antlr4::TokenSource* getTokenSource() const override { return nullptr; }
    antlr4::CharStream* getInputStream() const override { return nullptr; }
    std::string toString() const override;

    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

private:
    std::string_view source_;
    Lexeme lexeme_;
    std::uint32_t index_;
};

class TokenFilter {
public:
    struct Open {
        std::size_t line;
        std::size_t col;  // 0-based, as ANTLR counts
        char bracket;
    };

    // `text`: as Lexer takes it; it must outlive the filter and its tokens.
    explicit TokenFilter(std::string_view text);

    // The next token the parser sees; the end of file again and again at the end.
    ScannedToken next();

    // Brackets still open at the end of the input.
    const std::vector<Open>& unclosed() const { return open_; }
    // The first `{` of those still open at the end of the input, if any: a
    // block's `{` is no bracket to the lines in it, so an unclosed one would
    // otherwise be reported at whatever follows the block.
    std::optional<Open> unclosed_brace() const { return braces_ > 0 ? first_brace_ : std::nullopt; }
    // The first bracket that went deeper than the limit, if any.
    const std::optional<Open>& too_deep() const { return too_deep_; }
    // Where the input was cut after too many characters the language does not have.
    const std::optional<Open>& junk_stop() const { return junk_stop_; }
    // Where the input was cut in a declaration of too many tokens (kMaxDeclarationTokens).
    const std::optional<Open>& too_long() const { return too_long_; }

private:
    // An end of file where `at` starts: the input cut there; the brackets
    // open so far forgotten or not (unclosed() reports those kept).
    ScannedToken cut(const Lexeme& at, bool forget_brackets);

    std::string_view text_;
    Lexer lexer_;
    std::size_t open_paren_, close_paren_, open_brace_, close_brace_;  // the brackets' token types
    std::uint32_t index_ = 0;  // the next token's index
    bool ended_ = false;
    Lexeme end_;
    int braces_ = 0;
    std::size_t run_ = 0;  // tokens of the declaration so far
    std::size_t junk_ = 0;
    std::vector<Open> open_;
    std::optional<Open> too_long_, too_deep_, junk_stop_;
    std::optional<Open> first_brace_;  // the outermost `{` open now
};

}  // namespace oprec
