// The defaults Megatron-LM derives from the stated flags (validate_args,
// the tokenizer's padding, the pipeline split), and the sizes it refuses.
// Internal to the rank stage.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rank/megatron_args.h"
#include "rank/megatron_flags.h"

namespace oprec::rank::detail {

// Fills out.args' derived fields and out.notes; throws MegatronArgsError
// naming the flag (and its line:col) at fault.
void derive(ParsedArgs& out, const Stated& stated);

// "([0]*3+[1]*13)" -> 0,0,0,1,...: the list expressions --moe-layer-freq
// takes (ints, lists, +, *, parentheses; what Megatron's _eval_pattern
// admits). Throws MegatronArgsError with `where` for anything else.
std::vector<int> eval_pattern(const std::string& text, const std::string& where);

// "Et*3|(tt|)*6tmL" -> one string per virtual stage ("Ettt", "tt", ...):
// --pipeline-model-parallel-layout with repetitions and groups expanded.
std::vector<std::string> expand_layout(const std::string& text, const std::string& where);

}  // namespace oprec::rank::detail
