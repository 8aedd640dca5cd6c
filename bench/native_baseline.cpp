#include "native_baseline.h"

#include <bit>
#include <string_view>

#include "code/fast_arith.h"

namespace oprec {

bool same_bits(Value x, Value y) {
    if (x.type != y.type) return false;
    if (x.is_float()) return std::bit_cast<std::uint64_t>(x.f) == std::bit_cast<std::uint64_t>(y.f);
    return x.as_int() == y.as_int();
}

bool same_bits(const PartBytes& x, const PartBytes& y) {
    if (x.parts != y.parts || x.held != y.held || x.bytes.size() != y.bytes.size()) return false;
    for (std::size_t k = 0; k < x.bytes.size(); ++k)
        if (!same_bits(x.bytes[k], y.bytes[k])) return false;
    return true;
}

namespace {

using fast::add;
using fast::mul;
using fast::truediv;

constexpr Value I(std::int64_t v) { return Value::integer(v); }
constexpr Value F(double v) { return Value::real(v); }
bool eq(Value x, Value y) { return fast::compare(py::CmpOp::Eq, x, y); }

// Python's max(a, b): the first unless the second is greater.
Value max2(Value x, Value y) { return fast::compare(py::CmpOp::Gt, y, x) ? y : x; }

// Python's sum(): int 0, then each kept entry in order.
struct Sum {
    Value total = I(0);
    void operator+=(Value v) { total = add(total, v); }
};

constexpr std::string_view kNames[] = {
    "micro_factor", "dropless_tok_factor", "kv_shards", "s", "b", "t", "cp", "sp", "h", "a", "n_kv", "dh", "dhr",
    "dc_q", "dc_kv", "s_fa", "bytes_compute", "bytes_softmax", "bytes_dropout", "bytes_norm", "n_attMM",
    "n_attParamCast", "n_attBMM", "n_softmax", "n_dropout", "n_ffMM", "n_ffParamCast", "n_normOp", "n_qknorm",
    "hff", "hff_exp", "n_exp", "n_chosen_exp", "n_shared_exp", "cap_fact", "gmm"};
constexpr std::string_view kRecords[] = {"attMM", "attUp", "attBMM", "softmax", "dropout",
                                         "headCast", "ffMM", "ffAct", "normOp"};
constexpr std::string_view kSlots[] = {"qkv", "score", "proj", "ffn", "routed", "shared", "router", "norm"};
// Each slot's entries, by record, in the order the records write them.
const std::vector<std::vector<std::string_view>> kEntries = {
    {"attMM", "attUp", "attBMM"}, {"softmax", "dropout", "headCast"}, {"attMM", "dropout"}, {"ffMM", "ffAct"},
    {"ffMM", "ffAct"}, {"ffMM", "ffAct"}, {"ffMM"}, {"normOp"}};

}  // namespace

std::optional<NativeBaseline> NativeBaseline::for_program(const Program& program) {
    static_assert(std::size(kNames) == kNameCount && std::size(kRecords) == kRecordCount &&
                  std::size(kSlots) == kSlotCount);
    NativeBaseline n;
    for (unsigned k = 0; k < kNameCount; ++k) {
        auto id = program.find_name(kNames[k]);
        if (!id) return std::nullopt;
        n.names_[k] = *id;
    }
    for (unsigned k = 0; k < kRecordCount; ++k) {
        auto id = program.find_record(kRecords[k]);
        if (!id) return std::nullopt;
        n.records_[k] = *id;
    }
    if (program.slots.size() != kSlotCount) return std::nullopt;
    for (unsigned k = 0; k < kSlotCount; ++k) {
        auto id = program.find_slot(kSlots[k]);
        if (!id || *id != k) return std::nullopt;  // the baseline's order is the records'
        n.slots_[k] = *id;
        n.parts_[k] = program.slots[*id].layer_part;
        const auto& entries = program.slots[*id].entries;
        if (entries.size() != kEntries[k].size()) return std::nullopt;
        for (std::size_t e = 0; e < entries.size(); ++e)
            if (program.records[entries[e].record].name != kEntries[k][e]) return std::nullopt;
    }
    return n;
}

// ffn_elements(width) = (
//     (0.5 * h + 0.5 * width if n_ffMM % 2 == 0 else 1 / 3 * h + 2 / 3 * width) * (bytes_compute * n_ffMM)
//     + bytes_compute * width * n_ffParamCast)
Value NativeBaseline::ffn_elements(const Bindings& n, Value width) const {
    Value block;
    if (eq(py::mod(load(n, n_ffMM), I(2)), I(0))) {
        block = add(mul(F(0.5), load(n, h)), mul(F(0.5), width));
    } else {
        block = add(mul(F(1.0 / 3.0), load(n, h)), mul(F(2.0 / 3.0), width));
    }
    const Value first = mul(block, mul(load(n, bytes_compute), load(n, n_ffMM)));
    return add(first, mul(mul(load(n, bytes_compute), width), load(n, n_ffParamCast)));
}

Value NativeBaseline::qkv(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, attMM)) {
        const Value mm = add(load(n, n_attMM), load(n, n_attParamCast));
        if (eq(load(n, dc_kv), I(0))) {
            // 0.25 * (n_attMM + n_attParamCast) * h + 0.5 * (...) * dh * n_kv * cp / kv_shards
            const Value x = mul(mul(F(0.25), mm), load(n, h));
            const Value y = truediv(mul(mul(mul(mul(F(0.5), mm), load(n, dh)), load(n, n_kv)), load(n, cp)),
                                    load(n, kv_shards));
            sum += add(x, y);
        } else {
            // 0.25 * (...) * (dc_q + (0 if dc_q else 2 * a * (dh + dhr)))
            // + (0.25 * (...) * dhr + 0.25 * (...) * (n_kv * dh + dc_kv)) * cp / kv_shards
            const Value q = load(n, dc_q);
            const Value heads = q.truthy() ? I(0) : mul(mul(I(2), load(n, a)), add(load(n, dh), load(n, dhr)));
            const Value x = mul(mul(F(0.25), mm), add(q, heads));
            const Value r = mul(mul(F(0.25), mm), load(n, dhr));
            const Value kv = mul(mul(F(0.25), mm), add(mul(load(n, n_kv), load(n, dh)), load(n, dc_kv)));
            sum += add(x, truediv(mul(add(r, kv), load(n, cp)), load(n, kv_shards)));
        }
    }
    if (kept(keep, attUp)) {
        if (eq(load(n, dc_kv), I(0))) {
            sum += I(0);
        } else {
            // 0.25 * (...) * (2 * a * (dh + dhr) if dc_q else 0)
            // + 0.25 * (...) * n_kv * (2 * dh + dhr) * cp / kv_shards
            const Value mm = add(load(n, n_attMM), load(n, n_attParamCast));
            const Value q = load(n, dc_q).truthy() ? mul(mul(I(2), load(n, a)), add(load(n, dh), load(n, dhr))) : I(0);
            const Value x = mul(mul(F(0.25), mm), q);
            const Value kv = mul(mul(mul(F(0.25), mm), load(n, n_kv)), add(mul(I(2), load(n, dh)), load(n, dhr)));
            sum += add(x, truediv(mul(kv, load(n, cp)), load(n, kv_shards)));
        }
    }
    if (kept(keep, attBMM)) sum += mul(load(n, n_attBMM), load(n, dh));
    // micro_factor * (s * b * bytes_compute * total) / (t * cp)
    const Value inner = mul(mul(mul(load(n, s), load(n, b)), load(n, bytes_compute)), sum.total);
    return truediv(mul(load(n, micro_factor), inner), mul(load(n, t), load(n, cp)));
}

