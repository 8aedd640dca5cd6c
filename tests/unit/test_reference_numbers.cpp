// The numbers the reference's own tests pin (docs/domain.md §5: test_layer_block,
// test_op_records) and the worked layers of §2.4 (Llama-2-7B, Mixtral-8x7B,
// DeepSeek-V3 dense and MoE at tp=4, cp=2, s=4096, bf16), each a named
// case, priced through the shipped records (the bundled examples/*.json
// hold the §2.4 layers).
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "check/loader.h"
#include "eval/expression.h"
#include "golden/records_fixture.h"
#include "model/activations.h"
#include "model/evaluator.h"
#include "value/arith.h"
#include "value/format.h"

using namespace oprec;

namespace {

const RecordsEvaluator& shipped() {
    static const RecordsEvaluator records(testing::shipped_records());
    return records;
}

LayerDoc example(const std::string& name) {
    const std::string path = OPREC_TEST_DATA "/../examples/" + name + ".json";
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return parse_layer_doc_text(text.str(), path);
}

void set_all(LayerDoc& doc, std::initializer_list<std::pair<const char*, Value>> fields) {
    for (const auto& [name, value] : fields) doc.fields.set(name, value);
}

Value I(std::int64_t v) { return Value::integer(v); }

double bytes(const LayerDoc& doc, const char* slot) { return shipped().slot_bytes(doc, slot).as_double(); }

// The layer's bytes: its parts' sum, in the records' order, as Python adds them.
double layer_total(const LayerDoc& doc) {
    Value total = Value::real(0.0);
    for (const auto& [part, b] : shipped().layer_bytes(doc)) total = py::add(total, b);
    return total.as_double();
}

// HyperParallel's selective policy: attBMM kept, the six other switches
// recomputing, attUp unstated (kept). The context's switches: they take
// precedence over the layer's own (the examples' context states an empty set).
LayerDoc hyperparallel_selective(LayerDoc doc) {
    doc.context.node = NodeKind::SelRec;
    doc.context.switches = SwitchMap{{"attBMM", I(1)}, {"headCast", I(0)}, {"dropout", I(0)}, {"softmax", I(0)},
                    {"normOp", I(0)}, {"gather", I(0)}, {"ffAct", I(0)}};
    return doc;
}

// test_layer_block 1 and 2: the score slot of a tiny layer.
LayerDoc score_layer() {
    LayerDoc doc;
    set_all(doc, {{"s_fa", I(4)}, {"b", I(1)}, {"a", I(2)}, {"s", I(4)}, {"n_softmax", I(1)}, {"t", I(1)},
                  {"cp", I(1)}, {"bytes_softmax", I(4)}, {"bytes_dropout", I(1)}, {"bytes_compute", I(2)}});
    return doc;
}

// test_layer_block 3: the qkv slot of a small GQA layer.
LayerDoc kv_layer(std::int64_t cp, const char* algo) {
    LayerDoc doc;
    set_all(doc, {{"s", I(64)}, {"b", I(1)}, {"h", I(128)}, {"a", I(4)}, {"n_kv", I(2)}, {"dh", I(32)},
                  {"dhr", I(0)}, {"dc_q", I(0)}, {"dc_kv", I(0)}, {"n_attMM", I(4)}, {"n_attParamCast", I(0)},
                  {"n_attBMM", I(2)}, {"bytes_compute", I(2)}, {"t", I(1)}, {"cp", I(cp)}});
    doc.fields.set("cp_algo", std::string(algo));
    return doc;
}

// test_layer_block 7: 16 tokens, experts at hff_exp.
LayerDoc moe_layer() {
    LayerDoc doc;
    set_all(doc, {{"s", I(16)}, {"b", I(1)}, {"h", I(64)}, {"hff", I(128)}, {"hff_exp", I(32)}, {"n_exp", I(4)},
                  {"n_chosen_exp", I(2)}, {"n_shared_exp", I(1)}, {"gmm", Value::boolean(true)},
                  {"cap_fact", I(1)}, {"n_ffMM", I(3)}, {"n_ffParamCast", I(0)}, {"bytes_compute", I(2)},
                  {"t", I(1)}, {"cp", I(1)}});
    return doc;
}

// test_layer_block 8 and 9: the norm slot with a QK-norm.
LayerDoc qknorm_layer(std::int64_t n_qknorm) {
    LayerDoc doc;
    set_all(doc, {{"h", I(64)}, {"a", I(4)}, {"n_kv", I(2)}, {"dh", I(32)}, {"n_normOp", I(2)}, {"s", I(8)},
                  {"b", I(1)}, {"bytes_norm", I(4)}, {"t", I(1)}, {"cp", I(1)}, {"n_qknorm", I(n_qknorm)}});
    return doc;
}

}  // namespace

