// What the public API gives an editor (oprec lsp): each slot entry's
// elements and bytes alone, and imports read from unsaved text.
#include <catch2/catch.hpp>

#include "oprec/oprec.h"

namespace {

oprec::RecordsOptions options() {
    oprec::RecordsOptions o;
    o.data_dir = OPREC_SOURCE_DIR;
    return o;
}

}  // namespace

TEST_CASE("api Layer::entries: each entry's elements, bytes alone, and whether it is kept", "[api]") {
    const oprec::Records records = oprec::Records::load(OPREC_SOURCE_DIR "/records/op_records.rec", options());
    oprec::Layer layer = records.layer_file(OPREC_SOURCE_DIR "/examples/llama2-7b.json");
    const auto qkv = layer.entries("qkv");
    REQUIRE(qkv.size() == 3);
    CHECK(qkv[0].op == "attMM");
    CHECK(qkv[0].kept);
    CHECK(qkv[0].elements.repr() == "20480.0");
    CHECK(qkv[0].bytes.repr() == "20971520.0");
    CHECK(qkv[2].op == "attBMM");
    CHECK(qkv[2].bytes.repr() == "262144.0");
    // The kept entries alone sum to the slot (the formula is linear in total here).
    double sum = 0;
    for (const auto& e : qkv) sum += e.kept ? e.bytes.to_double() : 0;
    CHECK(sum == layer.slot("qkv").to_double());
    // A switch that drops an op: its entry is still priced, and not kept.
    layer.set_recompute(oprec::Recompute::Selective);
    layer.set_switch("softmax", false);
    const auto score = layer.entries("score");
    REQUIRE(score.size() == 3);
    CHECK(score[0].op == "softmax");
    CHECK_FALSE(score[0].kept);
    CHECK(score[0].bytes.to_double() > 0);
    CHECK_THROWS_AS(layer.entries("nope"), oprec::PricingError);
}

TEST_CASE("api RecordsOptions::unsaved: an import read from an editor's text", "[api]") {
    oprec::RecordsOptions o = options();
    // Unsaved, beside the records (found before the standard library's
    // ffn.rec, and not on disk): ffn_elements doubles the width.
    o.unsaved[OPREC_SOURCE_DIR "/records/ffn.rec"] = "fn ffn_elements(width) = 2 * width\n";
    const oprec::Records edited = oprec::Records::from_text(
        "import \"vocabulary.rec\"\nimport \"ffn.rec\"\nimport \"fields.rec\"\n"
        "op attMM\nop attBMM switch attBMM\nop softmax switch softmax\nop dropout switch dropout\nop headCast switch headCast\n"
        "op normOp switch normOp\nop gather switch gather comm\nop ffMM\nop ffAct switch ffAct\nop linrec\n"
        "slot ffn in ffn {\n    bytes = total\n    ffMM = ffn_elements(hff)\n}\n",
        OPREC_SOURCE_DIR "/records/edited.rec", o);
    const oprec::Layer layer = edited.layer_file(OPREC_SOURCE_DIR "/examples/llama2-7b.json");
    CHECK(layer.slot("ffn").to_double() == 2.0 * 11008);
}
