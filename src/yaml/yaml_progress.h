// yaml-cpp 0.7 (Debian's) never returns from a document with a `,` where a
// node starts outside a flow collection (`,` alone, `- a` then `,`, `[a],`):
// its parser emits the same empty node for ever without consuming the token,
// growing memory until the process dies. Before the records are loaded,
// a first pass of the same parser counts its events and stops at a budget
// proportional to the text, which every well-formed document stays far
// under (the shipped records: 231 events over 5,686 bytes).
#pragma once

#include <optional>
#include <string_view>

#include <yaml-cpp/mark.h>

namespace oprec::yaml {

// Where yaml-cpp would loop for ever on `text`, or nothing when it does not
// (a syntax error is left to the load, which reports it).
std::optional<YAML::Mark> where_parser_stalls(std::string_view text);

}  // namespace oprec::yaml
