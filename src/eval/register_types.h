// specialise (register_types.cpp): the register run typed for one
// layer's names (and keep mask), its branches pinned for their values.
#pragma once

#include <cstdint>
#include <optional>

#include "eval/register_code.h"

namespace oprec {

// The same run with the arithmetic on operands of known type in typed
// instructions, which test no type: for bound names of these types (a
// run on names of any other types computes wrong values). The types of
// every value follow from the names' and the constants' (an int product is
// an int or gives up, a quotient a float, ...), where no keep test or
// branch leaves them open. With `keep`, for that keep mask too: where an
// entry is kept, or not, is then known, and so is the type of more sums (a
// run with another mask computes wrong values); without it, for any mask.
// Then shorter: a sum's start read as the constant 0 where it is one, and
// dropped where the mask keeps the first entry; typed pairs fused
// (register_fuse.h). With `pin`, first the branches decided for the values
// of the names their tests read (pin_branches, register_pin.h): the run is then for those
// values too (its `pins`: check pins_hold before each run). nullopt where
// nothing could be typed or decided.
std::optional<RegisterCode> specialise(const RegisterCode& code, const Value* names,
                                       const std::uint8_t* keep = nullptr, bool pin = false);

}  // namespace oprec
