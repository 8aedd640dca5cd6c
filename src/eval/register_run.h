// The register run (register_run.cpp): its dispatch table threaded into
// the code, and one run.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/register_code.h"

namespace oprec {

// Makes code.threaded from code.instrs.
void thread_registers(RegisterCode& code);

// One run on `names` (every one bound: Bindings::all_bound), writing held
// flags and held slots' values by SlotId as LayerCode's run does; of
// code.threaded (it gives up where that is not `instrs` threaded). `cells`
// is scratch, grown as needed. False: it gave up, and what it wrote is to
// be ignored.
bool run_registers(const RegisterCode& code, const Value* names, const std::uint8_t* keep, std::uint8_t* held,
                   Value* slot_values, std::vector<Value>& cells);

}  // namespace oprec
