// Plain text tables: columns as wide as their widest cell, two spaces apart,
// numbers right-aligned.
#pragma once

#include <string>
#include <vector>

namespace oprec::repl {

class Table {
public:
    // `right[i]`: column i is right-aligned.
    explicit Table(std::vector<bool> right) : right_(std::move(right)) {}
    void row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
    // Each row indented by `indent` spaces, without trailing spaces.
    std::string render(std::size_t indent = 2) const;

private:
    std::vector<bool> right_;
    std::vector<std::vector<std::string>> rows_;
};

}  // namespace oprec::repl
