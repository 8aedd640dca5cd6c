// Pricing every recompute switch setting from elements evaluated once
// (SlotSums, LayerSettings) gives exactly what price_slot and layer_bytes
// give, bit for bit and error for error, for all 256 settings of every
// golden layer; and the sweep built on it: its settings, grid and fronts.
#include <catch2/catch.hpp>

#include "value/arith.h"

#include <fmt/format.h>

#include "eval/slot_sums.h"
#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "hf/load.h"
#include "hf/sweep.h"
#include "model/layer_settings.h"
#include "value/format.h"

using nlohmann::json;
using namespace oprec;

namespace {

const json& golden_cases() {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    return cases;
}

std::string same(Value expected, Value got) {
    if (expected.type == got.type && repr(expected) == repr(got) &&
        (!expected.is_float() || float_hex(expected.f) == float_hex(got.f)))
        return "";
    return fmt::format("expected {} {}, got {} {}", type_name(expected.type), repr(expected), type_name(got.type), repr(got));
}

// Runs both; "" when they give the same bits or raise the same kind of error
// with the same message.
template <class A, class B>
std::string compare(A&& expected, B&& got) {
    std::optional<Value> e, g;
    std::optional<EvalError> ee, ge;
    try {
        e = expected();
    } catch (const EvalError& x) {
        ee = x;
    }
    try {
        g = got();
    } catch (const EvalError& x) {
        ge = x;
    }
    if (e && g) return same(*e, *g);
    if (ee && ge) {
        if (ee->kind() != ge->kind()) return "different error kinds";
        if (std::string(ee->what()) != ge->what() || ee->context() != ge->context())
            return fmt::format("different errors: `{}` / `{}`", ee->what(), ge->what());
        return "";
    }
    return ee ? fmt::format("expected an error ({}), got a value", ee->what())
              : fmt::format("expected a value, got an error ({})", ge->what());
}

SwitchMap switches_of(const Program& p, std::uint32_t bits) {
    SwitchMap out;
    for (std::size_t i = 0; i < p.switches.size(); ++i) out[p.switches[i]] = Value::integer((bits >> i) & 1u);
    return out;
}

}  // namespace

TEST_CASE("SlotSums prices every slot as price_slot does, for every keep mask", "[sweep][golden]") {
    const Program& p = testing::shipped_records();
    const RecordsEvaluator records(p);
    REQUIRE(p.switches.size() == 8);
    int layers = 0, compared = 0;
    for (const json& c : golden_cases()["cases"]) {
        const LayerDoc layer = golden::layer_doc(c);
        const Bindings names = records.bind(layer);
        ++layers;
        for (SlotId s = 0; s < p.slots.size(); ++s) {
            const SlotSums sums(p, s, names);
            for (std::uint32_t bits = 0; bits < 256; ++bits) {
                LayerDoc sel = layer;
                sel.context.node = NodeKind::SelRec;
                const SwitchMap sw = switches_of(p, bits);
                const KeepMask keep = records.keep_mask(sel, &sw);
                INFO(c["id"].get<std::string>() << " slot " << p.slots[s].name << " bits " << bits);
                const std::string diff =
                    compare([&] { return price_slot(p, s, names, keep); }, [&] { return sums.price(keep, names); });
                if (!diff.empty()) FAIL(diff);
                ++compared;
            }
        }
    }
    CHECK(layers == 150);
    CHECK(compared == 150 * static_cast<int>(p.slots.size()) * 256);
}

