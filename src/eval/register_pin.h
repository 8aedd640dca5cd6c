// pin_branches (register_pin.cpp): the register run's branches decided
// for the values of the names they test.
#pragma once

#include <cstdint>
#include <vector>

#include "eval/register_code.h"

namespace oprec {

// The branches of untyped code decided for the values of the names their
// tests read, where those values decide them (and, with `keep`, for that
// mask: which entries are kept); what no path reaches then dropped. The
// names and values it decided for (none: nothing decided).
std::vector<RegisterPin> pin_branches(RegisterCode& code, const Value* names, const std::uint8_t* keep);

}  // namespace oprec
