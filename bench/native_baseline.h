// The shipped records' formulas (records/op_records.rec with stdlib/ffn.rec)
// hand-written in C++: the yardstick the interpreter is measured against.
// Same names (read from the same Bindings, resolved to NameIds once), same
// keep mask, same operations in the same order and Python's arithmetic
// (code/fast_arith.h, which the interpreter uses too), so it prices a layer
// to the interpreter's bits; `oprec bench`, bench/ and a unit test check that.
// It is not a second implementation to trust: edit the records and it is
// simply stale (the cross-check then says so).
#pragma once

#include <array>
#include <optional>

#include "check/program.h"
#include "eval/pricing.h"

namespace oprec {

// The same bits, type included: how the baseline is checked against the records.
bool same_bits(Value x, Value y);
bool same_bits(const PartBytes& x, const PartBytes& y);

class NativeBaseline {
public:
    // nullopt when `program` lacks a slot, record or name the baseline reads
    // (records other than the shipped ones).
    static std::optional<NativeBaseline> for_program(const Program& program);

    // The slot's bytes, as price_slot.
    Value qkv(const Bindings& names, const KeepMask& keep) const;
    Value score(const Bindings& names, const KeepMask& keep) const;
    Value proj(const Bindings& names, const KeepMask& keep) const;
    Value ffn(const Bindings& names, const KeepMask& keep) const;
    Value routed(const Bindings& names, const KeepMask& keep) const;
    Value shared(const Bindings& names, const KeepMask& keep) const;
    Value router(const Bindings& names, const KeepMask& keep) const;
    Value norm(const Bindings& names, const KeepMask& keep) const;

    // Any of the above by the program's SlotId; nullopt for a slot it has no form of.
    std::optional<Value> slot(SlotId slot, const Bindings& names, const KeepMask& keep) const;
    // As price_layer: every `when`, then each held slot added to its part.
    void price_layer(const Bindings& names, const KeepMask& keep, PartBytes& out) const;

private:
    NativeBaseline() = default;

    enum Name : unsigned {
        micro_factor, dropless_tok_factor, kv_shards, s, b, t, cp, sp, h, a, n_kv, dh, dhr, dc_q, dc_kv, s_fa,
        bytes_compute, bytes_softmax, bytes_dropout, bytes_norm, n_attMM, n_attParamCast, n_attBMM, n_softmax,
        n_dropout, n_ffMM, n_ffParamCast, n_normOp, n_qknorm, hff, hff_exp, n_exp, n_chosen_exp, n_shared_exp,
        cap_fact, gmm, kNameCount
    };
    enum Record : unsigned { attMM, attUp, attBMM, softmax, dropout, headCast, ffMM, ffAct, normOp, kRecordCount };
    enum Slot : unsigned { qkv_s, score_s, proj_s, ffn_s, routed_s, shared_s, router_s, norm_s, kSlotCount };

    Value ffn_elements(const Bindings& names, Value width) const;
    Value load(const Bindings& names, Name n) const { return names.load(names_[n], 0); }
    bool kept(const KeepMask& keep, Record r) const { return keep[records_[r]] != 0; }

    std::array<NameId, kNameCount> names_{};
    std::array<RecordId, kRecordCount> records_{};
    std::array<SlotId, kSlotCount> slots_{};
    std::array<std::uint32_t, kSlotCount> parts_{};
};

}  // namespace oprec
