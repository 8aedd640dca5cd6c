// Layer: a layer document bound to its records once, changed in place, and
// priced through the fast run (typed on its second pricing).
#include <algorithm>

#include <fmt/format.h>

#include "diag/suggest.h"
#include "model/attention.h"  // kv_shards, cp_algo_doubt
#include "model/field_text.h"
#include "api/state.h"
#include "model/layer_json.h"
#include "model/field_check.h"
#include "model/layer_settings.h"
#include "model/report.h"
#include "value/format.h"
#include "value/json_writer.h"

namespace oprec {

using detail::LayerState;
using detail::to_number;
using detail::to_value;

Layer::Layer(std::unique_ptr<LayerState> state) : state_(std::move(state)) {}
Layer::Layer(const Layer& other) : state_(std::make_unique<LayerState>(*other.state_)) {}
Layer& Layer::operator=(const Layer& other) {
    if (this != &other) state_ = std::make_unique<LayerState>(*other.state_);
    return *this;
}
Layer::Layer(Layer&&) noexcept = default;
Layer& Layer::operator=(Layer&&) noexcept = default;
Layer::~Layer() = default;

static_assert(static_cast<int>(Recompute::Selective) == static_cast<int>(NodeKind::SelRec) &&
              static_cast<int>(Recompute::Full) == static_cast<int>(NodeKind::FullRec));

namespace {

FieldValue to_field_value(const Field& f) {
    if (const Number* n = std::get_if<Number>(&f)) return to_value(*n);
    if (const std::string* s = std::get_if<std::string>(&f)) return *s;
    return std::monostate{};
}

Field to_field(const FieldValue& f) {
    if (const Value* v = std::get_if<Value>(&f)) return to_number(*v);
    if (const std::string* s = std::get_if<std::string>(&f)) return *s;
    return std::monostate{};
}

// A changed field read again by every name that stands for it.
void rebind(LayerState& s, std::string_view field) {
    for (NameId id : s.records->evaluator->names_of_field(field)) s.prepared.rebind(*s.records->evaluator, s.doc, id);
}

void rekeep(LayerState& s) { s.prepared.keep() = s.records->evaluator->keep_mask(s.doc); }

template <class F>
auto pricing(const LayerState& s, F&& f) {
    try {
        return f();
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, s.records->program.sources);
    }
}

// The layer's parts into s.scratch: the untyped run until a second pricing
// of the same types asks for the typed one.
void price_parts(LayerState& s) {
    if (!s.prepared.runs_typed() && s.prepared.names().all_bound() && ++s.untyped_pricings >= 2) {
        s.prepared.make_typed();
        s.untyped_pricings = 0;
    }
    s.prepared.price(s.scratch);
}

Named<Number> named_parts(const LayerState& s) {
    Named<Number> out;
    out.reserve(s.scratch.parts.size());
    for (std::size_t k = 0; k < s.scratch.parts.size(); ++k)
        out.emplace_back(s.records->program.layer_parts[s.scratch.parts[k]], to_number(s.scratch.bytes[k]));
    return out;
}

}  // namespace

void Layer::set(std::string_view field, Field value) {
    LayerState& s = *state_;
    if (is_context_value(field)) {
        if (std::holds_alternative<std::string>(value))
            throw LayerError(fmt::format("context.{}: expected a number or none, got a string", field));
        const Number* n = std::get_if<Number>(&value);
        *s.doc.context.slot(field) = n != nullptr ? std::optional<Value>(to_value(*n)) : std::nullopt;
    } else {
        FieldValue v = to_field_value(value);
        if (std::holds_alternative<std::string>(v)) {
            LayerConfig one;
            one.set(std::string(field), v);
            try {
                check_field_types(one, s.records->program, s.source);
            } catch (const LayerDocError& e) {
                // The value is the caller's, not the document's: its source is not named.
                std::string what = e.what();
                const std::string doc_prefix = s.source + ": fields." + std::string(field) + ": ";
                if (what.rfind(doc_prefix, 0) == 0) what = fmt::format("field `{}`: {}", field, what.substr(doc_prefix.size()));
                throw LayerError(what);
            }
        }
        s.doc.fields.set(std::string(field), std::move(v));
    }
    rebind(s, field);
}

