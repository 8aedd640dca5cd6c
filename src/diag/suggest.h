// "Did you mean ...?": the closest known name by edit distance.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace oprec {

std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate nearest `name`, if one is near enough to be a likely typo.
std::optional<std::string> closest_name(std::string_view name, const std::vector<std::string>& candidates);

}  // namespace oprec
