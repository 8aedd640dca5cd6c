// The whole front end on one input, as the fuzz target runs it: load
// (parse, imports, checks), lint, and every output form. Throws
// std::logic_error where an invariant fails (the lexer and the grammar's
// disagree on a token, a code no table documents, a position outside its
// file); any other failure is a crash for the fuzzer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace oprec {

// Where src/syntax/lexer.h and the lexer ANTLR generates from the grammar's
// lexer rules (their definition, linked only here) disagree on `text`, the
// first token that differs, described; nothing where they agree or the text
// is not what the lexer takes (invalid UTF-8, a NUL, a lone CR: parse.cpp
// replaces those first).
std::optional<std::string> lexer_disagreement(std::string_view text);

}  // namespace oprec

namespace oprec::lint {

void exercise_front_end(std::string_view text);

}  // namespace oprec::lint
