#include "cli/layer_options.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "oprec/layer.h"
#include "oprec/records.h"
#include "value/text.h"

namespace oprec::cli {

void add_layer_edit_options(CLI::App& cmd, LayerEdits& edits) {
    // One value per occurrence: `--set t=8 layer.json` must not take the layer for a second edit.
    cmd.add_option("--set", edits.sets, "Override a field: NAME=VALUE (repeatable)")->allow_extra_args(false);
    cmd.add_option("--switch", edits.switches, "Set a recompute switch: NAME=0|1 (repeatable), over the layer's own")
        ->allow_extra_args(false);
}

namespace {
std::pair<std::string, std::string> split(const std::string& edit, const char* option) {
    const auto eq = edit.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(fmt::format("{} {}: expected NAME=VALUE", option, edit));
    return {edit.substr(0, eq), edit.substr(eq + 1)};
}
}  // namespace

// The names --set may state: the schema's fields, every name the formulas
// read, and the layer's own fields (as the REPL's `set`). Anything else would
// be accepted and change nothing.
std::vector<std::string> settable(const LayerDoc& layer, const Program& program) {
    std::vector<std::string> names;
    for (const FieldInfo& f : program.fields) names.push_back(f.name);
    names.insert(names.end(), program.names.begin(), program.names.end());
    for (const auto& [n, v] : layer.fields.fields()) names.push_back(n);
    return names;
}

void apply_edits(LayerDoc& layer, const LayerEdits& edits, const Program& program) {
    for (const std::string& edit : edits.sets) {
        auto [name, text] = split(edit, "--set");
        if (const std::vector<std::string> known = settable(layer, program);
            std::find(known.begin(), known.end(), name) == known.end()) {
            std::string msg = fmt::format("--set {}: no field `{}`", edit, name);
            if (auto near = closest_name(name, known)) msg += fmt::format(" (did you mean `{}`?)", *near);
            else msg += " (a new field is declared in the records' schema, stdlib/fields.rec)";
            throw std::invalid_argument(msg);
        }
        try {
            layer.fields.set(name, field_from_text(text));
        } catch (const EvalError& e) {
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, e.what()));
        }
    }
    if (edits.switches.empty()) return;
    // The switches in force, then these over them, as the context's.
    SwitchMap merged = effective_switches(layer.context, layer.switches);
    for (const std::string& edit : edits.switches) {
        auto [name, text] = split(edit, "--switch");
        if (std::find(program.switches.begin(), program.switches.end(), name) == program.switches.end()) {
            std::string msg = fmt::format("--switch {}: unknown switch `{}`", edit, name);
            if (auto near = closest_name(name, program.switches)) msg += fmt::format(" (did you mean `{}`?)", *near);
            throw std::invalid_argument(msg);
        }
        if (text != "0" && text != "1" && text != "true" && text != "false" && text != "on" && text != "off")
            throw std::invalid_argument(fmt::format("--switch {}: a switch is 0 or 1 (1 keeps the op's activations)", edit));
        const bool keep = text == "1" || text == "true" || text == "on";
        merged[name] = Value::integer(keep ? 1 : 0);
    }
    layer.context.switches = std::move(merged);
}

namespace {
std::pair<std::string, std::string> split_layer_edit(const std::string& edit, const char* option) {
    const auto eq = edit.find('=');
    if (eq == std::string::npos || eq == 0) throw LayerError(fmt::format("{} {}: expected NAME=VALUE", option, edit));
    return {edit.substr(0, eq), edit.substr(eq + 1)};
}

// --set and --switch, in that order, each naming itself in an error.
// A name --set may state: one the formulas read, or one the layer states
// (as the REPL's `set`); anything else would be accepted and change nothing.
void check_settable(const Layer& layer, const Records& records, const std::string& edit, const std::string& name) {
    std::vector<std::string> known = records.names();
    for (const auto& [n, v] : layer.fields()) known.push_back(n);
    if (std::find(known.begin(), known.end(), name) != known.end()) return;
    std::string msg = fmt::format("--set {}: no field `{}` in the layer or the records", edit, name);
    if (auto near = closest_name(name, known)) msg += fmt::format(" (did you mean `{}`?)", *near);
    throw LayerError(msg);
}

}  // namespace

void apply_edits(Layer& layer, const Records& records, const LayerEdits& edits) {
    for (const std::string& edit : edits.sets) {
        auto [name, text] = split_layer_edit(edit, "--set");
        check_settable(layer, records, edit, name);
        Field value;
        try {
            value = parse_field(text);
        } catch (const LayerError& e) {
            throw LayerError(fmt::format("--set {}: {}", edit, e.what()));
        }
        layer.set(name, std::move(value));  // a type the schema refuses: named by the document's place
    }
    for (const std::string& edit : edits.switches) {
        auto [name, text] = split_layer_edit(edit, "--switch");
        if (text != "0" && text != "1" && text != "true" && text != "false" && text != "on" && text != "off")
            throw LayerError(fmt::format("--switch {}: a switch is 0 or 1 (1 keeps the op's activations)", edit));
        try {
            layer.set_switch(name, text == "1" || text == "true" || text == "on");
        } catch (const LayerError& e) {
            throw LayerError(fmt::format("--switch {}: {}", edit, e.what()));
        }
    }
}

}  // namespace oprec::cli
