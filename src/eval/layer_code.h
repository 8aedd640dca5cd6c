// Every slot of a program compiled into one register run over a layer
// (register_code.h): each slot's `when` in the records' order, then each
// held slot's kept entries summed in order (Python's sum, from int 0) and
// its formula. It is price_layer's work, the same operations in the same
// order, in one run instead of one per expression.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "check/program.h"
#include "eval/register_code.h"

namespace oprec {

struct LayerCode {
    std::size_t slot_count = 0;
    std::vector<std::uint32_t> slot_parts;  // by SlotId: its layer part (SlotInfo::layer_part)
    // None where the program is beyond the register form's limits (more
    // than 65,535 cells or instructions, an expression nested past 200):
    // each expression's own code prices the layer then.
    std::optional<RegisterCode> registers;
};

LayerCode compile_layer(const Program& program);

}  // namespace oprec
