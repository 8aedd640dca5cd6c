#include "format/diff.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace oprec::format {

namespace {

// A text's lines, and whether its last one lacks a newline (which a
// unified diff marks, and which makes the line differ from one that has it).
struct Lines {
    std::vector<std::string> lines;
    bool last_open = false;

    explicit Lines(const std::string& text) {
        std::size_t from = 0;
        while (from < text.size()) {
            std::size_t nl = text.find('\n', from);
            if (nl == std::string::npos) nl = text.size();
            lines.push_back(text.substr(from, nl - from));
            from = nl + 1;
        }
        last_open = !text.empty() && text.back() != '\n';
    }
    std::size_t size() const { return lines.size(); }
    bool open_at(std::size_t k) const { return last_open && k + 1 == lines.size(); }
};

// The table of longest common subsequences costs the product of the two
// lengths: past this many cells, the lines between the common head and
// tail are shown as removed, then added (a correct diff, not the least).
constexpr std::size_t kMaxTableCells = std::size_t{1} << 22;

struct Edit {
    char op;           // ' ', '-', '+'
    std::size_t i, j;  // lines of a and b before it
};

std::vector<Edit> edits_of(const Lines& a, const Lines& b) {
    const auto same = [&](std::size_t i, std::size_t j) {
        return a.lines[i] == b.lines[j] && a.open_at(i) == b.open_at(j);
    };
    const std::size_t n = a.size(), m = b.size();
    std::size_t head = 0;
    while (head < n && head < m && same(head, head)) ++head;
    std::size_t tail = 0;
    while (tail < n - head && tail < m - head && same(n - 1 - tail, m - 1 - tail)) ++tail;
    const std::size_t rows = n - head - tail, cols = m - head - tail;
    std::vector<Edit> edits;
    for (std::size_t k = 0; k < head; ++k) edits.push_back({' ', k, k});
    if (rows != 0 && cols != 0 && (rows + 1) * (cols + 1) <= kMaxTableCells) {
        // lcs[r][c]: the longest common subsequence of the middles from row r and column c.
        std::vector<std::uint32_t> lcs((rows + 1) * (cols + 1), 0);
        const auto at = [&](std::size_t r, std::size_t c) -> std::uint32_t& { return lcs[r * (cols + 1) + c]; };
        for (std::size_t r = rows; r-- > 0;)
            for (std::size_t c = cols; c-- > 0;)
                at(r, c) = same(head + r, head + c) ? at(r + 1, c + 1) + 1 : std::max(at(r + 1, c), at(r, c + 1));
        std::size_t r = 0, c = 0;
        while (r < rows || c < cols) {
            if (r < rows && c < cols && same(head + r, head + c)) edits.push_back({' ', head + r++, head + c++});
            else if (r < rows && (c == cols || at(r + 1, c) >= at(r, c + 1))) edits.push_back({'-', head + r++, head + c});
            else edits.push_back({'+', head + r, head + c++});
        }
    } else {
        for (std::size_t r = 0; r < rows; ++r) edits.push_back({'-', head + r, head});
        for (std::size_t c = 0; c < cols; ++c) edits.push_back({'+', head + rows, head + c});
    }
    for (std::size_t k = 0; k < tail; ++k) edits.push_back({' ', n - tail + k, m - tail + k});
    return edits;
}

}  // namespace

std::string unified_diff(const std::string& before, const std::string& after, const std::string& name, int context) {
    if (before == after) return "";
    const Lines a(before), b(after);
    const std::vector<Edit> edits = edits_of(a, b);
    std::string out = fmt::format("--- {}\n+++ {} (formatted)\n", name, name);
    // Hunks: changes closer than twice the context share one.
    const auto ctx = static_cast<std::size_t>(context);
    std::vector<std::size_t> changes;
    for (std::size_t k = 0; k < edits.size(); ++k)
        if (edits[k].op != ' ') changes.push_back(k);
    for (std::size_t c = 0; c < changes.size();) {
        std::size_t last = c;
        while (last + 1 < changes.size() && changes[last + 1] - changes[last] <= 2 * ctx + 1) ++last;
        const std::size_t begin = changes[c] >= ctx ? changes[c] - ctx : 0;
        const std::size_t end = std::min(edits.size(), changes[last] + ctx + 1);
        std::size_t a_count = 0, b_count = 0;
        std::string body;
        for (std::size_t t = begin; t < end; ++t) {
            const Edit& e = edits[t];
            if (e.op != '+') ++a_count;
            if (e.op != '-') ++b_count;
            body += e.op + (e.op == '+' ? b.lines[e.j] : a.lines[e.i]) + "\n";
            if (e.op == '+' ? b.open_at(e.j) : a.open_at(e.i)) body += "\\ No newline at end of file\n";
        }
        out += fmt::format("@@ -{},{} +{},{} @@\n", edits[begin].i + (a_count ? 1 : 0), a_count,
                           edits[begin].j + (b_count ? 1 : 0), b_count);
        out += body;
        c = last + 1;
    }
    return out;
}

}  // namespace oprec::format
