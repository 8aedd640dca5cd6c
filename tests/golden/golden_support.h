// Reading the golden vectors (tests/golden/*.json, see tests/golden/FORMAT.md): a case's
// layer config and evaluation context, encoded values, and comparing what
// we compute with what the reference computed, bit for bit.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/layer.h"
#include "value/value.h"

namespace oprec::golden {

// The whole file (throws std::runtime_error when it cannot be read or parsed).
nlohmann::json load_json(const std::string& path);

// A records case's `config`, typed by `config_types` (int float bool str
// none) with floats from `config_float_hex`. Absent fields stay absent.
LayerConfig layer_config(const nlohmann::json& golden_case);
// A records case's context: micro_factor and dropless_tok_factor (absent
// when the case leaves them out) typed by `context_types` /
// `context_float_hex`; current_node; and the context's switches when
// `ctx_switches` is a mapping (the reference ignores any other kind, so do we).
EvalContext eval_context(const nlohmann::json& golden_case);
// The layer's own switches (`rec_op`): its values when a mapping or an
// object; empty (every op kept) when "none" or "absent".
SwitchMap layer_switches(const nlohmann::json& golden_case);
// All three.
LayerDoc layer_doc(const nlohmann::json& golden_case);
// A switch mapping ({"attBMM": 1, "softmax": false, ...}) as int 0/1.
SwitchMap switch_map(const nlohmann::json& values);
// A case's `ffn_width`, typed by context_types / context_float_hex.
Value ffn_width(const nlohmann::json& golden_case);

// An encoded int, float or bool ({"type":..., "repr":..., "hex":...}) as a
// Value; throws std::runtime_error for anything else (errors, str, dict).
Value decode(const nlohmann::json& encoded);

// The project's error kind for a Python exception class of the golden files
// (AttributeError -> MissingField, ZeroDivisionError -> DivisionByZero, ...).
std::optional<ErrorKind> error_kind_for(std::string_view python_class);

// Whether `got` is the expected value: same type, ints by their digits,
// floats by float.hex, bools by repr. False when an error was expected.
bool matches(const nlohmann::json& expected, Value got);
// Whether the expected outcome is an error of the class that maps to `error`'s kind.
bool error_matches(const nlohmann::json& expected, const EvalError& error);

// For messages: "int 42", "float 0x1.8p+1 (3.0)", "AttributeError (message)".
std::string describe(const nlohmann::json& expected);
std::string describe(Value got);
std::string describe(const EvalError& error);

// Runs `compute` and compares its value, or the EvalError it throws, with
// `expected`. Returns "" when they agree, else what differed.
template <class Compute>
std::string check_outcome(const nlohmann::json& expected, Compute&& compute) {
    try {
        const Value got = compute();
        if (matches(expected, got)) return {};
        return "expected " + describe(expected) + ", got " + describe(got);
    } catch (const EvalError& error) {
        if (error_matches(expected, error)) return {};
        return "expected " + describe(expected) + ", got " + describe(error);
    }
}

}  // namespace oprec::golden