Value NativeBaseline::score(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, softmax)) sum += mul(load(n, n_softmax), load(n, bytes_softmax));
    if (kept(keep, dropout)) sum += mul(load(n, n_softmax), load(n, bytes_dropout));
    if (kept(keep, headCast)) sum += mul(load(n, n_softmax), load(n, bytes_compute));
    // micro_factor * (s_fa * b * a * s * total) / (t * cp * 1)
    const Value inner = mul(mul(mul(mul(load(n, s_fa), load(n, b)), load(n, a)), load(n, s)), sum.total);
    return truediv(mul(load(n, micro_factor), inner), mul(mul(load(n, t), load(n, cp)), I(1)));
}

Value NativeBaseline::proj(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, attMM)) sum += mul(F(0.25), add(load(n, n_attMM), load(n, n_attParamCast)));
    if (kept(keep, dropout)) sum += mul(load(n, n_dropout), load(n, bytes_dropout));
    // micro_factor * (s * b * h * bytes_compute * total) / max(sp, cp)
    const Value inner = mul(mul(mul(mul(load(n, s), load(n, b)), load(n, h)), load(n, bytes_compute)), sum.total);
    return truediv(mul(load(n, micro_factor), inner), max2(load(n, sp), load(n, cp)));
}

Value NativeBaseline::ffn(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, ffMM)) sum += ffn_elements(n, load(n, hff));
    if (kept(keep, ffAct)) sum += mul(load(n, bytes_compute), load(n, hff));
    // micro_factor * (s * b) * total / (t * cp)
    const Value x = mul(mul(load(n, micro_factor), mul(load(n, s), load(n, b))), sum.total);
    return truediv(x, mul(load(n, t), load(n, cp)));
}

