// The forward data-flow walk that specialise's typing (register_types.cpp)
// and pin_branches (register_pin.cpp) share. Register code only jumps
// forward, so one pass in order sees every path into an instruction
// before the instruction: each jump brings its state (what the walk knows
// of each place: a cell's type, a cell's value) to its target, where it
// is merged with the states other jumps brought and, if the instruction
// before falls through, with that one's. A pass keeps its own state and
// says what each instruction does to it; this keeps the states at the
// jumps' targets.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "eval/register_code.h"

namespace oprec {

// Cell: what the walk knows of one place. Merge: void(Cell* into, const
// Cell* from, std::size_t n), into[k] the join of into[k] and from[k].
template <class Cell, class Merge>
class ForwardFlow {
public:
    // False where the walk cannot follow the code: typed already (the
    // walks read untyped code only), a jump that is not forward, or more
    // than `max_places` places times targets (the states would cost more
    // than they are worth).
    bool start(const std::vector<RInstr>& instrs, std::size_t width, std::size_t max_places, Merge merge) {
        width_ = width;
        merge_ = merge;
        landing_.assign(instrs.size(), -1);
        std::size_t landings = 0;
        for (std::size_t i = 0; i < instrs.size(); ++i) {
            const RInstr& in = instrs[i];
            if (!is_untyped(in.op)) return false;
            if (!jumps(in.op)) continue;
            if (in.dst <= i || in.dst >= instrs.size()) return false;
            if (landing_[in.dst] < 0) landing_[in.dst] = static_cast<std::int32_t>(landings++);
        }
        if ((landings + 1) * width > max_places) return false;
        landed_.assign(landings * width, Cell{});
        any_landed_.assign(landings, 0);
        return true;
    }

    // A jump to `target` with the state `from` (width places).
    void bring(std::size_t target, const Cell* from) {
        const std::size_t at = static_cast<std::size_t>(landing_[target]);
        Cell* const into = landed_.data() + at * width_;
        if (any_landed_[at]) return merge_(into, from, width_);
        std::copy(from, from + width_, into);
        any_landed_[at] = 1;
    }

    enum class Arrival : std::uint8_t { FallsThrough, Joined, Unreached };
    // Instruction i: where jumps brought states to it, `state` becomes their
    // join, with itself where `live` (the instruction before falls through
    // to it): Joined. Else FallsThrough where `live`, Unreached where not
    // (no path gets here).
    Arrival arrive(std::size_t i, std::vector<Cell>& state, bool live) {
        if (landing_[i] >= 0 && any_landed_[static_cast<std::size_t>(landing_[i])]) {
            const Cell* const brought = landed_.data() + static_cast<std::size_t>(landing_[i]) * width_;
            if (live) merge_(state.data(), brought, width_);
            else std::copy(brought, brought + width_, state.begin());
            return Arrival::Joined;
        }
        return live ? Arrival::FallsThrough : Arrival::Unreached;
    }

private:
    std::size_t width_ = 0;
    Merge merge_{};
    std::vector<std::int32_t> landing_;    // by instruction: its place among the targets, or -1
    std::vector<Cell> landed_;             // each target's state, merged
    std::vector<std::uint8_t> any_landed_;  // by target: a jump has brought a state
};

// Whether an op ends the path it is on: the instruction after it is
// reached only by a jump (Jump, GiveUp, Return).
constexpr bool ends_path(ROp op) {
    return rop_info(op).jumps == RJumps::Always || rop_info(op).jumps == RJumps::End;
}

}  // namespace oprec
