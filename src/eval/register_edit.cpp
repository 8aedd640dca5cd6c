// What an instruction reads (rop_info, register_code.h); dropping
// instructions.
#include "eval/register_edit.h"

#include <cstddef>
#include <iterator>

namespace oprec {

int cells_read(const RInstr& in, std::array<std::uint16_t, 3>& out) {
    const unsigned fields = fields_read(in);
    int n = 0;
    if (fields & kReadsDst) out[static_cast<std::size_t>(n++)] = in.dst;
    if (fields & kReadsX) out[static_cast<std::size_t>(n++)] = in.x;
    if (fields & kReadsY) out[static_cast<std::size_t>(n++)] = in.y;
    if (fields & kReadsZ) out[static_cast<std::size_t>(n++)] = in.z;
    return n;
}

std::vector<std::uint32_t> read_counts(const RegisterCode& code, std::uint32_t cells) {
    std::vector<std::uint32_t> reads(cells, 0);
    for (const RInstr& in : code.instrs) {
        std::array<std::uint16_t, 3> read{};
        const int n = cells_read(in, read);
        for (int k = 0; k < n; ++k) ++reads[read[static_cast<std::size_t>(k)]];
    }
    return reads;
}

std::vector<std::uint32_t> landing_counts(const std::vector<RInstr>& code) {
    std::vector<std::uint32_t> landings(code.size() + 1, 0);
    for (const RInstr& in : code)
        if (jumps(in.op)) ++landings[in.dst];
    return landings;
}

void drop_instructions(std::vector<RInstr>& code, const std::vector<std::uint8_t>& gone) {
    // Where each instruction goes: after the ones kept before it. A jump to
    // a dropped one lands on the next kept.
    std::vector<std::uint16_t> to(code.size() + 1);
    std::size_t kept = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        to[i] = static_cast<std::uint16_t>(kept);
        if (!gone[i]) ++kept;
    }
    to[code.size()] = static_cast<std::uint16_t>(kept);
    std::size_t next = 0;
    for (std::size_t i = 0; i < code.size(); ++i) {
        if (gone[i]) continue;
        RInstr in = code[i];
        if (jumps(in.op)) in.dst = to[in.dst];
        code[next++] = in;
    }
    code.resize(next);
}

}  // namespace oprec
