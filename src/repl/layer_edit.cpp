#include "repl/layer_edit.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "model/field_check.h"
#include "model/field_text.h"
#include "repl/output.h"
#include "value/text.h"

namespace oprec::repl {

namespace {

bool contains(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_assignments(std::string_view text) {
    // Words, with `=` a word of its own, then NAME = VALUE triples.
    std::vector<std::string> words;
    std::string word;
    auto flush = [&] {
        if (!word.empty()) words.push_back(std::move(word));
        word.clear();
    };
    for (char c : text) {
        if (is_space(c)) {
            flush();
        } else if (c == '=') {
            flush();
            words.emplace_back("=");
        } else {
            word += c;
        }
    }
    flush();
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < words.size(); i += 3) {
        const bool triple = i + 2 < words.size() && words[i] != "=" && words[i + 1] == "=" && words[i + 2] != "=";
        if (!triple) throw CommandError(fmt::format("expected NAME=VALUE, found `{}`", words[i]), "e.g. `set t=8 cp=2`");
        out.emplace_back(words[i], words[i + 2]);
    }
    if (out.empty()) throw CommandError("expected NAME=VALUE", "e.g. `set t=8 cp=2`");
    return out;
}

std::vector<std::string> field_names(const Program& program, const LayerDoc& layer) {
    return settable_fields(program, layer.fields);
}

void set_field(LayerDoc& layer, const Program& program, std::string_view name, std::string_view text) {
    if (is_context_value(name)) return set_context(layer, name, text);
    if (name == "kv_shards")
        throw CommandError("`kv_shards` is computed, not stated", "it follows from cp, cp_algo and n_linrec");
    if (contains(program.switches, name))
        throw CommandError(fmt::format("`{}` is a switch, not a field", name),
                           fmt::format("`switch {} on|off`", name));
    if (name == "node") throw CommandError("`node` is the layer's kind, not a field", "`node plain|selective|full`");
    const std::vector<std::string> known = field_names(program, layer);
    if (!contains(known, name)) {
        std::string note = did_you_mean(name, known);
        if (note.empty()) note = "a new field is declared in the records' schema (stdlib/fields.rec)";
        throw CommandError(fmt::format("unknown field `{}`", name), note);
    }
    if (text.empty()) throw CommandError(fmt::format("`{}=` needs a value", name), "a number, true/false, none or a string");
    layer.fields.set(std::string(name), field_from_text(text));
}

void unset_field(LayerDoc& layer, std::string_view name) {
    if (layer.fields.erase(name)) return;
    std::vector<std::string> stated;
    for (const auto& [n, v] : layer.fields.fields()) stated.push_back(n);
    std::string note = did_you_mean(name, stated);
    throw CommandError(fmt::format("the layer states no field `{}`", name), note);
}

void set_switch(LayerDoc& layer, const Program& program, std::string_view name, std::string_view state) {
    bool keep = false;
    if (state == "on" || state == "1" || state == "true" || state == "keep") keep = true;
    else if (state == "off" || state == "0" || state == "false" || state == "recompute") keep = false;
    else throw CommandError(fmt::format("a switch is on or off, not `{}`", state), "on (1) keeps the op's activations, off (0) recomputes them");
    if (name != "all" && !contains(program.switches, name)) {
        std::vector<std::string> known = program.switches;
        known.emplace_back("all");
        throw CommandError(fmt::format("unknown switch `{}`", name), did_you_mean(name, known));
    }
    // The switches in force, then this one over them, as the context's (as `oprec eval --switch`).
    SwitchMap merged = effective_switches(layer.context, layer.switches);
    for (const std::string& s : program.switches)
        if (name == "all" || s == name) merged[s] = Value::integer(keep ? 1 : 0);
    layer.context.switches = std::move(merged);
}

void set_node(LayerDoc& layer, std::string_view kind) {
    if (kind == "plain" || kind == "none") layer.context.node = NodeKind::NotRec;
    else if (kind == "selective") layer.context.node = NodeKind::SelRec;
    else if (kind == "full") layer.context.node = NodeKind::FullRec;
    else if (auto k = parse_node_kind(kind)) layer.context.node = *k;
    else {
        const std::vector<std::string> known{"plain", "selective", "full"};
        std::string note = did_you_mean(kind, known);
        if (note.empty()) note = "plain, selective or full";
        throw CommandError(fmt::format("unknown node kind `{}`", kind), note);
    }
}

void set_context(LayerDoc& layer, std::string_view name, std::string_view text) {
    std::optional<Value>* slot = layer.context.slot(name);
    if (slot == nullptr) {
        const std::vector<std::string> known(kContextValues.begin(), kContextValues.end());
        std::string note = did_you_mean(name, known);
        if (note.empty()) note = "the context holds micro_factor and dropless_tok_factor";
        throw CommandError(fmt::format("no context value `{}`", name), note);
    }
    if (text == "none" || text == "None" || text == "null") {
        slot->reset();
        return;
    }
    auto v = parse_value_text(text);
    if (!v) throw CommandError(fmt::format("{} is a number, not `{}`", name, text));
    *slot = *v;
}

void apply_setting(LayerDoc& layer, const Program& program, std::string_view name, std::string_view value) {
    if (name == "node") return set_node(layer, value);
    if (name == "all" || contains(program.switches, name)) return set_switch(layer, program, name, value);
    if (is_context_value(name)) return set_context(layer, name, value);
    set_field(layer, program, name, value);
}

std::string_view node_word(NodeKind kind) {
    switch (kind) {
    case NodeKind::NotRec: return "plain";
    case NodeKind::SelRec: return "selective";
    case NodeKind::FullRec: return "full";
    }
    return "plain";
}

std::string switch_state(const LayerDoc& layer, std::string_view name) {
    const SwitchMap& in_force = effective_switches(layer.context, layer.switches);
    auto it = in_force.find(name);
    if (it == in_force.end()) return "on (unstated)";
    return it->second.truthy() ? "on" : "off";
}

namespace {
std::pair<std::string, std::string> split(const std::string& edit, const char* option) {
    const auto eq = edit.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(fmt::format("{} {}: expected NAME=VALUE", option, edit));
    return {edit.substr(0, eq), edit.substr(eq + 1)};
}
}  // namespace

void apply_start_edits(LayerDoc& layer, const Program& program, const std::vector<std::string>& sets,
                       const std::vector<std::string>& switches) {
    for (const std::string& edit : sets) {
        auto [name, text] = split(edit, "--set");
        if (const auto why = unknown_field(program, layer.fields, name))
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, *why));
        if (is_context_value(name)) {  // micro_factor, dropless_tok_factor: the context's, as the REPL's `context` sets them
            try {
                set_context(layer, name, text);
            } catch (const CommandError& e) {
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
    if (switches.empty()) return;
    // The switches in force, then these over them, as the context's.
    SwitchMap merged = effective_switches(layer.context, layer.switches);
    for (const std::string& edit : switches) {
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


}  // namespace oprec::repl
