// The register run (register_run.cpp): its dispatch table threaded into
// the code, and one run.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/register_code.h"

namespace oprec {

// Makes code.threaded from code.instrs.
void thread_registers(RegisterCode& code);

// One run on `names` (Bindings::values: a name with no value holds
// Bindings::kMissing's type), writing by SlotId whether each slot is held
// and each held slot's bytes; of code.threaded (it gives up where that is
// not `instrs` threaded). `cells` is scratch, grown as needed. False: it
// gave up (an error, or a name with no value tested or in a slot's value:
// where Python raises), and what it wrote is to be ignored.
bool run_registers(const RegisterCode& code, const Value* names, const std::uint8_t* keep, std::uint8_t* held,
                   Value* slot_values, std::vector<Value>& cells);

}  // namespace oprec
