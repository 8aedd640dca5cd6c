// Tab completion: what the word before the cursor may become, from the line's
// command: commands, slot, op, part, switch and field names, their values,
// file names after `load`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::repl {

struct Completion {
    std::size_t start = 0;                // where the word being completed begins in the text
    std::vector<std::string> candidates;  // sorted, each beginning with that word
    std::string suffix = " ";             // what follows a candidate that is the only one
};

Completion complete(const Records& records, const Layer& layer, std::string_view before_cursor);

// The longest text every candidate begins with.
std::string common_prefix(const std::vector<std::string>& candidates);

}  // namespace oprec::repl
