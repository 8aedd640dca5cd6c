// Bytes as people read them: moved to the library (value/bytes_text.h), where
// the REPL uses them too; the commands keep their names.
#pragma once

#include "value/bytes_text.h"

namespace oprec::cli {

using oprec::exact_bytes;
using oprec::human_bytes;

}  // namespace oprec::cli
