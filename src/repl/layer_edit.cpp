#include "repl/layer_edit.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "repl/output.h"

namespace oprec::repl {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

}  // namespace

bool is_context_name(std::string_view name) { return contains(context_names(), name); }

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

void set_field(Layer& layer, const Records& records, std::string_view name, std::string_view text) {
    if (is_context_name(name)) return set_context(layer, name, text);
    if (name == "kv_shards")
        throw CommandError("`kv_shards` is computed, not stated", "it follows from cp, cp_algo and n_linrec");
    if (contains(records.switches(), name))
        throw CommandError(fmt::format("`{}` is a switch, not a field", name),
                           fmt::format("`switch {} on|off`", name));
    if (name == "node") throw CommandError("`node` is the layer's kind, not a field", "`node plain|selective|full`");
    const std::vector<std::string> known = layer.field_names();
    if (!contains(known, name)) {
        std::string note = did_you_mean(name, known);
        if (note.empty()) note = "a new field is declared in the records' schema (stdlib/fields.rec)";
        throw CommandError(fmt::format("unknown field `{}`", name), note);
    }
    if (text.empty()) throw CommandError(fmt::format("`{}=` needs a value", name), "a number, true/false, none or a string");
    try {
        layer.set(name, parse_field(text));  // a string where the schema types a number is refused here
    } catch (const LayerError& e) {
        throw CommandError(e.what());
    }
}

void unset_field(Layer& layer, std::string_view name) {
    if (!is_context_name(name) && layer.field(name)) {
        layer.erase(name);
        return;
    }
    std::vector<std::string> stated;
    for (const auto& [n, v] : layer.fields()) stated.push_back(n);
    std::string note = did_you_mean(name, stated);
    throw CommandError(fmt::format("the layer states no field `{}`", name), note);
}

void set_switch(Layer& layer, const Records& records, std::string_view name, std::string_view state) {
    bool keep = false;
    if (state == "on" || state == "1" || state == "true" || state == "keep") keep = true;
    else if (state == "off" || state == "0" || state == "false" || state == "recompute") keep = false;
    else throw CommandError(fmt::format("a switch is on or off, not `{}`", state), "on (1) keeps the op's activations, off (0) recomputes them");
    if (name != "all" && !contains(records.switches(), name)) {
        std::vector<std::string> known = records.switches();
        known.emplace_back("all");
        throw CommandError(fmt::format("unknown switch `{}`", name), did_you_mean(name, known));
    }
    for (const std::string& s : records.switches())
        if (name == "all" || s == name) layer.set_switch(s, keep);
}

void set_node(Layer& layer, std::string_view kind) {
    if (kind == "plain" || kind == "none") return layer.set_recompute(Recompute::None);
    if (kind == "selective") return layer.set_recompute(Recompute::Selective);
    if (kind == "full") return layer.set_recompute(Recompute::Full);
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
        if (kind == recompute_name(r)) return layer.set_recompute(r);
    const std::vector<std::string> known{"plain", "selective", "full"};
    std::string note = did_you_mean(kind, known);
    if (note.empty()) note = "plain, selective or full";
    throw CommandError(fmt::format("unknown node kind `{}`", kind), note);
}

void set_context(Layer& layer, std::string_view name, std::string_view text) {
    if (!is_context_name(name)) {
        std::string note = did_you_mean(name, context_names());
        if (note.empty()) note = "the context holds micro_factor and dropless_tok_factor";
        throw CommandError(fmt::format("no context value `{}`", name), note);
    }
    if (text == "none" || text == "None" || text == "null") {
        layer.set(name, Field(std::monostate{}));
        return;
    }
    std::optional<Number> v;
    try {
        if (const Field f = parse_field(text); const Number* n = std::get_if<Number>(&f)) v = *n;
    } catch (const LayerError& e) {  // an integer beyond 64 bits
        throw CommandError(e.what());
    }
    if (!v) throw CommandError(fmt::format("{} is a number, not `{}`", name, text));
    layer.set(name, *v);
}

void apply_setting(Layer& layer, const Records& records, std::string_view name, std::string_view value) {
    if (name == "node") return set_node(layer, value);
    if (name == "all" || contains(records.switches(), name)) return set_switch(layer, records, name, value);
    if (is_context_name(name)) return set_context(layer, name, value);
    set_field(layer, records, name, value);
}

std::string_view node_word(Recompute kind) {
    switch (kind) {
    case Recompute::None: return "plain";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "plain";
}

std::string switch_state(const Layer& layer, std::string_view name) {
    const std::optional<bool> state = layer.switch_state(name);
    if (!state) return "on (unstated)";
    return *state ? "on" : "off";
}

namespace {
std::pair<std::string, std::string> split(const std::string& edit, const char* option) {
    const auto eq = edit.find('=');
    if (eq == std::string::npos || eq == 0)
        throw std::invalid_argument(fmt::format("{} {}: expected NAME=VALUE", option, edit));
    return {edit.substr(0, eq), edit.substr(eq + 1)};
}
}  // namespace

void apply_start_edits(Layer& layer, const Records& records, const std::vector<std::string>& sets,
                       const std::vector<std::string>& switches) {
    for (const std::string& edit : sets) {
        auto [name, text] = split(edit, "--set");
        if (const auto why = layer.unknown_field(name))
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, *why));
        try {
            if (is_context_name(name))  // micro_factor, dropless_tok_factor: as the REPL's `context` sets them
                set_context(layer, name, text);
            else
                layer.set(name, parse_field(text));
        } catch (const CommandError& e) {
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, e.what()));
        } catch (const LayerError& e) {
            throw std::invalid_argument(fmt::format("--set {}: {}", edit, e.what()));
        }
    }
    for (const std::string& edit : switches) {
        auto [name, text] = split(edit, "--switch");
        if (!contains(records.switches(), name)) {
            std::string msg = fmt::format("--switch {}: unknown switch `{}`", edit, name);
            if (auto near = closest_name(name, records.switches())) msg += fmt::format(" (did you mean `{}`?)", *near);
            throw std::invalid_argument(msg);
        }
        if (text != "0" && text != "1" && text != "true" && text != "false" && text != "on" && text != "off")
            throw std::invalid_argument(fmt::format("--switch {}: a switch is 0 or 1 (1 keeps the op's activations)", edit));
        layer.set_switch(name, text == "1" || text == "true" || text == "on");
    }
}

}  // namespace oprec::repl