Value NativeBaseline::routed(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, ffMM)) sum += ffn_elements(n, load(n, hff_exp));
    if (kept(keep, ffAct)) sum += mul(load(n, bytes_compute), load(n, hff_exp));
    // micro_factor * (s * b) * total / (t * cp) / (s * b)
    // * (s * b * n_chosen_exp / n_exp * cap_fact * n_exp if not gmm
    //    else s * b * n_chosen_exp / n_exp * n_exp * dropless_tok_factor)
    const Value x = mul(mul(load(n, micro_factor), mul(load(n, s), load(n, b))), sum.total);
    const Value per_token = truediv(truediv(x, mul(load(n, t), load(n, cp))), mul(load(n, s), load(n, b)));
    const Value chosen = truediv(mul(mul(load(n, s), load(n, b)), load(n, n_chosen_exp)), load(n, n_exp));
    const Value tokens = !load(n, gmm).truthy() ? mul(mul(chosen, load(n, cap_fact)), load(n, n_exp))
                                                : mul(mul(chosen, load(n, n_exp)), load(n, dropless_tok_factor));
    return mul(per_token, tokens);
}

Value NativeBaseline::shared(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, ffMM)) sum += ffn_elements(n, load(n, hff_exp));
    if (kept(keep, ffAct)) sum += mul(load(n, bytes_compute), load(n, hff_exp));
    // n_shared_exp * (micro_factor * (s * b) * total / (t * cp))
    const Value shared_exp = load(n, n_shared_exp);
    const Value x = mul(mul(load(n, micro_factor), mul(load(n, s), load(n, b))), sum.total);
    return mul(shared_exp, truediv(x, mul(load(n, t), load(n, cp))));
}

Value NativeBaseline::router(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, ffMM)) {
        // s * b * bytes_compute * (2 * n_exp + n_chosen_exp) + s * b * bytes_compute * h
        const Value x = mul(mul(mul(load(n, s), load(n, b)), load(n, bytes_compute)),
                            add(mul(I(2), load(n, n_exp)), load(n, n_chosen_exp)));
        sum += add(x, mul(mul(mul(load(n, s), load(n, b)), load(n, bytes_compute)), load(n, h)));
    }
    // micro_factor * total / (t * cp)
    return truediv(mul(load(n, micro_factor), sum.total), mul(load(n, t), load(n, cp)));
}

Value NativeBaseline::norm(const Bindings& n, const KeepMask& keep) const {
    Sum sum;
    if (kept(keep, normOp)) {
        // h * n_normOp + n_qknorm * (a + n_kv) * (dh or (h / a if a else 0))
        const Value x = mul(load(n, h), load(n, n_normOp));
        const Value heads = mul(load(n, n_qknorm), add(load(n, a), load(n, n_kv)));
        Value width = load(n, dh);
        if (!width.truthy()) width = load(n, a).truthy() ? truediv(load(n, h), load(n, a)) : I(0);
        sum += add(x, mul(heads, width));
    }
    // micro_factor * (s * b * bytes_norm * total) / (t * cp)
    const Value inner = mul(mul(mul(load(n, s), load(n, b)), load(n, bytes_norm)), sum.total);
    return truediv(mul(load(n, micro_factor), inner), mul(load(n, t), load(n, cp)));
}

std::optional<Value> NativeBaseline::slot(SlotId slot, const Bindings& n, const KeepMask& keep) const {
    switch (slot) {
    case qkv_s: return qkv(n, keep);
    case score_s: return score(n, keep);
    case proj_s: return proj(n, keep);
    case ffn_s: return ffn(n, keep);
    case routed_s: return routed(n, keep);
    case shared_s: return shared(n, keep);
    case router_s: return router(n, keep);
    case norm_s: return norm(n, keep);
    default: return std::nullopt;
    }
}

void NativeBaseline::price_layer(const Bindings& n, const KeepMask& keep, PartBytes& out) const {
    out.clear();
    // The `when`s: ffn where n_exp == 1, the MoE slots where n_exp != 1.
    const bool dense = eq(load(n, n_exp), I(1));
    for (unsigned k = 0; k < kSlotCount; ++k) {
        const bool holds = k == ffn_s ? dense : (k == routed_s || k == shared_s || k == router_s) ? !dense : true;
        if (holds) out.held.push_back(slots_[k]);
    }
    for (SlotId s : out.held) {
        const std::uint32_t part = parts_[s];
        std::size_t k = 0;
        while (k < out.parts.size() && out.parts[k] != part) ++k;
        if (k == out.parts.size()) {
            out.parts.push_back(part);
            out.bytes.push_back(F(0.0));
        }
        out.bytes[k] = add(out.bytes[k], *slot(s, n, keep));
    }
}

}  // namespace oprec
