// The hand-written baseline (src/model/native_baseline.*) gives the
// interpreter's bits: on every golden records case, for each slot alone and
// for the layer, plain and under every setting of the switches. Where the
// records raise, the baseline raises too. bench/ measures one against the
// other; this keeps the comparison honest in CI.
#include <catch2/catch.hpp>

#include <bit>
#include <fstream>
#include <sstream>

#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "native_baseline.h"
#include "model/evaluator.h"

using namespace oprec;

namespace {

std::string bits(Value v) {
    if (v.is_float()) return "float " + std::to_string(std::bit_cast<std::uint64_t>(v.f));
    return std::string(type_name(v.type)) + " " + std::to_string(v.as_int());
}

template <class F>
std::string outcome(F&& f) {
    try {
        return f();
    } catch (const EvalError&) {
        return "raises";
    }
}

std::string parts_bits(const PartBytes& p) {
    std::string out;
    for (SlotId s : p.held) out += std::to_string(s) + " ";
    for (std::size_t k = 0; k < p.parts.size(); ++k) out += std::to_string(p.parts[k]) + "=" + bits(p.bytes[k]) + " ";
    return out;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

}  // namespace

TEST_CASE("the hand-written baseline prices every golden case to the records' bits", "[native][golden]") {
    const Program& program = testing::shipped_records();
    const auto native = NativeBaseline::for_program(program);
    REQUIRE(native.has_value());
    const RecordsEvaluator records(program);
    const nlohmann::json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");

    int compared = 0, priced = 0;
    for (const nlohmann::json& c : cases["cases"]) {
        const LayerDoc layer = golden::layer_doc(c);
        const Bindings names = records.bind(layer);
        std::vector<KeepMask> masks{records.keep_mask(layer)};
        // Every setting of the switches, as a selective layer prices them.
        for (std::uint32_t setting = 0; setting < (1u << program.switches.size()); setting += 7) {
            KeepMask keep(program.records.size(), 1);
            for (RecordId r = 0; r < program.records.size(); ++r)
                if (program.records[r].switch_id) keep[r] = (setting >> *program.records[r].switch_id) & 1u;
            masks.push_back(std::move(keep));
        }
        for (const KeepMask& keep : masks) {
            for (SlotId s = 0; s < program.slots.size(); ++s) {
                INFO(c["id"].get<std::string>() << " slot " << program.slots[s].name);
                const std::string want = outcome([&] { return bits(price_slot(program, s, names, keep)); });
                const std::string got = outcome([&] { return bits(*native->slot(s, names, keep)); });
                CHECK(got == want);
                ++compared;
            }
            INFO(c["id"].get<std::string>() << " layer");
            PartBytes want_parts, got_parts;
            const std::string want = outcome([&] { price_layer(program, names, keep, want_parts); return parts_bits(want_parts); });
            const std::string got = outcome([&] { native->price_layer(names, keep, got_parts); return parts_bits(got_parts); });
            CHECK(got == want);
            priced += want != "raises";
        }
    }
    CHECK(compared > 5000);
    CHECK(priced > 1000);  // most cases price: the check is not all errors
}

TEST_CASE("the baseline refuses records it was not written for", "[native]") {
    // The shipped records with one slot's entries in another order.
    std::string text = read_text(OPREC_TEST_DATA "/../records/op_records.rec");
    const std::string from = "    attBMM = n_attBMM * dh\n";
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.erase(at, from.size());
    text.insert(text.find("    attMM = (\n"), from);
    const Program edited = load_records_text(text, "edited.rec", testing::shipped_options());
    CHECK_FALSE(NativeBaseline::for_program(edited).has_value());
}
