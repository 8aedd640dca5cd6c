// The records priced on a layer (the reference's EvalRecords): a layer's
// names bound for the interpreter, the keep factors its switches give, and
// the entry points: a slot's bytes, the slots a layer holds, an op's bytes
// by slot, the layer's bytes by part.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "check/program.h"
#include "eval/records.h"
#include "model/layer.h"

namespace oprec {

// Values that stand for the layer's fields (the ffn's `hff` at another width).
using Overrides = std::vector<std::pair<std::string, Value>>;

template <class T>
using Named = std::vector<std::pair<std::string, T>>;  // in the records' order

struct SlotQuery {
    const SwitchMap* switches = nullptr;   // explicit switches, over the context's and the layer's
    const Overrides* overrides = nullptr;
    std::optional<std::string> only;       // an op (with its parts) or a part alone
};

class RecordsEvaluator {
public:
    explicit RecordsEvaluator(const Program& program) : program_(program) {}

    const Program& program() const { return program_; }

    // The value of every name a record reads: an override, the context's
    // micro_factor / dropless_tok_factor, kv_shards, the field (or the
    // records' default), in that order; a name with none raises when read.
    Bindings bind(const LayerDoc& layer, const Overrides* overrides = nullptr) const;
    // 1 for an entry the layer keeps: a record with no switch, any record of a
    // layer that is not selective, else the switch's state (unstated: keep).
    KeepMask keep_mask(const LayerDoc& layer, const SwitchMap* switches = nullptr) const;

    SlotId slot_id(std::string_view slot) const;      // throws EvalError(UnknownSlot)
    RecordId record_id(std::string_view op) const;    // throws EvalError(UnknownOp)

    Value slot_bytes(const LayerDoc& layer, std::string_view slot, const SlotQuery& query = {}) const;
    Named<std::string> layer_slots(const LayerDoc& layer) const;  // slot -> layer part, where held
    Named<Value> op_bytes(const LayerDoc& layer, std::string_view op) const;
    Named<Value> layer_bytes(const LayerDoc& layer, const SwitchMap* switches = nullptr) const;

private:
    const Program& program_;
};

}  // namespace oprec
