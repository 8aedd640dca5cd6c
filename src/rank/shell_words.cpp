#include "rank/shell_words.h"

#include <cctype>
#include <map>
#include <optional>

#include <fmt/format.h>

namespace oprec::rank {

namespace {

enum class Kind { word, separator, open_paren, close_paren };

struct Token {
    Kind kind = Kind::word;
    Word word;
    bool glued_to_previous = false;  // no blank between it and the token before
};

// Walks the text one character at a time, keeping the line and column.
class Scanner {
public:
    Scanner(std::string_view text, const std::string& source) : text_(text), source_(source) {}

    std::vector<Token> tokens() {
        std::vector<Token> out;
        bool blank_before = true;
        while (!at_end()) {
            const char c = peek();
            if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {  // a continuation joins the lines
                advance();
                if (peek() == '\r') advance();  // a script saved with Windows line ends
                advance();
                continue;
            }
            if (c == ' ' || c == '\t' || c == '\r') {
                advance();
                blank_before = true;
                continue;
            }
            if (c == '#') {  // a comment runs to the end of the line
                while (!at_end() && peek() != '\n') advance();
                continue;
            }
            Token t;
            t.glued_to_previous = !blank_before && !out.empty();
            t.word.line = line_;
            t.word.col = col_;
            if (c == '\n' || c == ';' || c == '|' || c == '&') {
                t.kind = Kind::separator;
                t.word.text = std::string(1, c);
                advance();
                if ((c == '|' || c == '&') && !at_end() && peek() == c) advance();
            } else if (c == '(' || c == ')') {
                t.kind = c == '(' ? Kind::open_paren : Kind::close_paren;
                t.word.text = std::string(1, c);
                advance();
            } else {
                t.word.text = word();
            }
            out.push_back(std::move(t));
            blank_before = false;
        }
        return out;
    }

private:
    bool at_end() const { return pos_ >= text_.size(); }
    char peek(std::size_t ahead = 0) const { return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0'; }
    char advance() {
        const char c = text_[pos_++];
        if (c == '\n') {
            ++line_;
            col_ = 1;
        } else {
            ++col_;
        }
        return c;
    }

    // One word up to an unquoted blank or operator, quotes removed.
    std::string word() {
        std::string out;
        while (!at_end()) {
            const char c = peek();
            // `2>&1` keeps its `&`: a redirection, not a separator.
            const bool redirect = c == '&' && !out.empty() && (out.back() == '>' || out.back() == '<');
            if (!redirect && (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' || c == '|' || c == '&' ||
                              c == '(' || c == ')'))
                break;
            if (c == '\\') {
                advance();
                if (at_end()) break;
                if (peek() == '\n' || (peek() == '\r' && peek(1) == '\n')) {
                    if (peek() == '\r') advance();
                    advance();
                    continue;
                }
                out += advance();
            } else if (c == '\'') {
                const int line = line_, col = col_;
                advance();
                while (!at_end() && peek() != '\'') out += advance();
                if (at_end()) unclosed('\'', line, col);
                advance();
            } else if (c == '"') {
                const int line = line_, col = col_;
                advance();
                while (!at_end() && peek() != '"') {
                    if (peek() == '\\') {
                        const char next = peek(1);
                        if (next == '\n') {
                            advance();
                            advance();
                            continue;
                        }
                        if (next == '"' || next == '\\' || next == '$' || next == '`') {
                            advance();
                            out += advance();
                            continue;
                        }
                    }
                    out += advance();
                }
                if (at_end()) unclosed('"', line, col);
                advance();
            } else if (c == '$' && peek(1) == '{') {  // keep ${...} whole, it may hold blanks
                while (!at_end() && peek() != '}') out += advance();
                if (!at_end()) out += advance();
            } else {
                out += advance();
            }
        }
        return out;
    }

    [[noreturn]] void unclosed(char quote, int line, int col) const {
        throw ShellError(fmt::format("{}:{}:{}: the quote {} opened here is never closed", source_, line, col,
                                     quote == '\'' ? "'" : "\""));
    }

    std::string_view text_;
    const std::string& source_;
    std::size_t pos_ = 0;
    int line_ = 1;
    int col_ = 1;
};

bool is_name(std::string_view s) {
    if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    for (char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

// "${NAME[@]}" or "${NAME[*]}" -> NAME.
std::optional<std::string> array_reference(const std::string& text) {
    if (text.size() < 7 || text.rfind("${", 0) != 0 || text.back() != '}') return std::nullopt;
    const std::string inner = text.substr(2, text.size() - 3);
    if (inner.size() < 4) return std::nullopt;
    const std::string tail = inner.substr(inner.size() - 3);
    if (tail != "[@]" && tail != "[*]") return std::nullopt;
    std::string name = inner.substr(0, inner.size() - 3);
    if (!is_name(name)) return std::nullopt;
    return name;
}

}  // namespace

std::vector<Command> split_commands(std::string_view text, const std::string& source) {
    const std::vector<Token> tokens = Scanner(text, source).tokens();
    std::map<std::string, std::vector<Word>> arrays;
    std::vector<Command> commands;
    Command current;
    auto finish = [&] {
        if (!current.empty()) commands.push_back(std::move(current));
        current.clear();
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const Token& t = tokens[i];
        if (t.kind == Kind::separator) {
            finish();
            continue;
        }
        // NAME=( words ) : a bash array, kept for later ${NAME[@]}.
        if (t.kind == Kind::word && t.word.text.size() > 1 && t.word.text.back() == '=' &&
            is_name(std::string_view(t.word.text).substr(0, t.word.text.size() - 1)) && i + 1 < tokens.size() &&
            tokens[i + 1].kind == Kind::open_paren && tokens[i + 1].glued_to_previous) {
            std::vector<Word> items;
            std::size_t j = i + 2;
            for (; j < tokens.size() && tokens[j].kind != Kind::close_paren; ++j)
                if (tokens[j].kind == Kind::word) items.push_back(tokens[j].word);
            if (j == tokens.size())
                throw ShellError(fmt::format("{}:{}:{}: the array `{}` opened here is never closed with `)`", source,
                                             t.word.line, t.word.col, t.word.text.substr(0, t.word.text.size() - 1)));
            arrays[t.word.text.substr(0, t.word.text.size() - 1)] = std::move(items);
            i = j;
            continue;
        }
        if (t.kind != Kind::word) {  // a subshell's parentheses: their words still count
            continue;
        }
        if (auto name = array_reference(t.word.text)) {
            if (auto found = arrays.find(*name); found != arrays.end()) {
                current.insert(current.end(), found->second.begin(), found->second.end());
                continue;
            }
        }
        current.push_back(t.word);
    }
    finish();
    return commands;
}

}  // namespace oprec::rank
