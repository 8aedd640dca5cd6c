// libFuzzer over one front door (exercise_doors.h): built with clang by
// fuzz/run (-DOPREC_FUZZ=ON).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exercise_doors.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    oprec::fuzz::exercise_yaml_records(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
