// Bytes as people read them: exact, with thousands grouped, and in KiB/MiB/GiB.
#pragma once

#include <string>

#include "value/value.h"

namespace oprec {

std::string exact_bytes(Value v);    // "21,233,664", "109,051,903.99999999"
std::string human_bytes(double b);   // "20.25 MiB", "512 B"

}  // namespace oprec
