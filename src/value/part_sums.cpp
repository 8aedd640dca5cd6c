#include "value/part_sums.h"

#include <algorithm>

#include "value/arith.h"

namespace oprec {

void PartSums::add(std::uint32_t part, Value bytes) {
    auto at = std::find_if(parts_.begin(), parts_.end(), [&](const auto& p) { return p.first == part; });
    if (at == parts_.end()) at = parts_.insert(parts_.end(), {part, Value::real(0.0)});  // parts.get(part, 0.0)
    at->second = py::add(at->second, bytes);
}

Value PartSums::layer(const Value* part_bytes, std::size_t count) {
    Value sum = Value::real(0.0);
    for (std::size_t k = 0; k < count; ++k) sum = py::add(sum, part_bytes[k]);
    return sum;
}

}  // namespace oprec
