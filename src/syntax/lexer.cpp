#include "syntax/lexer.h"

#include <string>
#include <unordered_map>

#include "RecParser.h"
#include "diag/source.h"

namespace oprec {

namespace {

using oprec_gen::RecParser;

// The token types of the grammar's literals ('slot', '**', ...), read once
// from the generated parser's vocabulary, so the lexer never goes stale
// when a keyword or an operator is added.
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};
using TypeOf = std::unordered_map<std::string, std::size_t, TextHash, std::equal_to<>>;

struct TokenTypes {
    TypeOf words;    // keywords
    TypeOf symbols;  // operators and punctuation

    TokenTypes() {
        const RecParser parser(nullptr);
        const auto& vocabulary = parser.getVocabulary();
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
bool is_in(char c, std::string_view set) { return set.find(c) != std::string_view::npos; }

// STRPREFIX: [rRbBuUfF] | [rR][bBfF] | [bBfF][rR].
bool is_string_prefix(std::string_view p) {
    if (p.size() == 1) return is_in(p[0], "rRbBuUfF");
    if (p.size() == 2) return (is_in(p[0], "rR") && is_in(p[1], "bBfF")) || (is_in(p[0], "bBfF") && is_in(p[1], "rR"));
    return false;
}

}  // namespace

std::size_t literal_type(std::string_view literal) {
    const TokenTypes& types = token_types();
    for (const TypeOf* table : {&types.words, &types.symbols}) {
        const auto found = table->find(literal);
        if (found != table->end()) return found->second;
    }
    return 0;
}

Lexeme Lexer::take(std::size_t type, std::size_t end, bool hidden) {
    Lexeme t;
    t.type = type;
    t.offset = static_cast<std::uint32_t>(pos_);
    t.length = static_cast<std::uint32_t>(end - pos_);
    t.line = line_;
    t.col = col_;
    t.start = chars_;
    t.hidden = hidden;
    // As ANTLR's lexer counts: a newline starts a line, any other character
    // (a CR too) is a column.
    for (; pos_ < end; ++pos_) {
        const char c = text_[pos_];
        if (is_continuation(c)) continue;
        ++chars_;
        if (c == '\n') {
            ++line_;
            col_ = 0;
        } else {
            ++col_;
        }
    }
    t.stop = chars_ - 1;  // start - 1 (wrapped) for an empty token
    return t;
}

// INT, FLOAT and IMAG at `at` (a digit or a '.'), the longest of them, the
// rule listed first on a tie, as ANTLR's lexer chooses:
//   INT        DECINT | '0' [xX] ('_'? HEXDIGIT)+ | '0' [oO] ('_'? [0-7])+ | '0' [bB] ('_'? [01])+
//   DECINT     [1-9] ('_'? [0-9])* | '0' ('_'? '0')*
//   FLOAT      POINTFLOAT | EXPFLOAT
//   POINTFLOAT DIGITPART? '.' DIGITPART | DIGITPART '.'
//   EXPFLOAT   (DIGITPART | POINTFLOAT) [eE] [+-]? DIGITPART
//   IMAG       (FLOAT | DIGITPART) [jJ]
std::size_t Lexer::number_end(std::size_t at, std::size_t& type) const {
    const std::size_t n = text_.size();
    const auto at_is = [&](std::size_t i, auto&& pred) { return i < n && pred(text_[i]); };
    // ('_'? digit)* after position j, digits as `digit` says.
    const auto run = [&](std::size_t j, auto&& digit) {
        for (;;) {
            if (at_is(j, digit)) ++j;
            else if (at_is(j, [](char c) { return c == '_'; }) && at_is(j + 1, digit)) j += 2;
            else return j;
        }
    };
    const auto digit_part = [&](std::size_t j) { return run(j + 1, is_digit); };  // a digit at j
    std::size_t best = at;
    type = 0;
    const auto consider = [&](std::size_t end, std::size_t t) {
        if (end > best) best = end, type = t;
    };
    std::size_t digits = 0;  // DIGITPART's end, 0 where there is none
    if (is_digit(text_[at])) {
        if (text_[at] == '0') {
            const char base = at + 1 < n ? text_[at + 1] : '\0';
            const auto prefixed = [&](auto&& digit) {
                const std::size_t end = run(at + 2, digit);
                if (end > at + 2) consider(end, RecParser::INT);
            };
            if (base == 'x' || base == 'X')
                prefixed([](char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); });
            else if (base == 'o' || base == 'O')
                prefixed([](char c) { return c >= '0' && c <= '7'; });
            else if (base == 'b' || base == 'B')
                prefixed([](char c) { return c == '0' || c == '1'; });
            consider(run(at + 1, [](char c) { return c == '0'; }), RecParser::INT);
        } else {
            consider(digit_part(at), RecParser::INT);
        }
        digits = digit_part(at);
    }
    // POINTFLOAT's possible ends, then EXPFLOAT's after DIGITPART or either.
    std::size_t floats[6];
    std::size_t count = 0;
    if (digits != 0) {
        if (at_is(digits, [](char c) { return c == '.'; })) {
            floats[count++] = digits + 1;
            if (at_is(digits + 1, is_digit)) floats[count++] = digit_part(digits + 1);
        }
    } else if (at_is(at + 1, is_digit)) {
        floats[count++] = digit_part(at + 1);  // '.' DIGITPART
    }
    const auto exponent = [&](std::size_t e) {
        if (!at_is(e, [](char c) { return c == 'e' || c == 'E'; })) return;
        std::size_t j = e + 1;
        if (at_is(j, [](char c) { return c == '+' || c == '-'; })) ++j;
        if (at_is(j, is_digit)) floats[count++] = digit_part(j);
    };
    const std::size_t points = count;
    if (digits != 0) exponent(digits);
    for (std::size_t k = 0; k < points; ++k) exponent(floats[k]);
    for (std::size_t k = 0; k < count; ++k) consider(floats[k], RecParser::FLOAT);
    const auto imaginary = [&](std::size_t e) {
        if (at_is(e, [](char c) { return c == 'j' || c == 'J'; })) consider(e + 1, RecParser::IMAG);
    };
    for (std::size_t k = 0; k < count; ++k) imaginary(floats[k]);
    if (digits != 0) imaginary(digits);
    return best;
}

// '\'' (~['\\\r\n] | '\\' .)* '\'' (or with '"'): `at` where it does not close.
std::size_t Lexer::string_end(std::size_t at) const {
    const char quote = text_[at];
    for (std::size_t j = at + 1; j < text_.size();) {
        const char c = text_[j];
        if (c == quote) return j + 1;
        if (c == '\r' || c == '\n') return at;
        if (c == '\\') {
            if (j + 1 >= text_.size()) return at;
            j += 1 + std::max<std::size_t>(utf8_length(text_, j + 1), 1);  // any one character, a newline too
            continue;
        }
        ++j;
    }
    return at;
}

// CONTINUE: '\\' [ \t]* ('\r'? '\n' | '\r'); `at` where it is not one.
std::size_t Lexer::continuation_end(std::size_t at) const {
    const std::size_t n = text_.size();
    std::size_t j = at + 1;
    while (j < n && (text_[j] == ' ' || text_[j] == '\t')) ++j;
    if (j < n && text_[j] == '\n') return j + 1;
    if (j < n && text_[j] == '\r') return j + 1 < n && text_[j + 1] == '\n' ? j + 2 : j + 1;
    return at;
}

Lexeme Lexer::next() {
    const std::size_t n = text_.size();
    for (;;) {
        if (pos_ >= n) return take(antlr4::Token::EOF, pos_);
        const char c = text_[pos_];
        if (c == ' ' || c == '\t' || c == '\f') {  // WS, skipped
            std::size_t j = pos_ + 1;
            while (j < n && (text_[j] == ' ' || text_[j] == '\t' || text_[j] == '\f')) ++j;
            take(0, j);
            continue;
        }
        if (c == '\\') {  // CONTINUE, skipped; a lone '\' is ERRCHAR
            const std::size_t end = continuation_end(pos_);
            if (end == pos_) return take(RecParser::ERRCHAR, pos_ + 1);
            take(0, end);
            continue;
        }
        if (c == '#') {  // COMMENT, on the hidden channel
            std::size_t j = pos_ + 1;
            while (j < n && text_[j] != '\n' && text_[j] != '\r') ++j;
            return take(RecParser::COMMENT, j, true);
        }
        if (c == '\n') return take(RecParser::NEWLINE, pos_ + 1);
        if (c == '\r') return take(RecParser::NEWLINE, pos_ + 1 < n && text_[pos_ + 1] == '\n' ? pos_ + 2 : pos_ + 1);
        if (is_digit(c) || c == '.') {
            std::size_t type = 0;
            const std::size_t end = number_end(pos_, type);
            if (c == '.' && text_.substr(pos_, 3) == "..." && end < pos_ + 3)
                return take(literal_type("..."), pos_ + 3);
            if (end > pos_) return take(type, end);
            return take(RecParser::ERRCHAR, pos_ + 1);  // a '.' alone
        }
        if (is_name_start(c)) {
            std::size_t j = pos_ + 1;
            while (j < n && is_name_char(text_[j])) ++j;
            const std::string_view word = text_.substr(pos_, j - pos_);
            if (j < n && (text_[j] == '\'' || text_[j] == '"') && is_string_prefix(word)) {
                const std::size_t end = string_end(j);
                if (end > j) return take(RecParser::STRING, end);
            }
            const auto& words = token_types().words;
            const auto keyword = words.find(word);
            return take(keyword != words.end() ? keyword->second : std::size_t{RecParser::NAME}, j);
        }
        if (c == '\'' || c == '"') {
            const std::size_t end = string_end(pos_);
            return take(end > pos_ ? std::size_t{RecParser::STRING} : std::size_t{RecParser::ERRCHAR},
                        end > pos_ ? end : pos_ + 1);
        }
        const auto& symbols = token_types().symbols;
        for (std::size_t length : {2, 1}) {  // '...' starts with '.', above
            if (pos_ + length > n) continue;
            const auto symbol = symbols.find(text_.substr(pos_, length));
            if (symbol != symbols.end()) return take(symbol->second, pos_ + length);
        }
        // A character the language does not have: one token, one character.
        return take(RecParser::ERRCHAR, pos_ + std::max<std::size_t>(utf8_length(text_, pos_), 1));
    }
}

}  // namespace oprec
