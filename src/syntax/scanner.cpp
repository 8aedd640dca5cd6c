#include "syntax/scanner.h"

#include <array>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "RecLexer.h"
#include "diag/source.h"
#include "syntax/parse.h"
#include "syntax/token_filter.h"

namespace oprec {

namespace {

using oprec_gen::RecLexer;

// The token types of the grammar's literals ('slot', '**', ...), read once
// from the generated lexer's vocabulary, so the scanner never goes stale
// when a keyword is added.
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
using TypeOf = std::unordered_map<std::string, std::size_t, TextHash, std::equal_to<>>;

struct TokenTypes {
    TypeOf words;    // keywords
    TypeOf symbols;  // operators and punctuation

    TokenTypes() {
        antlr4::ANTLRInputStream nothing("");
        RecLexer lexer(&nothing);
        const auto& vocabulary = lexer.getVocabulary();
        for (std::size_t type = 1; type <= vocabulary.getMaxTokenType(); ++type) {
            const std::string literal = vocabulary.getLiteralName(type);
            if (literal.size() < 3) continue;  // not a literal token
            std::string text = literal.substr(1, literal.size() - 2);
            const bool word = (text[0] >= 'a' && text[0] <= 'z') || (text[0] >= 'A' && text[0] <= 'Z');
            (word ? words : symbols).emplace(std::move(text), type);
        }
    }
};

const TokenTypes& token_types() {
    static const TokenTypes types;
    return types;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }
bool is_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string ScannedToken::getText() const {
    if (type_ == kEofType) return "<EOF>";
    return std::string(source_.substr(offset_, length_));
}

std::string ScannedToken::toString() const {
    return fmt::format("[@{},{}:{}='{}',<{}>,{}:{}]", index_, start_, static_cast<long long>(getStopIndex()),
                       getText(), static_cast<long long>(getType()), line_, col_);
}

Scanner::Scanner(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

ScannedToken Scanner::make(std::size_t type, std::size_t begin, std::uint32_t line, std::uint32_t col,
                           std::uint32_t start_char) {
    const auto length = static_cast<std::uint32_t>(pos_ - begin);
    std::uint32_t chars = length;
    for (std::size_t i = begin; i < pos_; ++i)
        if (is_continuation(text_[i])) --chars;
    return ScannedToken(text_, type, static_cast<std::uint32_t>(begin), length, line, col, start_char,
                        start_char + chars - 1, index_++);
}

// DIGITPART ('.' DIGITPART)? ([eE] [+-]? DIGITPART)?, and no zero-led
// integer: where ANTLR's longest match would split or join differently
// (`1.`, `1e`, `0x1`, `1j`, `00`, a name or dot right after), refused.
std::size_t Scanner::number(std::size_t at) const {
    const std::size_t n = text_.size();
    const auto digit_part = [&](std::size_t j) {
        ++j;
        while (j < n) {
            if (is_digit(text_[j])) ++j;
            else if (text_[j] == '_' && j + 1 < n && is_digit(text_[j + 1])) j += 2;
            else break;
        }
        return j;
    };
    std::size_t i = digit_part(at);
    if (text_[at] == '0' && i - at > 1) throw ScanRefused{};
    if (i < n && text_[i] == '.') {
        if (i + 1 < n && is_digit(text_[i + 1])) i = digit_part(i + 1);
        else throw ScanRefused{};
    }
    if (i < n && (text_[i] == 'e' || text_[i] == 'E')) {
        std::size_t j = i + 1;
        if (j < n && (text_[j] == '+' || text_[j] == '-')) ++j;
        if (j < n && is_digit(text_[j])) i = digit_part(j);
        else throw ScanRefused{};
    }
    if (i < n && (is_name_char(text_[i]) || text_[i] == '.')) throw ScanRefused{};
    return i;
}

// A quoted string on one line, escapes allowed but not of a line end.
std::size_t Scanner::string(std::size_t at) const {
    const char quote = text_[at];
    for (std::size_t j = at + 1; j < text_.size();) {
        const char c = text_[j];
        if (c == quote) return j + 1;
        if (c == '\r' || c == '\n') break;
        if (c == '\\') {
            if (j + 1 >= text_.size() || text_[j + 1] == '\r' || text_[j + 1] == '\n') break;
            j += 2;
            while (j < text_.size() && is_continuation(text_[j])) ++j;  // an escaped character of several bytes
            continue;
        }
        ++j;
    }
    throw ScanRefused{};
}

ScannedToken Scanner::next() {
    const std::size_t n = text_.size();
    for (;;) {
        const auto start_char = static_cast<std::uint32_t>(pos_ - extra_bytes_);
        const std::uint32_t line = line_, col = col_;
        const std::size_t begin = pos_;
        if (pos_ >= n) {
            if (depth_ > 0) throw ScanRefused{};  // never closed: ANTLR's path says where
            return ScannedToken(text_, ScannedToken::kEofType, static_cast<std::uint32_t>(n), 0, line, col,
                                start_char, start_char == 0 ? ScannedToken::kNone : start_char - 1, index_);
        }
        const char c = text_[pos_];
        if (c == ' ' || c == '\t' || c == '\f') {
            ++pos_;
            ++col_;
            continue;
        }
        if (c == '#') {  // a comment, to the end of the line
            while (pos_ < n && text_[pos_] != '\n' && text_[pos_] != '\r') {
                if (is_continuation(text_[pos_])) ++extra_bytes_;
                else ++col_;
                ++pos_;
            }
            continue;
        }
        if (c == '\n' || c == '\r') {
            pos_ += c == '\r' ? 2 : 1;
            if (c == '\r' && (pos_ > n || text_[pos_ - 1] != '\n')) throw ScanRefused{};  // a lone CR
            ++line_;
            col_ = 0;
            if (depth_ > 0) continue;  // inside ( ): white space, as in Python
            if (braces_ == 0) run_ = 0;
            return make(RecLexer::NEWLINE, begin, line, col, start_char);
        }
        if (c == '\\') {  // a line continued: '\' [ \t]* newline
            std::size_t j = pos_ + 1;
            while (j < n && (text_[j] == ' ' || text_[j] == '\t')) ++j;
            if (j < n && text_[j] == '\n') pos_ = j + 1;
            else if (j + 1 < n && text_[j] == '\r' && text_[j + 1] == '\n') pos_ = j + 2;
            else throw ScanRefused{};
            ++line_;
            col_ = 0;
            continue;
        }
        std::size_t type = 0;
        if (is_digit(c)) {
            pos_ = number(pos_);
            type = RecLexer::INT;
            for (std::size_t i = begin; i < pos_; ++i)
                if (text_[i] == '.' || text_[i] == 'e' || text_[i] == 'E') type = RecLexer::FLOAT;
        } else if (is_name_start(c)) {
            std::size_t j = pos_ + 1;
            while (j < n && is_name_char(text_[j])) ++j;
            // r'...', b"...": a string with a prefix, rare in records.
            if (j - pos_ <= 2 && j < n && (text_[j] == '\'' || text_[j] == '"')) throw ScanRefused{};
            const auto& words = token_types().words;
            const auto word = words.find(text_.substr(pos_, j - pos_));
            type = word != words.end() ? word->second : std::size_t{RecLexer::NAME};
            pos_ = j;
        } else if (c == '\'' || c == '"') {
            pos_ = string(pos_);
            type = RecLexer::STRING;
        } else {
            const auto& symbols = token_types().symbols;
            for (std::size_t length : {3, 2, 1}) {
                if (pos_ + length > n) continue;
                const auto symbol = symbols.find(text_.substr(pos_, length));
                if (symbol == symbols.end()) continue;
                type = symbol->second;
                pos_ += length;
                break;
            }
            if (type == 0) throw ScanRefused{};  // not the language's: ANTLR's ERRCHAR
            if (c == '.' && pos_ < n && is_digit(text_[pos_])) throw ScanRefused{};  // `....5`
            if (c == '(') {
                if (depth_ >= max_depth_) throw ScanRefused{};
                ++depth_;
            } else if (c == ')' && depth_ > 0) {
                --depth_;
            } else if (c == '{') {
                ++braces_;
            } else if (c == '}' && braces_ > 0) {
                --braces_;
            }
        }
        if (++run_ > kMaxDeclarationTokens) throw ScanRefused{};  // ANTLR's path reports it
        ScannedToken token = make(type, begin, line, col, start_char);
        for (std::size_t i = begin; i < pos_; ++i)
            if (is_continuation(text_[i])) ++extra_bytes_;
        col_ += token.getStopIndex() + 1 - start_char;
        return token;
    }
}

}  // namespace oprec

namespace oprec {

std::optional<std::string> scanner_disagreement(std::string_view text) {
    // The scanner is given text parse.cpp has checked: valid UTF-8, no NUL, no lone CR.
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = utf8_length(text, i);
        if ((n <= 1 && static_cast<unsigned char>(text[i]) >= 0x80) || text[i] == '\0') return std::nullopt;
        if (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n')) return std::nullopt;
        i += n == 0 ? 1 : n;
    }
    std::vector<ScannedToken> scanned;
    try {
        Scanner scanner(text, kMaxNesting);
        do scanned.push_back(scanner.next());
        while (scanned.back().getType() != antlr4::Token::EOF);
    } catch (const ScanRefused&) {
        return std::nullopt;
    }
    antlr4::ANTLRInputStream input{std::string(text)};
    const auto same = [](const antlr4::Token& a, const antlr4::Token& b) {
        return a.getType() == b.getType() && a.getText() == b.getText() && a.getLine() == b.getLine() &&
               a.getCharPositionInLine() == b.getCharPositionInLine() && a.getStartIndex() == b.getStartIndex() &&
               a.getStopIndex() == b.getStopIndex();
    };
    FilteredLexer antlr(input);
    for (const ScannedToken& mine : scanned) {
        const std::unique_ptr<antlr4::Token> theirs = antlr.filter.nextToken();
        if (!same(mine, *theirs))
            return fmt::format("the scanner gives {}, ANTLR's lexer {}", mine.toString(), theirs->toString());
    }
    return std::nullopt;
}

}  // namespace oprec
