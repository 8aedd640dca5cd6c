// The reference's summing rule (layer_bytes, sum_parts), the one place it
// is written: each part starts at 0.0 (`parts.get(part, 0.0)`) and adds its
// held slots' bytes in the records' order, the parts in the order of their
// first held slot; the layer is its parts summed from 0.0. (LayerCode's
// run adds doubles in the same order: the same bits where every value is a
// number, which its records guarantee.) Values alone: the front ends that
// sum what they priced through the API use it too (the REPL's tables).
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "value/value.h"

namespace oprec {

class PartSums {
public:
    // Adds a held slot's bytes to its part (an index into the records'
    // parts); raises as Python's + would.
    void add(std::uint32_t part, Value bytes);
    const std::vector<std::pair<std::uint32_t, Value>>& parts() const { return parts_; }
    static Value layer(const Value* part_bytes, std::size_t count);

private:
    std::vector<std::pair<std::uint32_t, Value>> parts_;
};

}  // namespace oprec
