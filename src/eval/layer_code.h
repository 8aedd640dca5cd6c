// Every slot of a program compiled into one straight-line run over a layer:
// each slot's `when` in the records' order, then each held slot's kept
// entries summed in order (Python's sum, from int 0) and its formula. It is
// price_layer's work, the same operations in the same order, in one run of
// the interpreter instead of one per expression. Its register form
// (register_code.h) is tried first; this run is the exact one, and the
// fallback.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/program.h"
#include "code/code.h"
#include "eval/register_code.h"

namespace oprec {

struct LayerCode {
    Code code;                        // the program's code, the layer's run appended
    std::uint32_t entry = kNoEntry;   // where the run starts; kNoEntry: an expression has no straight-line form
    std::size_t slot_count = 0;
    std::vector<std::uint32_t> slot_parts;  // by SlotId: its layer part (SlotInfo::layer_part)
    // The same run in registers, tried first where it can run (register_code.h).
    std::optional<RegisterCode> registers;

    // What a stretch of the run computes, for an error's context.
    enum class Phase : std::uint8_t { When, Entries, Formula };
    struct Region {
        std::uint32_t start;  // its first instruction
        SlotId slot;
        Phase phase;
    };
    std::vector<Region> regions;  // by start

    // "slot `qkv` formula", as price_slot and slot_holds name it, for the
    // instruction a run raised at.
    std::string context_at(const Program& program, std::uint32_t instr) const;
};

LayerCode compile_layer(const Program& program);

}  // namespace oprec
