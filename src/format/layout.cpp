#include "format/layout.h"

#include <algorithm>
#include <set>

#include "diag/source.h"

namespace oprec::format {

namespace {

bool is_open(const std::string& t) { return t == "(" || t == "["; }
bool is_close(const std::string& t) { return t == ")" || t == "]"; }
bool is_word(const std::string& t) { return !t.empty() && (std::isalpha(static_cast<unsigned char>(t[0])) || t[0] == '_'); }
std::string spaces(std::size_t n) { return std::string(n, ' '); }

// One logical line: a declaration, a block's entry or brace, or a comment
// alone; newlines inside brackets (or after a count list's comma) are its items.
struct Logical {
    std::vector<Tok> items;
    bool blank_before = false;
};

const Tok* first_code(const std::vector<Tok>& items) {
    for (const Tok& t : items)
        if (t.kind == TokKind::Code) return &t;
    return nullptr;
}
const Tok* last_code(const std::vector<Tok>& items) {
    for (auto it = items.rbegin(); it != items.rend(); ++it)
        if (it->kind == TokKind::Code) return &*it;
    return nullptr;
}

std::vector<Logical> logical_lines(const std::vector<Tok>& tokens) {
    std::vector<Logical> lines;
    Logical cur;
    int depth = 0;
    int newlines = 0;  // since the last logical line ended
    const Tok* last = nullptr;  // cur's last code token: kept, not searched for (a million newlines in brackets)
    auto end = [&] {
        if (!cur.items.empty()) lines.push_back(std::move(cur));
        cur = {};
        last = nullptr;
    };
    for (const Tok& t : tokens) {
        if (t.kind == TokKind::Newline) {
            if (depth > 0 || (last != nullptr && last->text == ",")) {
                cur.items.push_back(t);
            } else if (!cur.items.empty()) {
                end();
                newlines = 1;
            } else {
                ++newlines;
            }
            continue;
        }
        if (cur.items.empty()) cur.blank_before = newlines >= 2;
        if (t.kind == TokKind::Code && t.text == "}" && depth == 0) end();
        cur.items.push_back(t);
        if (t.kind != TokKind::Code) continue;
        last = &t;
        if (is_open(t.text)) ++depth;
        if (is_close(t.text)) depth = std::max(depth - 1, 0);
        if (t.text == "{" && depth == 0) {
            end();
            newlines = 0;
        }
    }
    end();
    return lines;
}

// The text between two tokens on one output line: it depends on the tokens
// only, never on how they were spaced, so the output is canonical.
std::string gap(const Tok& p, bool p_unary, const Tok& t) {
    const std::string& a = p.text;
    const std::string& b = t.text;
    if (is_close(b) || b == "," || b == "?") return "";
    if (is_open(a) || p_unary) return "";
    if (is_open(b)) return p.operand && is_word(a) ? "" : " ";  // a call, a fn's parameters
    return " ";
}

struct Rendered {
    std::vector<std::string> lines;
    std::vector<std::size_t> cols;  // per item: its column on its line
};

// Lays out one logical line as its items say: a newline item breaks it.
Rendered render(const std::vector<Tok>& items, std::size_t indent) {
    struct Open {
        std::size_t line_indent;
        std::size_t col;
        bool hanging;
    };
    Rendered r;
    r.cols.resize(items.size());
    std::vector<Open> opens;
    std::string cur;
    std::size_t width = 0;  // cur's columns, kept as it grows: counting them each token was quadratic
    std::size_t cur_indent = indent;
    bool open_line = false, last_was_open = false, prev_unary = false;
    const Tok* prev = nullptr;     // the previous code token of the logical line
    const Tok* on_line = nullptr;  // the previous token of this output line
    auto start = [&](bool closing) {
        std::size_t ind = r.lines.empty() ? indent : indent + 4;  // a count list's next line
        if (!opens.empty()) {
            const Open& b = opens.back();
            ind = closing ? (b.hanging ? b.line_indent : b.col) : (b.hanging ? b.line_indent + 4 : b.col + 1);
        }
        cur = spaces(ind);
        width = ind;
        cur_indent = ind;
        open_line = true;
    };
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Tok& t = items[i];
        if (t.kind == TokKind::Newline) {
            if (open_line) {
                if (last_was_open && !opens.empty()) opens.back().hanging = true;
                while (!cur.empty() && cur.back() == ' ') cur.pop_back(), --width;
                r.lines.push_back(std::move(cur));
                cur.clear();
                width = 0;
                open_line = false;
                on_line = nullptr;
                last_was_open = false;
            }
            continue;
        }
        if (t.kind == TokKind::Comment) {
            if (open_line) {
                cur += spaces(2);  // canonical: how the input was spaced says nothing
                width += 2;
            } else {
                start(false);
            }
            r.cols[i] = width;
            cur += t.text;
            width += t.len;
            on_line = &t;
            continue;
        }
        const bool unary = (t.text == "-" || t.text == "+") && (prev == nullptr || !prev->operand);
        if (!open_line) start(is_close(t.text));
        else if (on_line != nullptr) {
            const std::string g = on_line->kind == TokKind::Code ? gap(*on_line, prev_unary, t) : " ";
            cur += g;
            width += g.size();  // blanks only
        }
        r.cols[i] = width;
        cur += t.text;
        width += t.len;
        if (is_open(t.text)) opens.push_back({cur_indent, r.cols[i], false});
        if (is_close(t.text) && !opens.empty()) opens.pop_back();
        last_was_open = is_open(t.text);
        prev = &t;
        prev_unary = unary;
        on_line = &t;
    }
    if (open_line) {
        while (!cur.empty() && cur.back() == ' ') cur.pop_back();
        r.lines.push_back(std::move(cur));
    }
    return r;
}

// Breaking a formula too long for its line, at its loosest operators.
class Breaker {
public:
    Breaker(const std::vector<Tok>& toks, const std::vector<std::size_t>& cols, std::size_t width)
        : toks_(toks), cols_(cols), width_(width) {}

