#include "eval/layer_code.h"

#include "eval/register_compile.h"

namespace oprec {

LayerCode compile_layer(const Program& program) {
    LayerCode out;
    out.slot_count = program.slots.size();
    for (const SlotInfo& slot : program.slots) out.slot_parts.push_back(slot.layer_part);
    out.registers = compile_registers(program);
    return out;
}

}  // namespace oprec