void Layer::erase(std::string_view field) {
    LayerState& s = *state_;
    if (is_context_value(field))
        *s.doc.context.slot(field) = std::nullopt;
    else if (!s.doc.fields.erase(field))
        return;
    rebind(s, field);
}

std::optional<std::string> Layer::unknown_field(std::string_view name) const {
    const LayerState& s = *state_;
    return oprec::unknown_field(s.records->program, s.doc.fields, name);
}

Named<std::string> Layer::unread_fields() const {
    const LayerState& s = *state_;
    // The usual answer first, by hashing: the messages and suggestions only
    // where some field is not one the records read.
    bool all_read = true;
    for (const auto& entry : s.doc.fields.fields())
        if (!s.records->readable.contains(entry.first) && !is_context_value(entry.first)) {
            all_read = false;
            break;
        }
    return all_read ? Named<std::string>{} : oprec::unread_fields(s.records->program, s.doc.fields);
}

Named<std::string> Layer::doubtful_fields() const {
    Named<std::string> out;
    if (auto why = cp_algo_doubt(state_->doc.fields)) out.emplace_back("cp_algo", std::move(*why));
    return out;
}

Named<std::string> Layer::unread_switches() const {
    const LayerState& s = *state_;
    const std::vector<std::string>& known = s.records->program.switches;
    Named<std::string> out;
    const auto check = [&](const SwitchMap& stated, std::string_view place) {
        for (const auto& entry : stated) {
            if (std::find(known.begin(), known.end(), entry.first) != known.end()) continue;
            std::string why = fmt::format("no switch {} in the records", quoted_name(entry.first));
            if (auto near = closest_name(entry.first, known)) why += fmt::format(" (did you mean `{}`?)", *near);
            out.emplace_back(fmt::format("{}.{}", place, entry.first), std::move(why));
        }
    };
    check(s.doc.switches, "switches");
    if (s.doc.context.switches) check(*s.doc.context.switches, "context.switches");
    return out;
}

std::optional<Field> Layer::field(std::string_view name) const {
    const LayerState& s = *state_;
    if (is_context_value(name)) {
        const auto& v = *s.doc.context.slot(name);
        return v ? Field(to_number(*v)) : Field(std::monostate{});
    }
    const FieldValue* v = s.doc.fields.find(name);
    if (v == nullptr) return std::nullopt;
    return to_field(*v);
}

std::vector<std::string> Layer::field_names() const {
    return settable_fields(state_->records->program, state_->doc.fields);
}

std::optional<bool> Layer::switch_state(std::string_view name) const {
    const SwitchMap& in_force = effective_switches(state_->doc.context, state_->doc.switches);
    const auto it = in_force.find(name);
    if (it == in_force.end()) return std::nullopt;
    return it->second.truthy();
}

Named<Field> Layer::fields() const {
    Named<Field> out;
    for (const auto& [name, value] : state_->doc.fields.fields()) out.emplace_back(name, to_field(value));
    return out;
}

Field parse_field(std::string_view text) {
    try {
        return to_field(oprec::field_from_text(text));
    } catch (const EvalError& e) {
        throw LayerError(e.what());
    }
}

std::string field_repr(const Field& field) {
    if (const Number* n = std::get_if<Number>(&field)) return n->repr();
    if (const std::string* s = std::get_if<std::string>(&field)) return str_repr(*s);
    return "None";
}

