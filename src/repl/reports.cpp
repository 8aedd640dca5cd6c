#include "repl/reports.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "repl/layer_edit.h"
#include "repl/table.h"
#include "value/arith.h"
#include "value/bytes_text.h"
#include "value/format.h"
#include "value/numbers.h"
#include "value/part_sums.h"
#include "value/text.h"

namespace oprec::repl {

namespace {

// A value or the error that computing it raised.
struct Priced {
    std::optional<Value> value;
    std::string error;  // when no value
};

template <class F>
Priced priced(F&& f) {
    try {
        return {value_of(f()), {}};
    } catch (const PricingError& e) {
        return {std::nullopt, error_line(e)};
    }
}

std::string exact(const Priced& p) { return p.value ? exact_bytes(*p.value) : "error"; }

// Bytes past a float's range are printed as Python computes them, and said
// to be no answer, as `oprec eval` says (exit 1 there; the report fails here).
constexpr const char* kNonFinite = "  warning: bytes past a float's range, as Python computes them: no usable answer\n";
bool non_finite(const Priced& p) { return p.value && !std::isfinite(p.value->as_double()); }
std::string human(const Priced& p) { return p.value ? human_bytes(p.value->as_double()) : ""; }

// The index of a layer part in the records' parts.
std::uint32_t part_index(const Records& records, const std::string& part) {
    const auto& parts = records.parts();
    return static_cast<std::uint32_t>(std::find(parts.begin(), parts.end(), part) - parts.begin());
}

// A slot the layer holds, priced: its name, its part's index, its bytes.
struct HeldSlot {
    std::string name;
    std::uint32_t part = 0;
    Priced bytes;
};

// A layer's held slots priced, in the records' order, summed as every
// pricing sums them (PartSums): each part's total and the layer's; nullopt
// where a slot it adds could not be priced.
struct Sums {
    std::vector<std::optional<Value>> parts;  // by part index (nullopt: none held, or an error)
    std::optional<Value> layer;
};
Sums sums_of(const Records& records, const std::vector<HeldSlot>& held) {
    const std::size_t count = records.parts().size();
    PartSums sums;
    std::vector<std::uint8_t> failed(count, 0);
    for (const HeldSlot& h : held) {
        if (h.bytes.value) sums.add(h.part, *h.bytes.value);
        else failed[h.part] = 1;
    }
    Sums out;
    out.parts.assign(count, std::nullopt);
    std::vector<Value> in_order;  // the parts in order of first held slot, as the layer sums them
    for (const auto& [part, bytes] : sums.parts()) {
        if (failed[part]) continue;
        out.parts[part] = bytes;
        in_order.push_back(bytes);
    }
    if (std::find(failed.begin(), failed.end(), 1) == failed.end())
        out.layer = PartSums::layer(in_order.data(), in_order.size());
    return out;
}
Priced total_of(const std::optional<Value>& v) { return v ? Priced{v, {}} : Priced{std::nullopt, "error"}; }

// The errors under a table, one per line, each once.
void append_errors(std::string& text, const std::vector<std::string>& errors) {
    std::vector<std::string> shown;
    for (const std::string& e : errors) {
        if (std::find(shown.begin(), shown.end(), e) != shown.end()) continue;
        text += "  error: " + e + "\n";
        shown.push_back(e);
    }
}

std::string context_text(const Layer& layer, std::string_view name) {
    const std::optional<Field> v = layer.field(name);
    const Number* n = v ? std::get_if<Number>(&*v) : nullptr;
    return n != nullptr ? n->repr() : "unset";
}

// The note under a slot the layer does not hold.
std::string not_held(const Records& records, std::string_view slot) {
    const std::optional<std::string> cond = records.slot_decl(slot).when;
    return fmt::format("  not held by this layer{}: it counts toward no part\n",
                       cond ? fmt::format(" (`{}` is false)", *cond) : "");
}

}  // namespace

std::string error_line(const PricingError& e) { return fmt::format("{} [{}]", e.what(), e.kind_name()); }

std::string layer_summary(const Records& records, const Layer& layer) {
    const Recompute node = layer.recompute();
    std::string out = fmt::format("{} layer ({}), micro factor {}, dropless token factor {}", node_word(node),
                                  recompute_name(node), context_text(layer, "micro_factor"),
                                  context_text(layer, "dropless_tok_factor"));
    std::vector<std::string> off;
    for (const std::string& s : records.switches())
        if (switch_state(layer, s) == "off") off.push_back(s);
    if (node == Recompute::Selective)
        out += off.empty() ? "; every switch on" : fmt::format("; recomputed: {}", fmt::join(off, ", "));
    return out;
}

Report slot_report(const Records& records, const Layer& layer, std::string_view slot,
                   const std::optional<std::string>& only) {
    const Value bytes = value_of(only ? layer.slot(slot, *only) : layer.slot(slot));
    std::string label(slot);
    if (only) label += " only " + *only;
    Report r;
    const std::string human_size = human_bytes(bytes.as_double());  // none for inf
    r.text = fmt::format("{}  {} bytes{}{}\n", label, exact_bytes(bytes), human_size.empty() ? "" : "  ", human_size);
    if (!layer.holds(slot)) r.text += not_held(records, slot);
    if (!std::isfinite(bytes.as_double())) r.text += kNonFinite, r.ok = false;
    return r;
}

Report layer_report(const Records& records, const Layer& layer) {
    Report r;
    r.text = layer_summary(records, layer) + "\n";
    if (layer.recompute() == Recompute::Full) {  // it keeps its input alone: the records are not asked
        const Priced input = priced([&] { return layer.total(); });
        r.text += "  full recompute: the layer keeps only its input and recomputes the rest in the backward\n";
        Table t({false, true, true});
        t.row({"layer (its input)", exact(input), human(input)});
        r.text += t.render();
        if (!input.value) append_errors(r.text, {input.error});
        if (non_finite(input)) r.text += kNonFinite;
        r.ok = input.value.has_value() && !non_finite(input);
        return r;
    }
    const Named<std::string> held = layer.held_slots();  // throws: nothing to show
    Table t({false, false, true, true});
    std::vector<std::string> errors;
    // Each held slot priced once, in the records' order.
    std::vector<HeldSlot> slots;
    for (const auto& [slot, part] : held)
        slots.push_back({slot, part_index(records, part), priced([&, &name = slot] { return layer.slot(name); })});
    const Sums sums = sums_of(records, slots);
    for (std::uint32_t part = 0; part < records.parts().size(); ++part) {
        bool first = true;
        for (const HeldSlot& s : slots) {
            if (s.part != part) continue;
            if (!s.bytes.value) errors.push_back(s.bytes.error);
            t.row({first ? records.parts()[part] : "", s.name, exact(s.bytes), human(s.bytes)});
            first = false;
        }
        if (first) continue;  // the layer holds nothing in this part
        const Priced pt = total_of(sums.parts[part]);
        t.row({"", "= " + records.parts()[part], exact(pt), human(pt)});
    }
    const Priced lt = total_of(sums.layer);
    t.row({"layer", "", exact(lt), human(lt)});
    r.text += t.render();
    append_errors(r.text, errors);
    const bool unusable = non_finite(lt) || std::any_of(slots.begin(), slots.end(),
                                                         [](const HeldSlot& h) { return non_finite(h.bytes); });
    if (unusable) r.text += kNonFinite;
    r.ok = errors.empty() && !unusable;
    return r;
}

Report ops_report(const Records& records, const Layer& layer) {
    Report r;
    r.text = "every op and part priced alone, in the held slots it keeps anything in\n";
    Table t({false, false, false, true, true});
    t.row({"op", "switch", "slot", "bytes", ""});
    std::vector<std::string> errors;
    for (const std::string& op : records.ops()) {
        const OpDecl decl = records.op_decl(op);
        std::string name = op;
        if (decl.part_of) name += fmt::format(" (part of {})", *decl.part_of);
        const std::string sw = decl.switch_name.value_or("-");
        try {
            const Named<Number> by_slot = layer.op(op);
            if (by_slot.empty()) t.row({name, sw, "-", "", ""});
            bool first = true;
            for (const auto& [slot, bytes] : by_slot) {
                const Value v = value_of(bytes);
                t.row({first ? name : "", first ? sw : "", slot, exact_bytes(v), human_bytes(v.as_double())});
                first = false;
            }
        } catch (const PricingError& e) {
            t.row({name, sw, "", "error", ""});
            errors.push_back(fmt::format("{}: {}", op, error_line(e)));
        }
    }
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

Report params_report(const Layer& layer) {
    // The native parameter counts, as the layer's report gives them (each a value or its error).
    struct Row {
        const char* key;
        const char* what;
    };
    static constexpr Row rows[] = {
        {"attn", "attention (MLA's where dc_kv > 0)"},
        {"mla", "multi-head latent attention"},
        {"ffn", "dense feed-forward"},
        {"routed_expert", "routed experts"},
        {"router", "router"},
        {"shared_expert", "shared experts"},
        {"norm", "norms"},
    };
    const nlohmann::ordered_json params = nlohmann::ordered_json::parse(layer.report_json())["params"];
    Report r;
    Table t({false, true, false});
    std::vector<std::string> errors;
    for (const Row& row : rows) {
        const nlohmann::ordered_json& j = params[row.key];
        Priced v;
        if (j.is_object() && j.contains("error"))
            v.error = fmt::format("{} [{}]", j["error"].value("message", ""), j["error"].value("kind", ""));
        else
            v.value = value_from_json(j);
        if (!v.value) errors.push_back(fmt::format("{}: {}", row.key, v.error));
        t.row({row.key, exact(v), row.what});
    }
    r.text = t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

namespace {

std::string keep_reason(const Records& records, const Layer& layer, bool kept, const std::string& op) {
    if (layer.recompute() != Recompute::Selective) return kept ? "kept" : "recomputed";
    const std::optional<std::string> sw = records.op_decl(op).switch_name;
    if (!sw) return kept ? "kept (no switch)" : "recomputed";
    const std::string state = switch_state(layer, *sw);
    if (state == "on (unstated)") return fmt::format("{} ({} unstated)", kept ? "kept" : "recomputed", *sw);
    return fmt::format("{} ({} {})", kept ? "kept" : "recomputed", *sw, state);
}

}  // namespace

Report explain_report(const Records& records, const Layer& layer, std::string_view slot) {
    const SlotDecl decl = records.slot_decl(slot);
    Report r;
    const Position& w = decl.where;
    r.text = fmt::format("slot {} in {}, {}\n", decl.name, decl.part,
                         w.line == 0 ? w.file : fmt::format("{}:{}:{}", w.file, w.line, w.col));
    const std::size_t last = decl.first_line + decl.lines.size() - 1;
    const std::size_t number_width = std::to_string(decl.lines.empty() ? 0 : last).size();
    for (std::size_t i = 0; i < decl.lines.size(); ++i)
        r.text += fmt::format("  {:>{}} | {}\n", decl.first_line + i, number_width, decl.lines[i]);

    std::vector<std::string> errors;
    r.text += layer_summary(records, layer) + "\n";
    try {
        if (!layer.holds(slot)) r.text += not_held(records, slot);
    } catch (const PricingError& e) {
        errors.push_back(error_line(e));
    }
    Table t({false, false, true, true});
    t.row({"entry", "keep", "elements"});
    Value total = Value::integer(0);  // Python's sum(): int 0, then each kept entry in order
    bool total_ok = true;
    for (const EntryElements& e : layer.entry_elements(slot)) {
        if (e.error) errors.push_back(error_line(*e.error));
        const std::optional<Value> v = e.elements ? std::optional(value_of(*e.elements)) : std::nullopt;
        if (e.kept) {
            if (v && total_ok) total = py::add(total, *v);
            else total_ok = false;
        }
        t.row({e.op, keep_reason(records, layer, e.kept, e.op), v ? repr(*v) : "error"});
    }
    t.row({"total", "the kept entries' sum", total_ok ? repr(total) : "error"});
    const Priced bytes = priced([&] { return layer.slot(slot); });
    if (!bytes.value) errors.push_back(bytes.error);
    t.row({"bytes", "the formula on total", exact(bytes), human(bytes)});
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

Report diff_report(const Records& records, const Layer& a, std::string_view a_label, const Layer& b,
                   std::string_view b_label) {
    std::vector<std::string> errors;
    auto held_of = [&](const Layer& layer, std::string_view label) {
        try {
            return std::optional<Named<std::string>>(layer.held_slots());
        } catch (const PricingError& e) {
            errors.push_back(fmt::format("{}: {}", label, error_line(e)));
            return std::optional<Named<std::string>>();
        }
    };
    const auto held_a = held_of(a, a_label), held_b = held_of(b, b_label);
    Report r;
    r.text = fmt::format("A: {}\nB: {}\n", a_label, b_label);
    if (!held_a || !held_b) {
        append_errors(r.text, errors);
        r.ok = false;
        return r;
    }
    // Each slot's part, from whichever layer holds it.
    auto part_of = [&](const std::string& slot) -> std::optional<std::uint32_t> {
        for (const Named<std::string>* held : {&*held_a, &*held_b})
            for (const auto& [name, part] : *held)
                if (name == slot) return part_index(records, part);
        return std::nullopt;
    };
    Table t({false, false, true, true, true, true});
    t.row({"part", "slot", "A", "B", "B - A", ""});
    // A cell: the slot's bytes where the layer holds it, "-" where not.
    auto cell = [&](const Layer& layer, const Named<std::string>& held, std::string_view label,
                    const std::string& slot) -> std::optional<Priced> {
        if (std::none_of(held.begin(), held.end(), [&](const auto& h) { return h.first == slot; })) return std::nullopt;
        Priced v = priced([&] { return layer.slot(slot); });
        if (!v.value) errors.push_back(fmt::format("{}: {}", label, v.error));
        return v;
    };
    auto text = [](const std::optional<Priced>& v) { return v ? exact(*v) : "-"; };
    auto add_row = [&](const std::string& part, const std::string& slot, const std::optional<Priced>& va,
                       const std::optional<Priced>& vb) {
        auto value = [](const std::optional<Priced>& v) { return v ? v->value : std::optional<Value>(Value::integer(0)); };
        std::optional<Value> x = value(va), y = value(vb);
        std::string change, change_human;
        if (x && y) {
            const Value d = py::sub(*y, *x);
            change = d.truthy() ? exact_bytes(d) : "0";
            change_human = d.truthy() ? human_bytes(d.as_double()) : "";
        }
        t.row({part, slot, text(va), text(vb), change, change_human});
    };
    // Each slot priced once for each layer that holds it, in the records'
    // order, and summed as every pricing sums them.
    const std::vector<std::string>& slots = records.slots();
    std::vector<std::optional<Priced>> cells_a, cells_b;
    std::vector<std::optional<std::uint32_t>> parts;
    std::vector<HeldSlot> held_slots_a, held_slots_b;
    for (const std::string& s : slots) {
        cells_a.push_back(cell(a, *held_a, "A", s));
        cells_b.push_back(cell(b, *held_b, "B", s));
        parts.push_back(part_of(s));
        if (cells_a.back()) held_slots_a.push_back({s, *parts.back(), *cells_a.back()});
        if (cells_b.back()) held_slots_b.push_back({s, *parts.back(), *cells_b.back()});
    }
    const Sums sums_a = sums_of(records, held_slots_a), sums_b = sums_of(records, held_slots_b);
    // A total's cell: "-" where the layer holds nothing that adds to it.
    auto total_cell = [](bool holds, const std::optional<Value>& v) {
        return holds ? std::optional<Priced>(total_of(v)) : std::nullopt;
    };
    for (std::uint32_t part = 0; part < records.parts().size(); ++part) {
        bool first = true, holds_a = false, holds_b = false;
        for (std::size_t s = 0; s < slots.size(); ++s) {
            if (parts[s] != part || (!cells_a[s] && !cells_b[s])) continue;
            add_row(first ? records.parts()[part] : "", slots[s], cells_a[s], cells_b[s]);
            first = false;
            holds_a = holds_a || cells_a[s].has_value();
            holds_b = holds_b || cells_b[s].has_value();
        }
        if (first) continue;
        add_row("", "= " + records.parts()[part], total_cell(holds_a, sums_a.parts[part]),
                total_cell(holds_b, sums_b.parts[part]));
    }
    add_row("layer", "", total_cell(!held_slots_a.empty(), sums_a.layer), total_cell(!held_slots_b.empty(), sums_b.layer));
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

}  // namespace oprec::repl
