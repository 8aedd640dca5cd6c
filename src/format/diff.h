// A unified diff of two texts by lines, as `diff -u` writes it: for
// `oprec fmt --diff`.
#pragma once

#include <string>

namespace oprec::format {

// Empty when the texts are the same.
std::string unified_diff(const std::string& before, const std::string& after, const std::string& name,
                         int context = 3);

}  // namespace oprec::format
