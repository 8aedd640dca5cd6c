// The shipped records, loaded once for the tests that price with them.
#pragma once

#include "check/loader.h"
#include "check/program.h"

namespace oprec::testing {

inline LoadOptions shipped_options() { return {{OPREC_TEST_DATA "/../stdlib"}}; }

inline const Program& shipped_records() {
    static const Program program = load_records_file(OPREC_TEST_DATA "/../records/op_records.rec", shipped_options());
    return program;
}

}  // namespace oprec::testing
