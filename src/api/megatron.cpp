// A Megatron-LM launch command through the API: its flags read as
// arguments.py reads them (rank/megatron_args.h), the model written as a
// Hugging Face config and the strategy as FitStrategy.
#include <fmt/format.h>

#include "oprec/fit.h"

namespace oprec {

MegatronJob megatron_job(std::string_view, std::string source_name, std::int64_t) {
    throw LayerError(fmt::format("{}: reading a Megatron-LM command is not built yet", source_name));
}

}  // namespace oprec