    // [b, e) starting at column `start`, its next lines at `indent`.
    void split(std::size_t b, std::size_t e, std::size_t start, std::size_t indent) {
        if (b >= e || start + (cols_[e - 1] + toks_[e - 1].len - cols_[b]) <= width_) return;
        int best = 99;
        std::vector<std::size_t> at;  // where a piece starts
        std::size_t group_o = 0, group_c = 0;  // the widest bracket group at this level
        int depth = 0;
        std::size_t open_at = 0;
        for (std::size_t i = b; i < e; ++i) {
            const std::string& t = toks_[i].text;
            if (is_open(t)) {
                if (depth++ == 0) open_at = i;
                continue;
            }
            if (is_close(t)) {
                if (--depth == 0 && i - open_at > group_c - group_o) group_o = open_at, group_c = i;
                continue;
            }
            if (depth != 0 || i == b) continue;
            const int c = level(i);
            if (c == 0 || c > best) continue;
            // A break after the range's last token splits nothing: taken,
            // the same range came back for ever (`(x if c else d)` at an
            // indent past the width).
            const std::size_t point = t == "else" ? i + 1 : i;
            if (point >= e) continue;
            if (c < best) at.clear(), best = c;
            at.push_back(point);
        }
        if (best <= 5) {
            pieces(b, e, start, indent, at);
        } else if (best == 6) {
            fill(b, e, start, indent, at);
        } else if (group_c > group_o + 1) {  // one term: break inside its widest brackets
            const std::size_t col = start + cols_[group_o] - cols_[b];
            split(group_o + 1, group_c, col + 1, col + 1);
        }
    }

    std::set<std::size_t> breaks;  // a newline before each of these tokens

private:
    // 1 if/else, 2 or, 3 and, 4 comparison, 5 + -, 6 * / // %; 0 no break here.
    int level(std::size_t i) const {
        const std::string& t = toks_[i].text;
        if (t == "if" || t == "else") return 1;
        if (t == "or") return 2;
        if (t == "and") return 3;
        if (t == "<" || t == ">" || t == "==" || t == ">=" || t == "<=" || t == "!=") return 4;
        if ((t == "+" || t == "-") && toks_[i - 1].operand) return 5;
        if (t == "*" || t == "/" || t == "//" || t == "%") return 6;
        return 0;
    }

    // One piece a line.
    void pieces(std::size_t b, std::size_t e, std::size_t start, std::size_t indent, const std::vector<std::size_t>& at) {
        std::size_t from = b;
        for (std::size_t k = 0; k <= at.size(); ++k) {
            const std::size_t to = k < at.size() ? at[k] : e;
            if (to <= from) continue;
            if (from != b) breaks.insert(from);
            split(from, to, from == b ? start : indent, indent);
            from = to;
        }
    }

