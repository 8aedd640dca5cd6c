// The records priced on a layer (the reference's EvalRecords): a layer's
// names bound for the interpreter, the keep factors its switches give, and
// the entry points: a slot's bytes, the slots a layer holds, an op's bytes
// by slot, the layer's bytes by part.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "check/program.h"
#include "eval/layer_code.h"
#include "eval/pricing.h"
#include "model/layer.h"
#include "oprec/named.h"

namespace oprec {

// Values that stand for the layer's fields (the ffn's `hff` at another width).
using Overrides = std::vector<std::pair<std::string, Value>>;


struct SlotQuery {
    const SwitchMap* switches = nullptr;   // explicit switches, over the context's and the layer's
    const Overrides* overrides = nullptr;
    std::optional<std::string> only;       // an op (with its parts) or a part alone
};

class RecordsEvaluator {
public:
    // Indexes the program's names (the program must outlive the evaluator).
    explicit RecordsEvaluator(const Program& program);

    const Program& program() const { return program_; }
    // Which run prices a layer (RunTier, eval/pricing.h): Auto unless set,
    // to compare the tiers. Set it before preparing layers.
    void set_tier(RunTier tier) { tier_ = tier; }
    RunTier tier() const { return tier_; }

    // The value of every name a record reads: an override, the context's
    // micro_factor / dropless_tok_factor, kv_shards, the field (or the
    // records' default), in that order; a name with none raises when read.
    Bindings bind(const LayerDoc& layer, const Overrides* overrides = nullptr) const;
    // The same for one name, after the layer changed: its value or error into `names`.
    void bind_one(const LayerDoc& layer, NameId name, Bindings& names) const;
    // The names that stand for `field`: the field's own name, and kv_shards
    // where the field is one kv_shards is derived from.
    std::vector<NameId> names_of_field(std::string_view field) const;
    // 1 for an entry the layer keeps: a record with no switch, any record of a
    // layer that is not selective, else the switch's state (unstated: keep).
    KeepMask keep_mask(const LayerDoc& layer, const SwitchMap* switches = nullptr) const;

    // Pricing `record` alone: its keep mask (only_mask) and the slots it
    // keeps in (Program::keeps), found once, as a report asks for every
    // record's on every layer.
    const KeepMask& only_mask(RecordId record) const { return only_masks_[record]; }
    const std::vector<SlotId>& keeping_slots(RecordId record) const { return keeping_slots_[record]; }
    SlotId slot_id(std::string_view slot) const;      // throws EvalError(UnknownSlot)
    RecordId record_id(std::string_view op) const;    // throws EvalError(UnknownOp)

    Value slot_bytes(const LayerDoc& layer, std::string_view slot, const SlotQuery& query = {}) const;
    Named<std::string> layer_slots(const LayerDoc& layer) const;  // slot -> layer part, where held
    Named<Value> op_bytes(const LayerDoc& layer, std::string_view op) const;
    Named<Value> layer_bytes(const LayerDoc& layer, const SwitchMap* switches = nullptr) const;

private:
    // Where a name's value comes from (overrides aside), decided once.
    enum class Source : std::uint8_t { Context, KvShards, Field };
    void bind_stated(const LayerDoc& layer, NameId id, const FieldValue* stated, Bindings& names) const;

    const Program& program_;
    std::vector<Source> sources_;                           // by NameId
    std::unordered_map<std::string_view, NameId> by_name_;  // views of program_.names
    std::shared_ptr<const LayerCode> layer_code_;           // every slot in one run (shared by PreparedLayers)
    std::vector<KeepMask> only_masks_;                      // by RecordId
    std::vector<std::vector<SlotId>> keeping_slots_;        // by RecordId
    RunTier tier_ = RunTier::Auto;

    friend class PreparedLayer;
};

// A layer bound once and priced many times, as a search does between
// changes: bind() and keep_mask() done once, and the caller may change a
// name (set_name, by NameId) or the mask (keep(), by RecordId) between
// pricings.
class PreparedLayer {
public:
    // `typed`: specialise the register run now (a few microseconds), else
    // on make_typed(), for a layer priced once.
    PreparedLayer(const RecordsEvaluator& records, const LayerDoc& layer, const SwitchMap* switches = nullptr,
                  const Overrides* overrides = nullptr, bool typed = true);
    void make_typed();
    bool has_typed() const { return typed_.has_value(); }

    const Program& program() const { return *program_; }
    const Bindings& names() const { return names_; }
    // A name's value changed between pricings (names_ only changes here, so
    // the typed run knows when a name's type changed, or a pinned name's value).
    void set_name(NameId name, Value v);
    // The layer changed: read `name` from it again (RecordsEvaluator::bind_one).
    void rebind(const RecordsEvaluator& records, const LayerDoc& layer, NameId name);
    KeepMask& keep() { return keep_; }
    const KeepMask& keep() const { return keep_; }

    // layer_bytes by part index into `out`: no allocation once `out` has grown.
    void price(PartBytes& out) const { price_layer(*layer_code_, *program_, names_, keep_, out, typed(), tier_); }
    // One slot, held or not (slot_bytes).
    Value slot(SlotId slot) const { return price_slot(*program_, slot, names_, keep_); }
    // Whether the next pricing takes the typed run (the names' types, the
    // mask and the pinned names' values as when bound), not the untyped one.
    bool runs_typed() const { return typed() != nullptr; }
    // RecordsEvaluator::layer_bytes: by part name.
    Named<Value> layer_bytes() const;
    // The layer's run as it is compiled (eval/code_dump.h): its register
    // code, and the typed run if it has one.
    std::string dump_code() const;

private:
    // The register run typed for the names' types and the mask when bound,
    // its branches decided for the values of the names they test, while no
    // name has changed type, those names their values, and the mask is the same.
    const RegisterCode* typed() const {
        return typed_ && pins_held_ && names_.type_changes() == typed_for_ && keep_ == typed_keep_ ? &*typed_
                                                                                                   : nullptr;
    }

    const Program* program_;
    std::shared_ptr<const LayerCode> layer_code_;
    RunTier tier_ = RunTier::Auto;  // the evaluator's
    Bindings names_;
    KeepMask keep_;
    std::optional<RegisterCode> typed_;
    std::uint64_t typed_for_ = 0;  // names_.type_changes() when typed_ was made
    KeepMask typed_keep_;          // keep_ then
    std::vector<std::uint8_t> pinned_;  // by NameId: one of typed_'s pins (set_name checks them)
    bool pins_held_ = true;             // pins_hold(*typed_, names_) as set_name last found it
};

}  // namespace oprec