// ---- test_layer_block (docs/domain.md §5) ------------------------------------

TEST_CASE("test_layer_block 1: a plain layer keeps the softmax whatever its switch", "[reference]") {
    LayerDoc doc = score_layer();
    CHECK(activations::attn_score(shipped(), doc).as_double() == 224.0);
    doc.switches = {{"softmax", I(0)}};
    CHECK(activations::attn_score(shipped(), doc).as_double() == 224.0);
    doc.switches = {{"softmax", I(1)}};
    CHECK(activations::attn_score(shipped(), doc).as_double() == 224.0);
}

TEST_CASE("test_layer_block 2: a selective layer drops the softmax", "[reference]") {
    LayerDoc doc = score_layer();
    doc.context.node = NodeKind::SelRec;
    doc.switches = {{"softmax", I(1)}};
    const double kept = activations::attn_score(shipped(), doc).as_double();
    doc.switches = {{"softmax", I(0)}};
    const double dropped = activations::attn_score(shipped(), doc).as_double();
    CHECK(kept == 224.0);
    CHECK(kept - dropped == 4.0 * 1 * 2 * 4 * 4);  // 128
}

TEST_CASE("test_layer_block 3: keys and values under context parallelism", "[reference]") {
    CHECK(activations::attn_qkv(shipped(), kv_layer(1, "colossalai_cp")).as_double() == 40960.0);
    // Ring CP keeps the whole sequence's keys and values: (whole - kv) / 4 + kv.
    CHECK(activations::attn_qkv(shipped(), kv_layer(4, "colossalai_cp")).as_double() == 22528.0);
    CHECK(activations::attn_qkv(shipped(), kv_layer(4, "hybrid_cp")).as_double() == 22528.0);
    CHECK(activations::attn_qkv(shipped(), kv_layer(4, "ulysses_cp")).as_double() == 10240.0);
    LayerDoc linear = kv_layer(4, "colossalai_cp");
    linear.fields.set("n_linrec", I(1));
    CHECK(activations::attn_qkv(shipped(), linear).as_double() == 10240.0);
}

TEST_CASE("test_layer_block 7: routed and shared experts at hff_exp", "[reference]") {
    const LayerDoc doc = moe_layer();
    CHECK(activations::routed_experts(shipped(), doc).as_double() == 16.0 * 2 * 2 * (64 + 3 * 32));  // 10,240
    CHECK(activations::shared_experts(shipped(), doc).as_double() == 5120.0);
}

TEST_CASE("test_layer_block 8: a QK-norm keeps every head's queries and keys", "[reference]") {
    const double with = activations::norm(shipped(), qknorm_layer(1)).as_double();
    const double without = activations::norm(shipped(), qknorm_layer(0)).as_double();
    CHECK(with - without == 8.0 * 1 * 4 * 6 * 32);  // 6,144
    // The records' default: a layer that does not state n_qknorm has none.
    LayerDoc unstated = qknorm_layer(0);
    unstated.fields.erase("n_qknorm");
    CHECK(activations::norm(shipped(), unstated).as_double() == without);
}

TEST_CASE("test_layer_block 9: a QK-norm is recomputed with the norms", "[reference]") {
    LayerDoc doc = qknorm_layer(1);
    doc.context.node = NodeKind::SelRec;
    doc.switches = {{"normOp", I(0)}};
    CHECK(activations::norm(shipped(), doc).as_double() == 0.0);
}

// ---- test_op_records (docs/domain.md §5) ---------------------------------------

