// The golden layers (tests/golden/records_cases.json) priced with any
// records program, every query of tests/golden/test_records_golden.cpp,
// compared with the reference's outcome to the bit.
#pragma once

#include <string>
#include <vector>

#include "check/program.h"

namespace oprec::testing {

struct GoldenRun {
    int cases = 0;
    int checks = 0;
    std::vector<std::string> mismatches;  // "case: what differed"
};

GoldenRun price_golden_layers(const Program& records);

}  // namespace oprec::testing
