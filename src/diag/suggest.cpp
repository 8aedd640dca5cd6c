#include "diag/suggest.h"

#include <algorithm>
#include <cctype>

namespace oprec {

// Damerau-Levenshtein (optimal string alignment): `hff_ex` is one edit from
// `hff_exp`, `hff_epx` one (a transposition).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t m = b.size();
    // Three rows are all the recurrence reads (i - 2 for a transposition).
    std::vector<std::size_t> before(m + 1), prev(m + 1), cur(m + 1);
    for (std::size_t j = 0; j <= m; ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                cur[j] = std::min(cur[j], before[j - 2] + 1);
        }
        std::swap(before, prev);
        std::swap(prev, cur);
    }
    return prev[m];
}

std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates) {
    std::optional<std::string> best;
    std::size_t best_distance = 0;
    // A third of the name, at least one edit and at most three.
    const std::size_t limit = std::clamp<std::size_t>(name.size() / 3, 1, 3);
    for (const std::string& c : candidates) {
        if (c == name) continue;
        // The lengths alone bound the distance from below: a long name costs
        // nothing to rule out.
        const std::size_t apart = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
        if (apart > limit) continue;
        std::size_t dist = edit_distance(name, c);
        if (dist <= limit && (!best || dist < best_distance)) {
            best = c;
            best_distance = dist;
        }
    }
    return best;
}

}  // namespace oprec