TEST_CASE("test_op_records 3: a slot reads only its branch", "[reference]") {
    const Program p = load_records_text(
        "import \"vocabulary.rec\"\n"
        "op attMM\nop attBMM switch attBMM needs attMM\nop softmax switch softmax\nop dropout switch dropout\n"
        "op headCast switch headCast\nop normOp switch normOp\nop gather switch gather comm\nop ffMM\n"
        "op ffAct switch ffAct\nop linrec\n"
        "slot qkv in attention {\n"
        "    bytes = total * max(t, 1) / min(t, 2)\n"
        "    attMM = h if flag else missing\n"
        "    attBMM = 3\n"
        "}\n",
        "branch.rec", testing::shipped_options());
    const RecordsEvaluator records(p);
    LayerDoc doc;
    set_all(doc, {{"h", I(10)}, {"flag", I(1)}, {"t", I(4)}});  // no `missing`: never looked up
    CHECK(records.slot_bytes(doc, "qkv").as_double() == 26.0);
    doc.context.node = NodeKind::SelRec;
    doc.switches = {{"attBMM", I(0)}};
    CHECK(records.slot_bytes(doc, "qkv").as_double() == 20.0);
    // only=attBMM ignores the switches: attBMM alone, though its switch recomputes it.
    SlotQuery only;
    only.only = "attBMM";
    CHECK(records.slot_bytes(doc, "qkv", only).as_double() == 6.0);
}

TEST_CASE("test_op_records 4: Python's arithmetic, bit for bit", "[reference]") {
    const CompiledExpr e = compile_expression(
        "(0.5 * h + 0.5 * w if n % 2 == 0 else 1 / 3 * h + 2 / 3 * w) * (b * n) + (d or h / a)");
    std::vector<std::string> reads;
    const Value v = evaluate(e, [](std::string_view name) -> std::optional<Value> {
        if (name == "h") return I(4096);
        if (name == "w") return I(14336);
        if (name == "n") return I(3);
        if (name == "b") return I(2);
        if (name == "d") return I(0);
        if (name == "a") return I(28);
        return std::nullopt;
    }, &reads);
    REQUIRE(v.is_float());
    CHECK(float_hex(v.f) == "0x1.0092492492492p+16");  // Python: 65682.28571428571
    CHECK(reads == std::vector<std::string>{"n", "h", "w", "b", "d", "a"});
}

// ---- the worked layers of docs/domain.md §2.4: plain layers ------------------------

TEST_CASE("§2.4 Llama-2-7B: a plain layer's slots and total", "[reference][worked]") {
    const LayerDoc doc = example("llama2-7b");
    CHECK(bytes(doc, "qkv") == 21233664.0);
    CHECK(bytes(doc, "score") == 12582912.0);
    CHECK(bytes(doc, "proj") == 8388608.0);
    CHECK(bytes(doc, "ffn") == 38010880.0);
    CHECK(bytes(doc, "norm") == 16777216.0);
    CHECK(layer_total(doc) == 96993280.0);  // 92.5 MiB
    CHECK(layer_total(doc) / (1 << 20) == 92.5);
}

TEST_CASE("§2.4 Mixtral-8x7B: a plain layer's slots and total", "[reference][worked]") {
    const LayerDoc doc = example("mixtral-8x7b");
    CHECK(bytes(doc, "qkv") == 8650752.0);
    CHECK(bytes(doc, "score") == 12582912.0);
    CHECK(bytes(doc, "proj") == 8388608.0);
    CHECK(bytes(doc, "routed") == 96468992.0);
    CHECK(bytes(doc, "shared") == 0.0);
    CHECK(bytes(doc, "router") == 4212736.0);
    CHECK(bytes(doc, "norm") == 16777216.0);
    CHECK(layer_total(doc) == 147081216.0);
}

TEST_CASE("§2.4 DeepSeek-V3 dense: a plain layer's slots and total", "[reference][worked]") {
    const LayerDoc doc = example("deepseek-v3-dense");
    CHECK(bytes(doc, "qkv") == 170786816.0);
    CHECK(bytes(doc, "score") == 12582912.0);
    CHECK(bytes(doc, "proj") == 14680064.0);
    CHECK(bytes(doc, "ffn") == 63963136.0);
    CHECK(bytes(doc, "norm") == 29360128.0);
    CHECK(layer_total(doc) == 291373056.0);
}

