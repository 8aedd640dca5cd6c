#include "cli/layer_options.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "oprec/layer.h"
#include "oprec/records.h"

namespace oprec::cli {

void add_layer_edit_options(CLI::App& cmd, LayerEdits& edits) {
    // One value per occurrence: `--set t=8 layer.json` must not take the layer for a second edit.
    cmd.add_option("--set", edits.sets, "Override a field: NAME=VALUE (repeatable)")->allow_extra_args(false);
    cmd.add_option("--switch", edits.switches, "Set a recompute switch: NAME=0|1 (repeatable), over the layer's own")
        ->allow_extra_args(false);
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
        // What a layer document can state, no more: a priced nan or inf
        // would print as bytes. (The REPL takes them, as Python does.)
        if (const Number* n = std::get_if<Number>(&value); n && n->is_float() && !std::isfinite(n->f))
            throw LayerError(fmt::format("--set {}: not a finite number (a layer document cannot state one either)", edit));

        try {
            layer.set(name, std::move(value));  // a type the schema refuses
        } catch (const LayerError& e) {
            throw LayerError(fmt::format("--set {}: {}", edit, e.what()));
        }
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