TEST_CASE("LayerSettings gives layer_bytes of each of the 256 settings, bit for bit", "[sweep][golden]") {
    const Program& p = testing::shipped_records();
    const RecordsEvaluator records(p);
    // Each way of pricing ahead: part sums (the default here), slot prices, none.
    const auto tables = GENERATE(LayerSettings::Tables::PartSums, LayerSettings::Tables::SlotPrices,
                                 LayerSettings::Tables::None);
    INFO("tables " << static_cast<int>(tables));
    int priced = 0, refused = 0;
    for (const json& c : golden_cases()["cases"]) {
        const LayerDoc layer = golden::layer_doc(c);
        INFO(c["id"].get<std::string>());
        std::optional<LayerSettings> settings;
        try {
            settings.emplace(records, layer, tables);
        } catch (const EvalError& e) {
            // A `when` that cannot be evaluated: layer_bytes raises the same.
            CHECK_THROWS_AS(records.layer_bytes(layer), EvalError);
            ++refused;
            continue;
        }
        LayerDoc plain = layer;
        plain.context.node = NodeKind::NotRec;
        auto check_parts = [&](const Named<Value>* expected, const std::optional<EvalError>& expected_error,
                               const KeepMask& keep) {
            std::optional<Named<Value>> got;
            std::optional<EvalError> got_error;
            try {
                got = settings->parts(keep);
            } catch (const EvalError& e) {
                got_error = e;
            }
            if (expected_error) {
                REQUIRE(got_error.has_value());
                CHECK(got_error->kind() == expected_error->kind());
                CHECK(std::string(got_error->what()) == expected_error->what());
                return;
            }
            REQUIRE(got.has_value());
            REQUIRE(got->size() == expected->size());
            for (std::size_t i = 0; i < got->size(); ++i) {
                CHECK((*got)[i].first == (*expected)[i].first);
                CHECK(same((*expected)[i].second, (*got)[i].second) == "");
            }
        };
        auto expected_of = [&](const LayerDoc& l, const SwitchMap* sw, Named<Value>& out, std::optional<EvalError>& err) {
            try {
                out = records.layer_bytes(l, sw);
            } catch (const EvalError& e) {
                err = e;
            }
        };
        {
            Named<Value> expected;
            std::optional<EvalError> err;
            expected_of(plain, nullptr, expected, err);
            check_parts(&expected, err, settings->plain());
        }
        for (std::uint32_t bits = 0; bits < 256; ++bits) {
            LayerDoc sel = layer;
            sel.context.node = NodeKind::SelRec;
            const SwitchMap sw = switches_of(p, bits);
            Named<Value> expected;
            std::optional<EvalError> err;
            expected_of(sel, &sw, expected, err);
            INFO("bits " << bits);
            check_parts(&expected, err, settings->selective(bits));
            // The sweep's path: by bits, no keep mask, parts by index, and their total.
            std::vector<Value> by_index;
            if (err) {
                CHECK_THROWS_AS(settings->selective_parts(bits, by_index), EvalError);
                CHECK_THROWS_AS(settings->selective_total(bits), EvalError);
            } else {
                settings->selective_parts(bits, by_index);
                REQUIRE(by_index.size() == expected.size());
                Value sum = Value::real(0.0);
                for (std::size_t i = 0; i < expected.size(); ++i) {
                    CHECK(settings->part_names()[i] == expected[i].first);
                    CHECK(same(expected[i].second, by_index[i]) == "");
                    sum = py::add(sum, expected[i].second);
                }
                CHECK(same(sum, settings->selective_total(bits)) == "");
            }
            ++priced;
        }
    }
    CHECK(priced + refused * 256 == 150 * 256);
}

TEST_CASE("a selective keep mask keeps the records with no switch and follows the bits", "[sweep]") {
    const Program& p = testing::shipped_records();
    const RecordsEvaluator records(p);
    const LayerDoc layer = golden::layer_doc(golden_cases()["cases"][0]);
    const LayerSettings settings(records, layer);
    CHECK(settings.switch_count() == 8);
    const KeepMask none = settings.selective(0);
    for (RecordId r = 0; r < p.records.size(); ++r) CHECK(none[r] == (p.records[r].switch_id ? 0 : 1));
    const KeepMask all = settings.selective(255);
    for (RecordId r = 0; r < p.records.size(); ++r) CHECK(all[r] == 1);
}

namespace {

const Program& with_profiles() {
    static const Program program = [] {
        LoadResult r = hf::load_with_profiles(OPREC_TEST_DATA "/../records/op_records.rec", "profiles.rec",
                                              testing::shipped_options());
        if (!r.program) throw LoadError(r.diagnostics, r.sources);
        return std::move(*r.program);
    }();
    return program;
}

}  // namespace

TEST_CASE("the sweep's settings: plain, full, then every switch setting", "[sweep]") {
    const RecordsEvaluator records(with_profiles());
    const hf::HfModel model(with_profiles(), hf::HfConfig::read(OPREC_TEST_DATA "/../examples/hf/deepseek-v3.json"));
    const hf::Sweep sweep(records, model);
    REQUIRE(sweep.settings().size() == 258);
    CHECK(sweep.settings()[0].kind == hf::Setting::Kind::Plain);
    CHECK(sweep.settings()[1].kind == hf::Setting::Kind::Full);
    CHECK(sweep.settings()[2].keep_bits == 255);
    CHECK(sweep.settings()[257].keep_bits == 0);
    CHECK(sweep.recomputed_count(sweep.settings()[0]) == 0);
    CHECK(sweep.recomputed_count(sweep.settings()[1]) == with_profiles().records.size());
    CHECK(sweep.recomputed_count(sweep.settings()[257]) == 8);
    CHECK(sweep.setting_name(sweep.settings()[2]) == "selective: none");
    CHECK(sweep.kinds() == std::vector<std::pair<std::string, std::size_t>>{{"dense", 3}, {"moe", 58}});
}

