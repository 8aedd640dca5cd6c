// The other front doors, one function each, as their fuzz targets run them
// (fuzz/fuzz_*.cpp) and as the test suite replays their saved inputs
// (tests/unit/test_fuzz_doors.cpp): the YAML records reader, the layer
// document reader, the Hugging Face config reader, and the language
// server's message handling. Each refuses bad input with its own error and
// throws std::logic_error where an invariant fails; anything else escaping
// is a crash for the fuzzer.
#pragma once

#include <string_view>

namespace oprec::fuzz {

// The reference's YAML records, loaded, checked and compiled as
// `oprec eval --records x.yaml` would.
void exercise_yaml_records(std::string_view text);
// A layer document bound to the shipped records and priced.
void exercise_layer_document(std::string_view text);
// A Hugging Face config.json: a layer derived under a few strategies and priced.
void exercise_hf_config(std::string_view text);
// Bytes on the language server's standard input: framed, parsed and
// handled after an initialize and an open document; every reply a
// JSON-RPC object, none an internal error.
void exercise_lsp_messages(std::string_view bytes);

}  // namespace oprec::fuzz
