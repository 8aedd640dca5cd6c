// The public strategy as the Hugging Face front end's own. Private to src/api.
#pragma once

#include "hf/strategy.h"
#include "oprec/hf.h"

namespace oprec::detail {

// Throws LayerError naming an option with a value it does not know.
hf::Strategy internal_strategy(const HfStrategy& s);
// And back: the names the options go by.
HfStrategy public_strategy(const hf::Strategy& s);

}  // namespace oprec::detail
