// A hand-written scanner for the parser's fast path. ANTLR's generated lexer
// (grammar/Rec.g4) costs a lock, a hash lookup and a heap token per
// character or token, a third of a large file's parse; this one gives the
// same tokens, in place, for the text a records file is made of, and refuses
// (ScanRefused) anything else: a character the language does not have, a
// number or string of a rarer form, an unclosed or too deeply nested
// bracket. The caller then parses with ANTLR's lexer, which stays the
// language's definition and the source of every lexical diagnostic; the
// fuzz target checks the two agree wherever this one accepts
// (`scanner_disagreement`).
//
// As the parser sees them (src/syntax/token_filter.h): no white space or
// comments, and no newline inside ( ).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <antlr4-runtime.h>

namespace oprec {

// Thrown where the scanner does not take the text; nothing is wrong with it
// as far as the scanner knows, ANTLR's lexer decides.
struct ScanRefused {};

// One token, in the source text it points into. Positions as ANTLR counts
// them: line from 1, column and start/stop index in characters from 0.
class ScannedToken final : public antlr4::Token {
public:
    ScannedToken(std::string_view source, std::size_t type, std::uint32_t offset, std::uint32_t length,
                 std::uint32_t line, std::uint32_t col, std::uint32_t start, std::uint32_t stop,
                 std::uint32_t index)
        : source_(source), type_(static_cast<std::uint32_t>(type)), offset_(offset), length_(length),
          line_(line), col_(col), start_(start), stop_(stop), index_(index) {}

    std::string getText() const override;
    std::size_t getType() const override { return type_ == kEofType ? EOF : type_; }
    std::size_t getLine() const override { return line_; }
    std::size_t getCharPositionInLine() const override { return col_; }
    std::size_t getChannel() const override { return DEFAULT_CHANNEL; }
    std::size_t getTokenIndex() const override { return index_; }
    std::size_t getStartIndex() const override { return start_; }
    std::size_t getStopIndex() const override { return stop_ == kNone ? INVALID_INDEX : stop_; }
    antlr4::TokenSource* getTokenSource() const override { return nullptr; }
    antlr4::CharStream* getInputStream() const override { return nullptr; }
    std::string toString() const override;

    static constexpr std::uint32_t kEofType = 0xFFFFFFFFu;
    static constexpr std::uint32_t kNone = 0xFFFFFFFFu;

private:
    std::string_view source_;
    std::uint32_t type_, offset_, length_, line_, col_, start_, stop_, index_;
};

class Scanner {
public:
    // `text`: valid UTF-8 with no lone CR (parse.cpp's checked_utf8); it must
    // outlive the scanner and its tokens. Nesting deeper than `max_depth` is
    // refused, for ANTLR's path to report.
    Scanner(std::string_view text, int max_depth);

    // The next token the parser sees; the end of file again and again at the
    // end. Throws ScanRefused.
    ScannedToken next();

private:
    ScannedToken make(std::size_t type, std::size_t begin, std::uint32_t line, std::uint32_t col,
                      std::uint32_t start_char);
    std::size_t number(std::size_t at) const;  // the end of the number at `at`
    std::size_t string(std::size_t at) const;  // the end of the string at `at`

    std::string_view text_;
    int max_depth_;
    std::size_t pos_ = 0;
    std::uint32_t line_ = 1, col_ = 0;
    std::uint32_t extra_bytes_ = 0;  // bytes beyond one per character so far: byte - char index
    std::uint32_t index_ = 0;        // the next token's index
    int depth_ = 0;                  // open ( )
    int braces_ = 0;                 // open { }
    std::size_t run_ = 0;            // tokens of the declaration so far (kMaxDeclarationTokens)
};

// Where the scanner and ANTLR's lexer (with the token filter) disagree on
// `text`, described; nothing if they agree or the scanner refuses the text.
std::optional<std::string> scanner_disagreement(std::string_view text);

}  // namespace oprec