TEST_CASE("a swept strategy prices each setting as the layer documents do", "[sweep]") {
    const Program& p = with_profiles();
    const RecordsEvaluator records(p);
    const hf::HfModel model(p, hf::HfConfig::read(OPREC_TEST_DATA "/../examples/hf/deepseek-v3.json"));
    const hf::Sweep sweep(records, model);
    hf::Strategy s;
    s.tp = 4;
    s.cp = 2;
    s.seq = 4096;
    const hf::StrategyResult r = sweep.price(s);
    REQUIRE_FALSE(r.skipped);
    REQUIRE(r.kinds.size() == 2);
    const hf::KindBytes& moe = r.kinds[1];
    CHECK(moe.kind == "moe");
    CHECK(moe.layers == 58);
    CHECK(same(Value::real(357965824.0), moe.bytes[0]) == "");   // plain
    CHECK(same(Value::real(58720256.0), moe.bytes[1]) == "");    // full: the input
    CHECK(same(Value::real(357965824.0), moe.bytes[2]) == "");   // selective, every switch kept
    CHECK(same(Value::real(291373056.0), r.kinds[0].bytes[0]) == "");
    // The HyperParallel rule: attBMM kept (bit 0), attUp kept (bit 7), the rest recomputed.
    std::size_t rule = 0;
    for (std::size_t i = 0; i < sweep.settings().size(); ++i)
        if (sweep.settings()[i].kind == hf::Setting::Kind::Selective && sweep.settings()[i].keep_bits == (1u | 1u << 7)) rule = i;
    REQUIRE(rule != 0);
    CHECK(same(Value::real(297148416.0), moe.bytes[rule]) == "");
    CHECK(same(Value::real(230555648.0), r.kinds[0].bytes[rule]) == "");
    CHECK(r.model_bytes[0] == 3 * 291373056.0 + 58 * 357965824.0);

    // Every selective setting against layer_bytes on the derived document.
    hf::Strategy sel = s;
    sel.recompute = hf::Recompute::Selective;
    const LayerDoc doc = model.layer(3, sel);
    for (std::size_t i = 2; i < sweep.settings().size(); ++i) {
        const SwitchMap sw = switches_of(p, sweep.settings()[i].keep_bits);
        Value total = Value::real(0.0);
        for (const auto& [part, bytes] : records.layer_bytes(doc, &sw)) total = py::add(total, bytes);
        INFO(sweep.setting_name(sweep.settings()[i]));
        CHECK(same(total, moe.bytes[i]) == "");
    }
}

TEST_CASE("the Pareto front: fewer bytes for each op more recomputed", "[sweep]") {
    const RecordsEvaluator records(with_profiles());
    const hf::HfModel model(with_profiles(), hf::HfConfig::read(OPREC_TEST_DATA "/../examples/hf/llama-2-7b.json"));
    const hf::Sweep sweep(records, model);
    hf::Strategy s;
    s.tp = 4;
    s.cp = 2;
    s.seq = 4096;
    const hf::StrategyResult r = sweep.price(s);
    const std::vector<std::size_t> front = sweep.front(r);
    REQUIRE(front.size() >= 2);
    CHECK(front.front() == 0);  // plain: nothing recomputed
    for (std::size_t i = 1; i < front.size(); ++i) {
        CHECK(sweep.recomputed_count(sweep.settings()[front[i]]) > sweep.recomputed_count(sweep.settings()[front[i - 1]]));
        CHECK(r.model_bytes[front[i]] < r.model_bytes[front[i - 1]]);
    }
    // Nothing off the front beats a front point with no more ops recomputed.
    for (std::size_t i = 0; i < sweep.settings().size(); ++i)
        for (std::size_t f : front)
            if (sweep.recomputed_count(sweep.settings()[i]) <= sweep.recomputed_count(sweep.settings()[f]))
                CHECK_FALSE(r.model_bytes[i] < r.model_bytes[f]);
}

TEST_CASE("a strategy the model cannot take is skipped with the reason", "[sweep]") {
    const RecordsEvaluator records(with_profiles());
    const hf::HfModel model(with_profiles(), hf::HfConfig::read(OPREC_TEST_DATA "/../examples/hf/llama-2-7b.json"));
    const hf::Sweep sweep(records, model);
    hf::Strategy s;
    s.tp = 3;
    const hf::StrategyResult r = sweep.price(s);
    REQUIRE(r.skipped.has_value());
    CHECK(r.skipped->find("--tp 3") != std::string::npos);
    CHECK(sweep.front(r).empty());
}
