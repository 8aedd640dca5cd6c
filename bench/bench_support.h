// What the benchmarks share: the shipped records, the example layers, and
// running a process (the command, the cold-load probe) to time it.
#pragma once

#include <string>
#include <vector>

#include "check/program.h"
#include "model/layer.h"

namespace oprec::bench {

inline constexpr const char* kRecords = OPREC_SOURCE_DIR "/records/op_records.rec";
inline constexpr const char* kStdlib = OPREC_SOURCE_DIR "/stdlib";

// The shipped records, loaded once per process.
const Program& shipped();

// The example layers the pricing benchmarks run on, by benchmark argument:
// 0 a dense GQA-less layer (llama2-7b), 1 an MLA MoE layer (deepseek-v3-moe).
inline const std::vector<std::string> kLayers = {"llama2-7b", "deepseek-v3-moe"};
std::string layer_path(std::size_t index);
LayerDoc layer(std::size_t index);
// The same layer as a selective one with some switches off, to price with a mask.
LayerDoc selective_layer(std::size_t index);

std::string read_file(const std::string& path);
// A fresh file under the system's temporary folder, holding `text`.
std::string temp_file(const std::string& name, const std::string& text);

// Runs argv, standard input from `stdin_path` (empty: /dev/null), standard
// output into `out` (nullptr: /dev/null); the exit status, or -1. `cpu_seconds`
// gets the child's user + system time: on a machine other work keeps busy,
// that is what a process costs, where its wall time mostly measures the queue.
int run_process(const std::vector<std::string>& argv, const std::string& stdin_path, std::string* out,
                double* cpu_seconds = nullptr, long* max_rss_kb = nullptr);

}  // namespace oprec::bench
