// Editing register code, for the passes over it (the compiler's peepholes,
// specialise, pin_branches, fuse_pairs): what an instruction reads, where
// jumps land, and dropping instructions.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "eval/register_code.h"

namespace oprec {

// Where the typed forms start: OPREC_TYPED_BASES' four each, then the rest.
inline constexpr int kFirstTyped = static_cast<int>(rop_detail::kUntyped);

// Which of an instruction's fields name cells it reads (kReadsX, ...):
// rop_info's reads, less the value before, which is not a cell.
constexpr unsigned fields_read(const RInstr& in) {
    return rop_info(in.op).reads & (kReadsX | kReadsY | kReadsZ | kReadsDst);
}

// The cells an instruction reads, into `out`; how many (at most three).
int cells_read(const RInstr& in, std::array<std::uint16_t, 3>& out);

// How many times each of `cells` cells is read, over all the instructions.
std::vector<std::uint32_t> read_counts(const RegisterCode& code, std::uint32_t cells);

// How many jumps land on each instruction (one past the last too).
std::vector<std::uint32_t> landing_counts(const std::vector<RInstr>& code);

// Removes the instructions `gone` marks (by index); a jump to one lands on
// the next kept. The caller knows that what they did is not needed.
void drop_instructions(std::vector<RInstr>& code, const std::vector<std::uint8_t>& gone);

}  // namespace oprec
