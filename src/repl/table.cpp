#include "repl/table.h"

#include <algorithm>

namespace oprec::repl {

namespace {
// Display width: UTF-8 continuation bytes take no column.
std::size_t width(const std::string& s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
}  // namespace

std::string Table::render(std::size_t indent) const {
    std::vector<std::size_t> widths;
    for (const auto& r : rows_) {
        if (widths.size() < r.size()) widths.resize(r.size(), 0);
        for (std::size_t i = 0; i < r.size(); ++i) widths[i] = std::max(widths[i], width(r[i]));
    }
    std::string out;
    for (const auto& r : rows_) {
        std::string line(indent, ' ');
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (i > 0) line += "  ";
            const std::size_t pad = widths[i] - width(r[i]);
            const bool right = i < right_.size() && right_[i];
            if (right) line.append(pad, ' ');
            line += r[i];
            if (!right) line.append(pad, ' ');
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + '\n';
    }
    return out;
}

}  // namespace oprec::repl