TEST_CASE("§2.4 DeepSeek-V3 MoE: a plain layer's slots and total, the last bits included", "[reference][worked]") {
    const LayerDoc doc = example("deepseek-v3-moe");
    CHECK(bytes(doc, "qkv") == 170786816.0);
    CHECK(bytes(doc, "score") == 12582912.0);
    CHECK(bytes(doc, "proj") == 14680064.0);
    // The routed formula's order of operations loses the last bits, as the reference's does.
    CHECK(repr(shipped().slot_bytes(doc, "routed")) == "109051903.99999999");
    CHECK(repr(shipped().slot_bytes(doc, "shared")) == "13631487.999999998");
    CHECK(bytes(doc, "router") == 7872512.0);
    CHECK(bytes(doc, "norm") == 29360128.0);
    CHECK(layer_total(doc) == 357965824.0);
}

TEST_CASE("§2.4 the slots each layer holds", "[reference][worked]") {
    auto held = [](const char* name) {
        std::vector<std::string> out;
        for (const auto& [slot, part] : shipped().layer_slots(example(name))) out.push_back(slot);
        return out;
    };
    using Slots = std::vector<std::string>;
    CHECK(held("llama2-7b") == Slots{"qkv", "score", "proj", "ffn", "norm"});
    CHECK(held("deepseek-v3-dense") == Slots{"qkv", "score", "proj", "ffn", "norm"});
    CHECK(held("mixtral-8x7b") == Slots{"qkv", "score", "proj", "routed", "shared", "router", "norm"});
    CHECK(held("deepseek-v3-moe") == Slots{"qkv", "score", "proj", "routed", "shared", "router", "norm"});
}

// ---- §2.4: recompute and strategy variants ---------------------------------------------

TEST_CASE("§2.4 HyperParallel's selective policy: the layers' totals", "[reference][worked]") {
    CHECK(layer_total(hyperparallel_selective(example("llama2-7b"))) == 56360960.0);
    CHECK(layer_total(hyperparallel_selective(example("mixtral-8x7b"))) == 88360960.0);
    CHECK(layer_total(hyperparallel_selective(example("deepseek-v3-dense"))) == 230555648.0);
    CHECK(layer_total(hyperparallel_selective(example("deepseek-v3-moe"))) == 297148416.0);
}

TEST_CASE("§2.4 DeepSeek-V3's qkv with attUp recomputed", "[reference][worked]") {
    LayerDoc doc = example("deepseek-v3-moe");
    doc.context.node = NodeKind::SelRec;
    doc.context.switches = SwitchMap{{"attUp", I(0)}};
    CHECK(bytes(doc, "qkv") == 36569088.0);
    // The up-projected heads, priced alone: what recomputing them saves.
    SlotQuery only;
    only.only = "attUp";
    CHECK(shipped().slot_bytes(doc, "qkv", only).as_double() == 134217728.0);
    CHECK(170786816.0 - 134217728.0 == 36569088.0);
    // A plain layer keeps them whatever the switch says.
    doc.context.node = NodeKind::NotRec;
    CHECK(bytes(doc, "qkv") == 170786816.0);
}

TEST_CASE("§2.4 Ulysses CP: qkv", "[reference][worked]") {
    auto ulysses = [](const char* name) {
        LayerDoc doc = example(name);
        doc.fields.set("cp_algo", std::string("ulysses_cp"));
        return bytes(doc, "qkv");
    };
    CHECK(ulysses("llama2-7b") == 12845056.0);
    CHECK(ulysses("mixtral-8x7b") == 6553600.0);
    CHECK(ulysses("deepseek-v3-moe") == 111476736.0);
}

TEST_CASE("§2.4 without sequence parallelism the output projection's input doubles", "[reference][worked]") {
    for (const char* name : {"llama2-7b", "mixtral-8x7b", "deepseek-v3-dense", "deepseek-v3-moe"}) {
        LayerDoc doc = example(name);
        const double with_sp = bytes(doc, "proj");
        doc.fields.set("sp", I(1));
        INFO(name);
        CHECK(bytes(doc, "proj") == 2 * with_sp);
    }
}

TEST_CASE("§2.4 the weights' casts kept beside the matmuls", "[reference][worked]") {
    auto with_casts = [](const char* name) {
        LayerDoc doc = example(name);
        set_all(doc, {{"n_attParamCast", I(4)}, {"n_ffParamCast", I(3)}});
        return layer_total(doc);
    };
    CHECK(with_casts("llama2-7b") == 160169984.0);
    CHECK(with_casts("mixtral-8x7b") == 251938816.0);
    CHECK(with_casts("deepseek-v3-moe") == 599793664.0);
}
