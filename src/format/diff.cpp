#include "format/diff.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace oprec::format {

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::size_t from = 0;
    while (from < text.size()) {
        std::size_t nl = text.find('\n', from);
        if (nl == std::string::npos) nl = text.size();
        lines.push_back(text.substr(from, nl - from));
        from = nl + 1;
    }
    return lines;
}

}  // namespace

std::string unified_diff(const std::string& before, const std::string& after, const std::string& name, int context) {
    if (before == after) return "";
    const std::vector<std::string> a = lines_of(before), b = lines_of(after);
    // The longest common subsequence, by table: records files are small.
    const std::size_t n = a.size(), m = b.size();
    std::vector<std::vector<std::uint32_t>> lcs(n + 1, std::vector<std::uint32_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    struct Edit {
        char op;  // ' ', '-', '+'
        std::size_t i, j;  // lines of a and b before it
    };
    std::vector<Edit> edits;
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[i] == b[j]) edits.push_back({' ', i++, j++});
        else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) edits.push_back({'-', i++, j});
        else edits.push_back({'+', i, j++});
    }
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
            body += e.op + (e.op == '+' ? b[e.j] : a[e.i]) + "\n";
        }
        out += fmt::format("@@ -{},{} +{},{} @@\n", edits[begin].i + (a_count ? 1 : 0), a_count,
                           edits[begin].j + (b_count ? 1 : 0), b_count);
        out += body;
        c = last + 1;
    }
    return out;
}

}  // namespace oprec::format
