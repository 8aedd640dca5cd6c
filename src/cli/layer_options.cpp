#include "cli/layer_options.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "model/field_check.h"
#include "repl/layer_edit.h"
#include "repl/output.h"
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

void apply_edits(LayerDoc& layer, const LayerEdits& edits, const Program& program) {
    for (const std::string& edit : edits.sets) {
        auto [name, text] = split(edit, "--set");
        if (const auto why = unknown_field(program, layer.fields, name))
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, *why));
        if (is_context_value(name)) {  // micro_factor, dropless_tok_factor: the context's, as the REPL's `context` sets them
            try {
                repl::set_context(layer, name, text);
            } catch (const repl::CommandError& e) {
                throw std::invalid_argument(fmt::format("--set {}: {}", edit, e.what()));
            } catch (const EvalError& e) {
                throw std::invalid_argument(fmt::format("--set {}: {}", edit, e.what()));
            }
            continue;
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

}  // namespace

void apply_edits(Layer& layer, const Records& records, const LayerEdits& edits) {
    for (const std::string& edit : edits.sets) {
        auto [name, text] = split_layer_edit(edit, "--set");
        if (const auto why = layer.unknown_field(name)) throw LayerError(fmt::format("--set {}: {}", edit, *why));
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
