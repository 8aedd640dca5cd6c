// Checks of option values the commands share, in the commands' words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace oprec::cli {

// The whole number `text` states, at least `least` and within 64 bits;
// else std::invalid_argument: "--OPTION TEXT: expected a whole number, at
// least 1" (or "... is beyond 64 bits"). `option` without its dashes.
std::int64_t parse_whole(const std::string& text, std::string_view option, std::int64_t least);

// A list option's items, each text split at its commas: "1,2" and
// repeated options alike. An empty item ("1,,2", "") is refused:
// std::invalid_argument "--OPTION TEXT: an empty value" (CLI11's own split
// dropped it without a word). `option` without its dashes.
std::vector<std::string> list_items(const std::vector<std::string>& texts, std::string_view option);

// A list option's values, each once, in the order first given: `--tp 1,1,2`
// once swept tp=1 twice, the same rows in the table twice.
template <class T, class Same>
void drop_repeats(std::vector<T>& values, Same same) {
    std::vector<T> once;
    for (T& v : values)
        if (std::none_of(once.begin(), once.end(), [&](const T& kept) { return same(kept, v); }))
            once.push_back(std::move(v));
    values = std::move(once);
}
template <class T>
void drop_repeats(std::vector<T>& values) {
    drop_repeats(values, [](const T& a, const T& b) { return a == b; });
}

// The same as a CLI11 check: CLI11's own clamp a larger number and print
// their bounds as 300-digit floats.
CLI::Validator whole_number(std::int64_t least);

// A value that is not empty: `--plot ""` or `--budget ""` once did nothing
// (no chart; the activations-only sweep) without a word.
CLI::Validator not_empty();

}  // namespace oprec::cli