void Layer::set_switch(std::string_view name, std::optional<bool> keep) {
    LayerState& s = *state_;
    const std::vector<std::string>& known = s.records->program.switches;
    if (std::find(known.begin(), known.end(), name) == known.end()) {
        std::string msg = fmt::format("unknown switch {}", quoted_name(name));
        if (auto near = closest_name(name, known)) msg += fmt::format(" (did you mean `{}`?)", *near);
        throw LayerError(msg);
    }
    // The context's switches, when stated, take precedence over the layer's own.
    SwitchMap& target = s.doc.context.switches ? *s.doc.context.switches : s.doc.switches;
    if (keep)
        target.insert_or_assign(std::string(name), Value::integer(*keep ? 1 : 0));
    else if (auto it = target.find(name); it != target.end())
        target.erase(it);
    rekeep(s);
}

void Layer::set_recompute(Recompute r) {
    state_->doc.context.node = static_cast<NodeKind>(r);
    rekeep(*state_);
}

std::string_view recompute_name(Recompute r) { return node_kind_name(static_cast<NodeKind>(r)); }

Recompute Layer::recompute() const { return static_cast<Recompute>(state_->doc.context.node); }

Named<Number> Layer::parts() const {
    LayerState& s = *state_;
    return pricing(s, [&] {
        price_parts(s);
        return named_parts(s);
    });
}

Number Layer::total() const {
    LayerState& s = *state_;
    // A fully recomputed layer keeps its input; a layer from a Hugging Face
    // config knows its family's shard, one from a document shards nothing.
    if (s.doc.context.node == NodeKind::FullRec)
        return pricing(s, [&] {
            return to_number(s.full_input ? s.full_input(s.doc) : full_recompute_input(s.doc, Value::integer(1)));
        });
    return pricing(s, [&] {
        price_parts(s);
        return to_number(PartSums::layer(s.scratch.bytes.data(), s.scratch.bytes.size()));
    });
}

Number Layer::slot(std::string_view slot) const {
    const LayerState& s = *state_;
    return pricing(s, [&] { return to_number(s.prepared.slot(s.records->evaluator->slot_id(slot))); });
}

Number Layer::slot(std::string_view slot, std::string_view only) const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const RecordsEvaluator& r = *s.records->evaluator;
        const SlotId id = r.slot_id(slot);
        return to_number(price_slot(r.program(), id, s.prepared.names(), only_mask(r.program(), r.record_id(only))));
    });
}

std::vector<SlotBytes> Layer::slots() const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const Program& p = s.records->program;
        std::vector<SlotBytes> out;
        for (SlotId id = 0; id < p.slots.size(); ++id)
            out.push_back({p.slots[id].name, p.layer_parts[p.slots[id].layer_part],
                           slot_holds(p, id, s.prepared.names()), to_number(s.prepared.slot(id))});
        return out;
    });
}

std::vector<EntryBytes> Layer::entries(std::string_view slot) const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const Program& p = s.records->program;
        const SlotId id = s.records->evaluator->slot_id(slot);
        const SlotInfo& info = p.slots[id];
        std::vector<EntryBytes> out;
        for (std::size_t i = 0; i < info.entries.size(); ++i) {
            const RecordId record = info.entries[i].record;
            // The slot with this entry alone: a mask keeping only its record
            // (only_mask would also keep the op's parts, other entries).
            KeepMask alone(s.prepared.keep().size(), 0);
            alone[record] = 1;
            out.push_back({p.records[record].name, s.prepared.keep()[record] != 0,
                           to_number(oprec::entry_elements(p, id, i, s.prepared.names())),
                           to_number(price_slot(p, id, s.prepared.names(), alone))});
        }
        return out;
    });
}

bool Layer::holds(std::string_view slot) const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        return slot_holds(s.records->program, s.records->evaluator->slot_id(slot), s.prepared.names());
    });
}

