// The whole front end on one input, as the fuzz target runs it: load
// (parse, imports, checks), lint, and every output form. Throws
// std::logic_error where an invariant fails (the scanner and ANTLR's lexer
// disagree on a token, a code no table documents, a position outside its
// file); any other failure is a crash for the fuzzer.
#pragma once

#include <string_view>

namespace oprec::lint {

void exercise_front_end(std::string_view text);

}  // namespace oprec::lint
