// The sweep through the public API: its settings, each strategy's bytes as
// hf_layer prices the same layer, the Pareto front, a strategy the model
// cannot take.
#include <catch2/catch.hpp>

#include <cmath>

#include "oprec/oprec.h"

using namespace oprec;

namespace {

Records with_profiles() {
    RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";
    options.profiles = "profiles.rec";
    return Records::load(OPREC_TEST_DATA "/../records/op_records.rec", options);
}

const char* const kMoe = OPREC_TEST_DATA "/../examples/hf/mixtral-8x7b.json";

}  // namespace

TEST_CASE("API sweep: plain, full and every selective setting", "[api][sweep]") {
    const Records records = with_profiles();
    const Sweep sweep(records, kMoe);
    const auto& settings = sweep.settings();
    REQUIRE(settings.size() == 2 + (std::size_t{1} << records.switches().size()));
    CHECK(settings[0].name == "plain");
    CHECK(settings[0].recomputed == 0);
    CHECK(settings[1].name == "full");
    CHECK(settings[1].recomputed == records.ops().size());
    CHECK(settings[2].recomputed == 0);  // every switch kept
    CHECK(settings.back().name.rfind("selective:", 0) == 0);
}

TEST_CASE("API sweep: each kind's bytes are hf_layer's for the same strategy", "[api][sweep]") {
    const Records records = with_profiles();
    const Sweep sweep(records, kMoe);
    HfStrategy strategy;
    strategy.tp = 4;
    strategy.ep = 2;
    strategy.seq = 4096;
    const SweepRow row = sweep.price(strategy);
    REQUIRE_FALSE(row.skipped);
    REQUIRE_FALSE(row.kinds.empty());
    for (const SweepKind& kind : row.kinds) {
        INFO(kind.kind);
        REQUIRE(kind.bytes.size() == sweep.settings().size());
        HfModelChoice choice;
        choice.kind = kind.kind;
        HfStrategy plain = strategy;
        plain.recompute = "none";
        CHECK(kind.bytes[0].repr() == hf_layer(records, kMoe, plain, choice).layer.total().repr());
        HfStrategy full = strategy;
        full.recompute = "full";
        const HfLayer f = hf_layer(records, kMoe, full, choice);
        REQUIRE(f.full_recompute_input);
        CHECK(kind.bytes[1].repr() == f.full_recompute_input->repr());
        CHECK(kind.bytes[2].repr() == kind.bytes[0].repr());  // every switch kept keeps what plain keeps
    }
    // The front: fewest recomputed first, each keeping strictly fewer bytes.
    REQUIRE_FALSE(row.front.empty());
    CHECK(row.front.front() == 0);
    for (std::size_t i = 1; i < row.front.size(); ++i) {
        CHECK(sweep.settings()[row.front[i]].recomputed > sweep.settings()[row.front[i - 1]].recomputed);
        CHECK(row.model_bytes[row.front[i]] < row.model_bytes[row.front[i - 1]]);
    }
}

TEST_CASE("API sweep: a strategy the model cannot take is skipped, saying why", "[api][sweep]") {
    const Sweep sweep(with_profiles(), kMoe);
    HfStrategy strategy;
    strategy.tp = 3;  // does not divide the heads
    const SweepRow row = sweep.price(strategy);
    REQUIRE(row.skipped);
    CHECK_FALSE(row.skipped->empty());
    CHECK(row.kinds.empty());
    CHECK(row.front.empty());
}

TEST_CASE("API sweep: records without profiles, a missing config", "[api][sweep]") {
    CHECK_THROWS_AS(Sweep(Records::shipped(), kMoe), LayerError);
    CHECK_THROWS_AS(Sweep(with_profiles(), "no/such/config.json"), LayerError);
}

TEST_CASE("API sweep: the model, each setting's switches, the strategy settled", "[api][sweep]") {
    const Records records = with_profiles();
    const Sweep sweep(records, kMoe);
    const SweepModel& model = sweep.model();
    CHECK(model.config == kMoe);
    CHECK(model.model_type == "mixtral");
    CHECK_FALSE(model.family.empty());
    std::size_t layers = 0;
    for (const auto& [kind, n] : model.kinds) layers += n;
    CHECK(layers == model.layers);
    CHECK(model.layers == 32);

    const auto& settings = sweep.settings();
    CHECK(settings[0].kind == Recompute::None);
    CHECK(settings[1].kind == Recompute::Full);
    CHECK(settings[1].switches_off.empty());
    CHECK(settings[2].switches_off.empty());  // every switch kept
    CHECK(settings.back().switches_off == records.switches());  // none kept
    for (std::size_t i = 2; i < settings.size(); ++i) CHECK(settings[i].kind == Recompute::Selective);

    HfStrategy strategy;
    strategy.tp = 2;
    strategy.cp_algo = "colossalai_cp";
    const SweepRow row = sweep.price(strategy);
    CHECK(row.settled.tp == 2);
    CHECK(row.settled.cp_algo == "ring");
    REQUIRE(row.settled.seq);  // the model's max_position_embeddings
    REQUIRE(row.settled.dtype);
    CHECK(*row.settled.dtype == "bf16");
    CHECK(row.strategy == strategy_text(row.settled));
}

TEST_CASE("the names of a strategy's options, and the strategy described", "[api][hf]") {
    CHECK(canonical_cp_algo("colossalai") == std::optional<std::string>("ring"));
    CHECK(canonical_cp_algo("ulysses_cp") == std::optional<std::string>("ulysses"));
    CHECK(canonical_cp_algo("hybird_cp") == std::optional<std::string>("hybrid"));
    CHECK_FALSE(canonical_cp_algo("Ring"));
    CHECK(canonical_dtype("bfloat16") == std::optional<std::string>("bf16"));
    CHECK(canonical_dtype("half") == std::optional<std::string>("fp16"));
    CHECK_FALSE(canonical_dtype("int8"));
    HfStrategy s;
    s.tp = 4;
    s.cp = 2;
    CHECK(strategy_text(s) == "tp=4 cp=2 ring sp ep=1 etp=1 mbs=1 seq=model fa");
    s.micro_factor = Number::real(1.5);
    s.param_casts = true;
    s.dtype = "float32";
    CHECK(strategy_text(s) == "tp=4 cp=2 ring sp ep=1 etp=1 mbs=1 seq=model fp32 fa casts micro=1.5");
    s.recompute = "sometimes";
    CHECK_THROWS_AS(strategy_text(s), LayerError);
    s.recompute = "full";
    CHECK(strategy_text(s) == "tp=4 cp=2 ring sp ep=1 etp=1 mbs=1 seq=model fp32 fa casts micro=1.5");
    s.cp_algo = "spiral";
    CHECK_THROWS_AS(strategy_text(s), LayerError);
}