std::vector<EntryElements> Layer::entry_elements(std::string_view slot) const {
    const LayerState& s = *state_;
    const Program& p = s.records->program;
    const SlotId id = pricing(s, [&] { return s.records->evaluator->slot_id(slot); });
    std::vector<EntryElements> out;
    for (std::size_t i = 0; i < p.slots[id].entries.size(); ++i) {
        const RecordId record = p.slots[id].entries[i].record;
        EntryElements e{p.records[record].name, s.prepared.keep()[record] != 0, std::nullopt, std::nullopt};
        try {
            e.elements = to_number(oprec::entry_elements(p, id, i, s.prepared.names()));
        } catch (const EvalError& err) {
            e.error = detail::pricing_error(err, p.sources);
        }
        out.push_back(std::move(e));
    }
    return out;
}

std::optional<Number> Layer::read(std::string_view name) const {
    const LayerState& s = *state_;
    const Program& p = s.records->program;
    return pricing(s, [&]() -> std::optional<Number> {
        if (const auto id = p.find_name(name)) return to_number(s.prepared.names().load(*id, 0));
        if (is_context_value(name)) return to_number(s.doc.context.value(name));
        if (name == "kv_shards") return to_number(kv_shards(s.doc.fields));
        if (s.doc.fields.contains(name)) return to_number(s.doc.fields.number(name));
        return std::nullopt;
    });
}

Named<std::string> Layer::held_slots() const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const Program& p = s.records->program;
        Named<std::string> out;
        for (SlotId id = 0; id < p.slots.size(); ++id)
            if (slot_holds(p, id, s.prepared.names())) out.emplace_back(p.slots[id].name, p.layer_parts[p.slots[id].layer_part]);
        return out;
    });
}

Named<Number> Layer::op(std::string_view op) const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const Program& p = s.records->program;
        const RecordsEvaluator& records = *s.records->evaluator;
        const RecordId record = records.record_id(op);
        const KeepMask& keep = records.only_mask(record);
        // Every `when` first, as the reference's op bytes reads layer_slots:
        // a `when` that raises raises here, whichever slots keep the op.
        std::vector<std::uint8_t> held(p.slots.size(), 0);
        for (SlotId id = 0; id < p.slots.size(); ++id) held[id] = slot_holds(p, id, s.prepared.names()) ? 1 : 0;
        Named<Number> out;
        for (SlotId id : records.keeping_slots(record))
            if (held[id]) out.emplace_back(p.slots[id].name, to_number(price_slot(p, id, s.prepared.names(), keep)));
        return out;
    });
}

std::vector<Setting> Layer::settings() const {
    const LayerState& s = *state_;
    return pricing(s, [&] {
        const LayerSettings table(*s.records->evaluator, s.doc);
        std::vector<Setting> out;
        const std::uint32_t n = 1u << table.switch_count();
        out.reserve(n);
        std::vector<Value> parts;  // by table.part_names(): the tables' fast path, no mask built
        for (std::uint32_t bits = 0; bits < n; ++bits) {
            table.selective_parts(bits, parts);
            Setting setting{bits, {}, to_number(table.selective_total(bits))};
            setting.parts.reserve(parts.size());
            for (std::size_t k = 0; k < parts.size(); ++k) setting.parts.emplace_back(table.part_names()[k], to_number(parts[k]));
            out.push_back(std::move(setting));
        }
        return out;
    });
}

Report Layer::report(const ReportOptions& options) const {
    const LayerState& s = *state_;
    // An op the records lack is the caller's mistake, as for slot(), not an
    // error in every slot's place.
    if (options.only) pricing(s, [&] { return s.records->evaluator->record_id(*options.only); });
    ReportQuery internal;
    internal.only = options.only;
    internal.indent = options.indent;
    ReportText text = write_report(*s.records->evaluator, s.doc, s.prepared.names(), s.prepared.keep(), internal);
    return {std::move(text.json), text.complete};
}

std::string Layer::document_json(int indent) const { return json_text(layer_doc_json(state_->doc), indent); }

}  // namespace oprec
