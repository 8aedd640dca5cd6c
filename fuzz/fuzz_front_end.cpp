// libFuzzer over the whole front end: parse, imports, checks, lint, and the
// text, JSON and SARIF forms. Built with clang by fuzz/run (-DOPREC_FUZZ=ON).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "exercise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    oprec::lint::exercise_front_end(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
}
