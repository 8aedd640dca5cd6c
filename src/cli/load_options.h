// How the tools that stand on the checker itself load records: the linter,
// the language server, import and export. The standard library,
// then OPREC_PATH's folders, as records_options() gives the public API.
#pragma once

#include "check/loader.h"

namespace oprec::cli {

LoadOptions load_options();

}  // namespace oprec::cli