    // As many pieces a line as fit.
    void fill(std::size_t b, std::size_t e, std::size_t start, std::size_t indent, const std::vector<std::size_t>& at) {
        std::size_t line_from = b, col = start;
        for (std::size_t k = 0; k <= at.size(); ++k) {
            const std::size_t to = k < at.size() ? at[k] : e;
            if (col + cols_[to - 1] + toks_[to - 1].len - cols_[line_from] > width_ && k > 0 && at[k - 1] > line_from) {
                split(line_from, at[k - 1], col, indent);
                line_from = at[k - 1];
                breaks.insert(line_from);
                col = indent;
            }
        }
        split(line_from, e, col, indent);
    }

    const std::vector<Tok>& toks_;
    const std::vector<std::size_t>& cols_;
    std::size_t width_;
};

// A line `NAME = FORMULA` (an entry, a default, a fn, a setting) too long:
// the formula in parentheses, a line each, broken as it needs.
std::vector<Tok> broken(std::vector<Tok> toks, std::size_t indent, std::size_t width) {
    std::size_t eq = toks.size(), depth = 0;
    for (std::size_t i = 0; i < toks.size() && eq == toks.size(); ++i) {
        if (is_open(toks[i].text)) ++depth;
        if (is_close(toks[i].text)) --depth;
        if (depth == 0 && toks[i].text == "=") eq = i;
    }
    if (eq + 1 >= toks.size() || toks.front().text == "kind") return toks;
    // The formula ends where a setting's `matches` list begins: that list
    // cannot be broken (a newline ends the setting), so it stays after the
    // closing parenthesis. `matches` after an operand is the keyword; after
    // an operator it is a name in the formula.
    std::size_t end = toks.size();
    depth = 0;
    for (std::size_t i = eq + 1; i < toks.size() && end == toks.size(); ++i) {
        if (is_open(toks[i].text)) ++depth;
        if (is_close(toks[i].text)) --depth;
        if (depth == 0 && i > eq + 1 && toks[i].text == "matches" && toks[i - 1].operand) end = i;
    }
    // Already in parentheses, from `=` to the formula's end?
    bool wrapped = toks[eq + 1].text == "(";
    depth = 0;
    for (std::size_t i = eq + 1; wrapped && i < end; ++i) {
        if (is_open(toks[i].text)) ++depth;
        if (is_close(toks[i].text) && --depth == 0 && i + 1 != end) wrapped = false;
    }
    if (!wrapped) {
        toks.insert(toks.begin() + static_cast<std::ptrdiff_t>(end), Tok{TokKind::Code, true, ")", 0, 0, 1});
        toks.insert(toks.begin() + static_cast<std::ptrdiff_t>(eq + 1), Tok{TokKind::Code, false, "(", 0, 0, 1});
        end += 2;
    }
    const Rendered one = render(toks, indent);
    Breaker breaker(toks, one.cols, width);
    breaker.breaks = {eq + 2, end - 1};
    breaker.split(eq + 2, end - 1, indent + 4, indent + 4);
    std::vector<Tok> out;
    for (std::size_t i = 0; i < toks.size(); ++i) {
        if (breaker.breaks.contains(i)) out.push_back(Tok{TokKind::Newline, false, "\n", 0, 0, 0});
        out.push_back(toks[i]);
    }
    return out;
}

}  // namespace

std::string lay_out(const std::vector<Tok>& tokens, std::size_t line_width) {
    std::vector<std::string> out;
    int braces = 0;
    for (const Logical& l : logical_lines(tokens)) {
        const Tok* first = first_code(l.items);
        const Tok* last = last_code(l.items);
        const bool closing = first != nullptr && first->text == "}";
        if (closing) braces = std::max(braces - 1, 0);
        if (l.blank_before && !out.empty() && !closing && !out.back().ends_with("{")) out.emplace_back();
        const std::size_t indent = static_cast<std::size_t>(braces) * 4;
        Rendered r = render(l.items, indent);
        const bool plain = std::none_of(l.items.begin(), l.items.end(), [](const Tok& t) { return t.kind != TokKind::Code; });
        if (plain && r.lines.size() == 1 && column_count(r.lines[0]) > line_width)
            r = render(broken(l.items, indent, line_width), indent);
        out.insert(out.end(), r.lines.begin(), r.lines.end());
        if (last != nullptr && last->text == "{") ++braces;
    }
    std::string text;
    for (const std::string& line : out) text += line + "\n";
    return text;
}

}  // namespace oprec::format
