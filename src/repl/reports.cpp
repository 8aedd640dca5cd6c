#include "repl/reports.h"

#include <algorithm>

#include <fmt/format.h>

#include "model/params.h"
#include "eval/pricing.h"
#include "model/report.h"
#include "repl/layer_edit.h"
#include "repl/table.h"
#include "value/arith.h"
#include "value/bytes_text.h"
#include "value/format.h"

namespace oprec::repl {

namespace {

// A value or the error that computing it raised.
struct Priced {
    std::optional<Value> value;
    std::string error;  // when no value
};

template <class F>
Priced priced(F&& f, const SourceMap* sources) {
    try {
        return {f(), {}};
    } catch (const EvalError& e) {
        return {std::nullopt, error_line(e, sources)};
    }
}

std::string exact(const Priced& p) { return p.value ? exact_bytes(*p.value) : "error"; }
std::string human(const Priced& p) { return p.value ? human_bytes(p.value->as_double()) : ""; }

bool held_in(const Named<std::string>& held, std::string_view slot) {
    return std::any_of(held.begin(), held.end(), [&](const auto& h) { return h.first == slot; });
}

// A layer's held slots priced, in the records' order, summed as every
// pricing sums them (PartSums, eval/pricing.h): each part's total and the
// layer's; nullopt where a slot it adds could not be priced.
struct Sums {
    std::vector<std::optional<Value>> parts;  // by Program::layer_parts index (nullopt: none held, or an error)
    std::optional<Value> layer;
};
Sums sums_of(const Program& p, const std::vector<std::pair<SlotId, Priced>>& held) {
    PartSums sums;
    std::vector<std::uint8_t> failed(p.layer_parts.size(), 0);
    for (const auto& [slot, bytes] : held) {
        const std::uint32_t part = p.slots[slot].layer_part;
        if (bytes.value) sums.add(part, *bytes.value);
        else failed[part] = 1;
    }
    Sums out;
    out.parts.assign(p.layer_parts.size(), std::nullopt);
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

}  // namespace

std::string error_line(const EvalError& e, const SourceMap* sources) {
    return fmt::format("{} [{}]", describe_error(e, sources), error_kind_name(e.kind()));
}

std::string layer_summary(const Program& program, const LayerDoc& layer) {
    const EvalContext& c = layer.context;
    std::string out = fmt::format("{} layer ({}), micro factor {}, dropless token factor {}", node_word(c.node),
                                  node_kind_name(c.node), c.micro_factor ? repr(*c.micro_factor) : "unset",
                                  c.dropless_tok_factor ? repr(*c.dropless_tok_factor) : "unset");
    std::vector<std::string> off;
    for (const std::string& s : program.switches)
        if (switch_state(layer, s) == "off") off.push_back(s);
    if (c.node == NodeKind::SelRec)
        out += off.empty() ? "; every switch on" : fmt::format("; recomputed: {}", fmt::join(off, ", "));
    return out;
}

std::optional<std::string> when_text(const Program& program, SlotId slot) {
    const SlotInfo& s = program.slots[slot];
    if (!s.when || !s.span.known()) return std::nullopt;
    // The header line holds `slot NAME in PART when COND {`.
    std::string line(program.sources.file(s.span.file).line(s.span.line));
    const auto at = line.find(" when ");
    if (at == std::string::npos) return std::nullopt;
    std::string cond = line.substr(at + 6);
    if (auto brace = cond.rfind('{'); brace != std::string::npos) cond.resize(brace);
    while (!cond.empty() && cond.back() == ' ') cond.pop_back();
    return cond;
}

Report slot_report(const RecordsEvaluator& records, const LayerDoc& layer, std::string_view slot,
                   const std::optional<std::string>& only) {
    const Program& p = records.program();
    const SlotId id = records.slot_id(slot);
    SlotQuery query;
    query.only = only;
    const Value bytes = records.slot_bytes(layer, slot, query);
    std::string label(slot);
    if (only) label += " only " + *only;
    Report r;
    r.text = fmt::format("{}  {} bytes  {}\n", label, exact_bytes(bytes), human_bytes(bytes.as_double()));
    if (!slot_holds(p, id, records.bind(layer))) {
        auto cond = when_text(p, id);
        r.text += fmt::format("  not held by this layer{}: it counts toward no part\n",
                              cond ? fmt::format(" (`{}` is false)", *cond) : "");
    }
    return r;
}

Report layer_report(const RecordsEvaluator& records, const LayerDoc& layer) {
    const Program& p = records.program();
    const SourceMap* src = &p.sources;
    const Named<std::string> held = records.layer_slots(layer);  // throws: nothing to show
    Report r;
    r.text = layer_summary(p, layer) + "\n";
    Table t({false, false, true, true});
    std::vector<std::string> errors;
    // Each held slot priced once, in the records' order.
    std::vector<std::pair<SlotId, Priced>> slots;
    for (const auto& held_slot : held) {
        const std::string& slot = held_slot.first;  // a name, not a binding: the lambda below captures it
        slots.emplace_back(*p.find_slot(slot), priced([&] { return records.slot_bytes(layer, slot); }, src));
    }
    const Sums sums = sums_of(p, slots);
    for (std::uint32_t part = 0; part < p.layer_parts.size(); ++part) {
        bool first = true;
        for (const auto& [slot, b] : slots) {
            if (p.slots[slot].layer_part != part) continue;
            if (!b.value) errors.push_back(b.error);
            t.row({first ? p.layer_parts[part] : "", p.slots[slot].name, exact(b), human(b)});
            first = false;
        }
        if (first) continue;  // the layer holds nothing in this part
        const Priced pt = total_of(sums.parts[part]);
        t.row({"", "= " + p.layer_parts[part], exact(pt), human(pt)});
    }
    const Priced lt = total_of(sums.layer);
    t.row({"layer", "", exact(lt), human(lt)});
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

Report ops_report(const RecordsEvaluator& records, const LayerDoc& layer) {
    const Program& p = records.program();
    Report r;
    r.text = "every op and part priced alone, in the held slots it keeps anything in\n";
    Table t({false, false, false, true, true});
    t.row({"op", "switch", "slot", "bytes", ""});
    std::vector<std::string> errors;
    for (const RecordInfo& rec : p.records) {
        std::string name = rec.name;
        if (rec.part_of) name += fmt::format(" (part of {})", p.records[*rec.part_of].name);
        const std::string sw = rec.switch_id ? p.switches[*rec.switch_id] : "-";
        try {
            const Named<Value> by_slot = records.op_bytes(layer, rec.name);
            if (by_slot.empty()) t.row({name, sw, "-", "", ""});
            bool first = true;
            for (const auto& [slot, bytes] : by_slot) {
                t.row({first ? name : "", first ? sw : "", slot, exact_bytes(bytes), human_bytes(bytes.as_double())});
                first = false;
            }
        } catch (const EvalError& e) {
            t.row({name, sw, "", "error", ""});
            errors.push_back(fmt::format("{}: {}", rec.name, error_line(e, &p.sources)));
        }
    }
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

Report params_report(const LayerDoc& layer) {
    const LayerConfig& f = layer.fields;
    struct Row {
        const char* key;
        const char* what;
        Value (*count)(const LayerConfig&);
    };
    static constexpr Row rows[] = {
        {"attn", "attention (MLA's where dc_kv > 0)", num_params_attn},
        {"mla", "multi-head latent attention", num_params_mla},
        {"ffn", "dense feed-forward", num_params_ffn},
        {"routed_expert", "routed experts", num_params_routed_expert},
        {"router", "router", num_params_router},
        {"shared_expert", "shared experts", num_params_shared_expert},
        {"norm", "norms", num_params_norm},
    };
    Report r;
    Table t({false, true, false});
    std::vector<std::string> errors;
    for (const Row& row : rows) {
        Priced v = priced([&] { return row.count(f); }, nullptr);
        if (!v.value) errors.push_back(fmt::format("{}: {}", row.key, v.error));
        t.row({row.key, exact(v), row.what});
    }
    r.text = t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

namespace {

// The source lines of a slot: the comments just above it, then from its
// header to the brace that closes it.
std::vector<std::uint32_t> slot_lines(const SourceFile& file, std::uint32_t header) {
    std::vector<std::uint32_t> lines;
    std::uint32_t first = header;
    while (first > 1) {
        std::string_view above = file.line(first - 1);
        const auto text = above.find_first_not_of(" \t");
        if (text == std::string_view::npos || above[text] != '#') break;
        --first;
    }
    for (std::uint32_t l = first; l < header; ++l) lines.push_back(l);
    int depth = 0;
    bool opened = false;
    for (std::uint32_t l = header; l <= file.line_count(); ++l) {
        lines.push_back(l);
        std::string_view text = file.line(l);
        text = text.substr(0, text.find('#'));
        for (char c : text) {
            if (c == '{') {
                ++depth;
                opened = true;
            } else if (c == '}') {
                --depth;
            }
        }
        if (opened && depth <= 0) break;
    }
    return lines;
}

std::string keep_reason(const Program& p, const LayerDoc& layer, const KeepMask& keep, RecordId record) {
    const bool kept = keep[record] != 0;
    if (layer.context.node != NodeKind::SelRec) return kept ? "kept" : "recomputed";
    const auto& sw = p.records[record].switch_id;
    if (!sw) return kept ? "kept (no switch)" : "recomputed";
    const std::string state = switch_state(layer, p.switches[*sw]);
    const std::string name = p.switches[*sw];
    if (state == "on (unstated)") return fmt::format("{} ({} unstated)", kept ? "kept" : "recomputed", name);
    return fmt::format("{} ({} {})", kept ? "kept" : "recomputed", name, state);
}

}  // namespace

Report explain_report(const RecordsEvaluator& records, const LayerDoc& layer, std::string_view slot) {
    const Program& p = records.program();
    const SourceMap* src = &p.sources;
    const SlotId id = records.slot_id(slot);
    const SlotInfo& s = p.slots[id];
    Report r;
    r.text = fmt::format("slot {} in {}, {}\n", s.name, p.layer_parts[s.layer_part], src->where(s.span));
    const SourceFile& file = src->file(s.span.file);
    const std::vector<std::uint32_t> lines = slot_lines(file, s.span.line);
    const std::size_t number_width = std::to_string(lines.empty() ? 0 : lines.back()).size();
    for (std::uint32_t l : lines) r.text += fmt::format("  {:>{}} | {}\n", l, number_width, file.line(l));

    const Bindings names = records.bind(layer);
    const KeepMask keep = records.keep_mask(layer);
    std::vector<std::string> errors;
    r.text += layer_summary(p, layer) + "\n";
    Priced held = priced([&] { return Value::boolean(slot_holds(p, id, names)); }, src);
    if (!held.value) {
        errors.push_back(held.error);
    } else if (!held.value->truthy()) {
        auto cond = when_text(p, id);
        r.text += fmt::format("  not held by this layer{}: it counts toward no part\n",
                              cond ? fmt::format(" (`{}` is false)", *cond) : "");
    }
    Table t({false, false, true, true});
    t.row({"entry", "keep", "elements"});
    Value total = Value::integer(0);  // Python's sum(): int 0, then each kept entry in order
    bool total_ok = true;
    for (std::size_t i = 0; i < s.entries.size(); ++i) {
        const RecordId rec = s.entries[i].record;
        Priced v = priced([&] { return entry_elements(p, id, i, names); }, src);
        if (!v.value) errors.push_back(v.error);
        if (keep[rec]) {
            if (v.value && total_ok) total = py::add(total, *v.value);
            else total_ok = false;
        }
        t.row({p.records[rec].name, keep_reason(p, layer, keep, rec), v.value ? repr(*v.value) : "error"});
    }
    t.row({"total", "the kept entries' sum", total_ok ? repr(total) : "error"});
    Priced bytes = priced([&] { return records.slot_bytes(layer, slot); }, src);
    if (!bytes.value) errors.push_back(bytes.error);
    t.row({"bytes", "the formula on total", exact(bytes), human(bytes)});
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

Report diff_report(const RecordsEvaluator& records, const LayerDoc& a, std::string_view a_label, const LayerDoc& b,
                   std::string_view b_label) {
    const Program& p = records.program();
    const SourceMap* src = &p.sources;
    std::vector<std::string> errors;
    auto held_of = [&](const LayerDoc& layer, std::string_view label) {
        try {
            return std::optional<Named<std::string>>(records.layer_slots(layer));
        } catch (const EvalError& e) {
            errors.push_back(fmt::format("{}: {}", label, error_line(e, src)));
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
    Table t({false, false, true, true, true, true});
    t.row({"part", "slot", "A", "B", "B - A", ""});
    // A cell: the slot's bytes where the layer holds it, "-" where not.
    auto cell = [&](const LayerDoc& layer, const Named<std::string>& held, std::string_view label,
                    const SlotInfo& s) -> std::optional<Priced> {
        if (!held_in(held, s.name)) return std::nullopt;
        Priced v = priced([&] { return records.slot_bytes(layer, s.name); }, src);
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
    std::vector<std::optional<Priced>> cells_a, cells_b;
    std::vector<std::pair<SlotId, Priced>> held_slots_a, held_slots_b;
    for (SlotId s = 0; s < p.slots.size(); ++s) {
        cells_a.push_back(cell(a, *held_a, "A", p.slots[s]));
        cells_b.push_back(cell(b, *held_b, "B", p.slots[s]));
        if (cells_a.back()) held_slots_a.emplace_back(s, *cells_a.back());
        if (cells_b.back()) held_slots_b.emplace_back(s, *cells_b.back());
    }
    const Sums sums_a = sums_of(p, held_slots_a), sums_b = sums_of(p, held_slots_b);
    // A total's cell: "-" where the layer holds nothing that adds to it.
    auto total_cell = [](bool holds, const std::optional<Value>& v) {
        return holds ? std::optional<Priced>(total_of(v)) : std::nullopt;
    };
    for (std::uint32_t part = 0; part < p.layer_parts.size(); ++part) {
        bool first = true, holds_a = false, holds_b = false;
        for (SlotId s = 0; s < p.slots.size(); ++s) {
            if (p.slots[s].layer_part != part || (!cells_a[s] && !cells_b[s])) continue;
            add_row(first ? p.layer_parts[part] : "", p.slots[s].name, cells_a[s], cells_b[s]);
            first = false;
            holds_a = holds_a || cells_a[s].has_value();
            holds_b = holds_b || cells_b[s].has_value();
        }
        if (first) continue;
        add_row("", "= " + p.layer_parts[part], total_cell(holds_a, sums_a.parts[part]),
                total_cell(holds_b, sums_b.parts[part]));
    }
    add_row("layer", "", total_cell(!held_slots_a.empty(), sums_a.layer), total_cell(!held_slots_b.empty(), sums_b.layer));
    r.text += t.render();
    append_errors(r.text, errors);
    r.ok = errors.empty();
    return r;
}

}  // namespace oprec::repl
