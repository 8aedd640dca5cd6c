// The register run (register_code.h) against the exact run it stands in
// for: where it finishes, the same held slots and the same bits; where the
// exact run raises, it gives up. It may give up where the exact run does
// not only by computing ahead a value that overflows an int (a hoisted
// product), which the tests below pin down.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <iterator>
#include <random>
#include <cstdint>

#include <fmt/format.h>

#include "check/loader.h"
#include "eval/layer_code.h"
#include "eval/register_code.h"
#include "eval/register_run.h"
#include "eval/register_types.h"
#include "golden/golden_support.h"
#include "golden/records_fixture.h"
#include "model/evaluator.h"

using namespace oprec;

namespace {

std::string bits(Value v) {
    if (v.is_float()) return "float " + std::to_string(std::bit_cast<std::uint64_t>(v.f));
    return std::string(type_name(v.type)) + " " + std::to_string(v.as_int());
}

// Each held slot and its value's bits, by SlotId.
std::string held_slots(const std::vector<std::uint8_t>& held, const std::vector<Value>& values) {
    std::string out;
    for (std::size_t s = 0; s < held.size(); ++s)
        if (held[s]) out += fmt::format("{}={} ", s, bits(values[s]));
    return out;
}

// The exact run (LayerCode without its register form: each expression's
// own code), or "raises".
std::string exact(const LayerCode& layer, const Program& program, const Bindings& names, const KeepMask& keep) {
    LayerCode plain = layer;
    plain.registers.reset();
    PartBytes out;
    try {
        price_layer(plain, program, names, keep, out);
    } catch (const EvalError&) {
        return "raises";
    }
    return held_slots(out.held_flags, out.slot_values);
}

// A prepared layer's pricing (its typed run, or whichever it falls back
// to), or "raises" as exact() says it.
std::string priced(const PreparedLayer& layer) {
    PartBytes out;
    try {
        layer.price(out);
    } catch (const EvalError&) {
        return "raises";
    }
    return held_slots(out.held_flags, out.slot_values);
}

std::string run(const RegisterCode& code, std::size_t slots, const Bindings& names, const KeepMask& keep) {
    std::vector<std::uint8_t> held(slots);
    // Scratch as a run before left it, not zeroed: a cell read before this
    // run writes it shows.
    std::vector<Value> values(slots), cells(code.cells, Value::integer(7919));
    if (!run_registers(code, names.values(), keep.data(), held.data(), values.data(), cells)) return "gives up";
    return held_slots(held, values);
}

// The register run alone, or "gives up".
std::string in_registers(const LayerCode& layer, const Bindings& names, const KeepMask& keep) {
    return run(*layer.registers, layer.slot_count, names, keep);
}

// The same run typed for the names' types (specialise), and for the mask
// too where `for_mask`, or "untyped" where nothing could be typed.
std::string typed_for(const LayerCode& layer, const Bindings& names, const KeepMask& keep, bool for_mask = false) {
    const std::optional<RegisterCode> typed =
        specialise(*layer.registers, names.values(), for_mask ? keep.data() : nullptr);
    return typed ? run(*typed, layer.slot_count, names, keep) : "untyped";
}

// The same run typed for the names' types and the mask, its branches
// decided for the values of the names they test (specialise's pin), on
// `names` (the names it was made for, or others of the same types), or
// "untyped"; "pins fail" where a pinned name's value differs.
std::string pinned_for(const LayerCode& layer, const Bindings& made_for, const KeepMask& keep,
                       const Bindings* names = nullptr) {
    const std::optional<RegisterCode> pinned = specialise(*layer.registers, made_for.values(), keep.data(), true);
    if (!pinned) return "untyped";
    const Bindings& on = names != nullptr ? *names : made_for;
    if (!pins_hold(*pinned, on.values())) return "pins fail";
    return run(*pinned, layer.slot_count, on, keep);
}

// Where a shortened run and the untyped one differ, the untyped one gave up
// (a value it computes ahead overflowed) and the shortened one, which no
// longer computes it, finished as the exact run does.
void check_same_run(const std::string& shortened, const std::string& untyped, const std::string& exact_run) {
    INFO("shortened: " << shortened << "\nuntyped: " << untyped);
    CHECK((shortened == untyped || (untyped == "gives up" && shortened == exact_run)));
}

// The register run against the exact run, tallied: where the exact run
// raises the run must give up, and where both finish they agree (both
// checked here). add() is true where the run gave up and the exact run
// finished, for the caller to judge (a value computed ahead).
struct Outcomes {
    int finished = 0, raised = 0, spurious = 0;
    bool add(const std::string& fast, const std::string& slow) {
        if (slow == "raises") {
            ++raised;
            CHECK(fast == "gives up");
            return false;
        }
        if (fast == "gives up") {
            ++spurious;
            return true;
        }
        ++finished;
        CHECK(fast == slow);
        return false;
    }
};

KeepMask setting_mask(const Program& program, std::uint32_t setting) {
    KeepMask keep(program.records.size(), 1);
    for (RecordId r = 0; r < program.records.size(); ++r)
        if (program.records[r].switch_id) keep[r] = (setting >> *program.records[r].switch_id) & 1u;
    return keep;
}

}  // namespace

TEST_CASE("the shipped records price every golden layer in registers as the exact run does", "[registers][golden]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    const nlohmann::json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    Outcomes outcomes;
    int typed_runs = 0, unbound_finished = 0;
    for (const nlohmann::json& c : cases["cases"]) {
        const Bindings names = records.bind(golden::layer_doc(c));
        // A layer that leaves some of the records' names unstated runs
        // untyped (a typed run is made for every name's type).
        const bool bound = names.all_bound();
        INFO(c["id"].get<std::string>());
        for (std::uint32_t setting = 0; setting < (1u << program.switches.size()); setting += 3) {
            const KeepMask keep = setting_mask(program, setting);
            const std::string fast = in_registers(layer_code, names, keep);
            const std::string slow = exact(layer_code, program, names, keep);
            for (const bool for_mask : {false, true}) {
                if (!bound) break;
                const std::string typed = typed_for(layer_code, names, keep, for_mask);
                if (typed == "untyped") continue;
                ++typed_runs;
                CHECK(typed == fast);  // the same arithmetic, its type tests decided ahead
            }
            const std::string pinned = bound ? pinned_for(layer_code, names, keep) : "untyped";
            if (pinned != "untyped") check_same_run(pinned, fast, slow);
            CHECK_FALSE(outcomes.add(fast, slow));  // nothing in the shipped records is hoisted that could overflow here
            unbound_finished += !bound && fast != "gives up" ? 1 : 0;
        }
    }
    CHECK(outcomes.finished > 10000);
    CHECK(unbound_finished > 500);
    CHECK(outcomes.raised < outcomes.finished / 10);
    CHECK(typed_runs > outcomes.finished / 2);
}

// A name with no value makes the values computed from it have none; the run
// gives up only where one is tested or stored, which is where Python reads
// the name and raises. So it finishes wherever the exact run does (a value
// computed ahead from the name, never used, does not stop it).
TEST_CASE("a name with no value stops the register run exactly where Python raises", "[registers][golden]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    const nlohmann::json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    Outcomes outcomes;
    for (std::size_t k = 0; k < cases["cases"].size(); k += 15) {
        const LayerDoc doc = golden::layer_doc(cases["cases"][k]);
        INFO(cases["cases"][k]["id"].get<std::string>());
        for (NameId missing = 0; missing < program.names.size(); ++missing) {
            Bindings names = records.bind(doc);
            names.set_missing_field(missing);
            INFO(program.names[missing]);
            for (const std::uint32_t setting : {0u, 0x55u, 0xffu}) {
                const KeepMask keep = setting_mask(program, setting);
                const std::string fast = in_registers(layer_code, names, keep);
                CHECK_FALSE(outcomes.add(fast, exact(layer_code, program, names, keep)));
            }
        }
    }
    CHECK(outcomes.finished > 100);
    CHECK(outcomes.raised > 100);
}

// After a review: a quotient by a float read a name with no value as 0
// (as_double), so the run stored 0.0 where Python raises. Each operation on
// such a name, a float on the other side, must keep it without a value.
TEST_CASE("a name with no value beside a float stays without one", "[registers]") {
    for (const char* e : {"a / 2.5", "2.5 / a", "a * 2.5", "2.5 + a", "a - 2.5", "-a", "a // 2.5", "a % 2.5",
                          "a ** 2.5", "max(a, 2.5)", "a if 2.5 else 1"}) {
        INFO(e);
        const Program program = load_records_text(
            fmt::format("switches keep\nlayerparts attention\nopvector attMM\nop attMM\n"
                        "slot one in attention {{\n    bytes = total\n    attMM = {}\n}}\n", e),
            "unbound.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        Bindings names(program);
        names.set_missing_field(*program.find_name("a"));
        const KeepMask keep(program.records.size(), 1);
        CHECK(exact(layer_code, program, names, keep) == "raises");
        CHECK(in_registers(layer_code, names, keep) == "gives up");
    }
}

// After a review: Python reads every argument of a fn and sums every kept
// entry before the formula, so a name with no value there raises even where
// the fn's body, or the formula on the way it takes, does not read it. The
// run gives up there too (a Need), and prices as the exact run where the
// name has a value.
TEST_CASE("a value Python computes and no slot reads still needs a value", "[registers]") {
    struct Case {
        const char* fns;
        const char* bytes;
        const char* entry;
    };
    for (const Case c : {Case{"fn first(v, w) = v\n", "total", "first(b, a)"},
                         Case{"fn first(v, w) = v\n", "total", "first(b, a / c)"},
                         Case{"fn pick(v, w) = v if n else w\n", "total", "pick(b, a)"},
                         Case{"fn pick(v, w) = v if n else w\n", "total", "pick(a, b) * 0 + pick(b, a)"},
                         Case{"fn both(v, w) = v and w\n", "total", "both(0, a) + b"},
                         Case{"fn outer(v, w) = inner(v, w)\nfn inner(v, w) = v\n", "total", "outer(b, a)"},
                         Case{"", "total if n else 1", "a"},
                         Case{"", "1 if n else total * 2", "a * b"},
                         Case{"", "n and total", "a"},
                         Case{"", "b or total", "a"},
                         Case{"", "max(b, 1) if n else total", "a"},
                         Case{"fn first(v, w) = v\n", "first(1, total)", "a"},
                         // A fn's body reads names of its own: a call of constants may have no value.
                         Case{"fn first(v, w) = v\nfn geta(v) = a * v\n", "total", "first(b, geta(2))"},
                         Case{"fn first(v, w) = v\nfn geta(v) = a * v\n", "total", "first(b, 0 * geta(2))"}}) {
        const std::string text = fmt::format(
            "switches keep\nlayerparts attention\nopvector attMM\nop attMM\n{}"
            "slot one in attention {{\n    bytes = {}\n    attMM = {}\n}}\n",
            c.fns, c.bytes, c.entry);
        INFO(text);
        const Program program = load_records_text(text, "dropped.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        const KeepMask keep(program.records.size(), 1);
        for (const std::int64_t n : {0, 1}) {
            INFO("n = " << n);
            Bindings names(program);
            for (const char* name : {"b", "c", "n"})
                if (const std::optional<NameId> id = program.find_name(name))
                    names.set(*id, Value::integer(std::string_view(name) == "n" ? n : 3));
            const NameId a = *program.find_name("a");
            names.set_missing_field(a);
            CHECK(exact(layer_code, program, names, keep) == "raises");
            CHECK(in_registers(layer_code, names, keep) == "gives up");
            names.set(a, Value::integer(5));
            const std::string slow = exact(layer_code, program, names, keep);
            CHECK(slow != "raises");
            CHECK(in_registers(layer_code, names, keep) == slow);
        }
    }
}

TEST_CASE("the example layers price in registers, without giving up", "[registers]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    for (const char* name : {"llama2-7b", "deepseek-v3-moe", "mixtral-8x7b", "gqa-dense"}) {
        INFO(name);
        const std::string path = fmt::format("{}/../examples/{}.json", OPREC_TEST_DATA, name);
        const PreparedLayer layer(records, parse_layer_doc(golden::load_json(path), path));
        REQUIRE(layer.names().all_bound());
        const LayerCode layer_code = compile_layer(program);
        const std::string fast = in_registers(layer_code, layer.names(), layer.keep());
        CHECK(fast != "gives up");
        CHECK(fast == exact(layer_code, program, layer.names(), layer.keep()));
    }
}

namespace {

// A records text whose slots read `e` in every way the register form treats
// differently: in a `when`, as an entry (fused into the sum), twice in one
// place and across slots (kept at hand, hoisted, memoised), through a fn,
// under a keep switch (a sum whose type then depends on the mask), in a
// formula (fused into the store).
std::string records_reading(const std::string& e) {
    return fmt::format(
        "switches keep\n"
        "layerparts attention, ffn\n"
        "opvector attMM, attBMM\n"
        "op attMM\n"
        "op attBMM switch keep\n"
        "fn twice(v) = v + v\n"
        "fn first(v, w) = v\n"
        "slot one in attention when ({0}) != 7 {{\n"
        "    bytes = total * ({0})\n"
        "    attMM = {0}\n"
        "    attBMM = ({0}) + a\n"
        "}}\n"
        "slot two in ffn when not ({0}) {{\n"
        "    bytes = ({0}) / 3 + total\n"
        "    attMM = twice({0})\n"
        "    attBMM = first(b, {0})\n"
        "}}\n"
        "slot three in attention {{\n"
        "    bytes = total - ({0}) * ({0})\n"
        "    attBMM = ({0}) * (({0}) if a else c)\n"
        "}}\n"
        "slot four in ffn {{\n"
        "    bytes = max(total, {0}) / (b * c)\n"
        "    attMM = b * c * ({0})\n"
        "    attBMM = (b * c) - ({0})\n"
        "}}\n"
        "slot five in ffn {{\n"
        "    bytes = total * 0.5 - c\n"
        "    attMM = b\n"
        "    attBMM = ({0}) * b\n"
        "}}\n",
        e);
}

}  // namespace

TEST_CASE("expressions price in registers as the exact run prices them", "[registers]") {
    const std::vector<std::string> exprs = {
        "a + b * c - a / b",
        "a // b + a % b - b ** c",
        "-a + +b - (not c)",
        "a if b else c",
        "a and b or c",
        "a or b and c and 0",
        "a < b <= c",
        "a < b < c != a == b",
        "max(a, b, c) - min(c, b, a)",
        "max(a, a * 1.0)",
        "min(a, b)",
        "a / (b - b)",
        "(a and b) * (c or a) / (a if c else b)",
        "1 / 0 if a else b",
        "(a - b) * (b - c) * (c - a) + ((a * b) - (c / b)) ** 2",
        "a * b * c * a * b * c * a * b * c",
        "0 < a < 10 if a else max(b, c, 1 / c)",
        "(a + b) / (c * b) - (a - c) / (b * c)",
        "c - a * b // (b ** a) % (a / b)",
        "2 * (a * b) - 0.5 / (c + a)",
        "(a + b) / c / b * a",
        "b * c * a + b * c",
        "a * b if a * b < c else c / (a * b)",
        "first(a, 1 / b) + twice(a * b)",
        "twice(twice(a)) * first(c, b)",
        "a if a == b else b * 2",
    };
    const std::vector<Value> samples = {Value::integer(0),         Value::integer(3), Value::integer(-2),
                                        Value::real(0.5),          Value::real(-0.0), Value::boolean(true),
                                        Value::integer(INT64_MAX), Value::real(1e308)};
    Outcomes outcomes;
    int typed_runs = 0, pinned_runs = 0;
    for (const std::string& e : exprs) {
        INFO(e);
        const Program program = load_records_text(records_reading(e), "test.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        const std::array<NameId, 3> abc = {*program.find_name("a"), *program.find_name("b"), *program.find_name("c")};
        for (Value a : samples)
            for (Value b : samples)
                for (Value c : samples)
                    for (std::uint32_t setting : {0u, 1u}) {
                        Bindings names(program);
                        names.set(abc[0], a);
                        names.set(abc[1], b);
                        names.set(abc[2], c);
                        REQUIRE(names.all_bound());
                        const KeepMask keep = setting_mask(program, setting);
                        const std::string fast = in_registers(layer_code, names, keep);
                        const std::string slow = exact(layer_code, program, names, keep);
                        INFO(bits(a) << ", " << bits(b) << ", " << bits(c) << ", keep " << setting);
                        for (const bool for_mask : {false, true}) {
                            const std::string typed = typed_for(layer_code, names, keep, for_mask);
                            if (typed == "untyped") continue;
                            ++typed_runs;
                            CHECK(typed == fast);
                        }
                        if (const std::string pinned = pinned_for(layer_code, names, keep); pinned != "untyped") {
                            ++pinned_runs;
                            check_same_run(pinned, fast, slow);
                        }
                        if (outcomes.add(fast, slow)) {
                            // Only a value computed ahead that the exact run does not reach, and
                            // that raises: an int product overflowing.
                            const bool largest_int = (a.is_int() && a.i == INT64_MAX) ||
                                                     (b.is_int() && b.i == INT64_MAX) ||
                                                     (c.is_int() && c.i == INT64_MAX);
                            CHECK(largest_int);
                        }
                    }
    }
    CHECK(outcomes.finished > 10000);
    CHECK(outcomes.raised > 1000);
    CHECK(outcomes.spurious < outcomes.finished / 50);
    CHECK(typed_runs > 10000);
    CHECK(pinned_runs > 10000);
}

TEST_CASE("a prepared layer prices through its typed run, and as exactly when a name changes type or the mask changes",
          "[registers]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    const NameId h = *program.find_name("h"), s = *program.find_name("s");
    for (const char* name : {"llama2-7b", "deepseek-v3-moe", "mixtral-8x7b", "gqa-dense"}) {
        INFO(name);
        const std::string path = fmt::format("{}/../examples/{}.json", OPREC_TEST_DATA, name);
        PreparedLayer layer(records, parse_layer_doc(golden::load_json(path), path));
        REQUIRE(layer.names().all_bound());
        CHECK(typed_for(layer_code, layer.names(), layer.keep()) != "untyped");
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        // The same type: the typed run still holds; another type: the untyped run.
        layer.set_name(s, Value::integer(8192));
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        const Value h_int = layer.names().values()[h];
        layer.set_name(h, Value::real(h_int.as_double() + 0.5));
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        layer.set_name(h, Value::boolean(true));
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        layer.set_name(h, h_int);
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        // Another mask: the untyped run, then the first again.
        const KeepMask mask = layer.keep();
        for (std::uint32_t setting = 0; setting < (1u << program.switches.size()); setting += 5) {
            INFO("setting " << setting);
            layer.keep() = setting_mask(program, setting);
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        }
        layer.keep() = KeepMask(program.records.size(), 0);  // every sum an int 0
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        layer.keep() = mask;
        CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        for (RecordId r = 0; r < program.records.size(); ++r) {
            INFO(program.records[r].name);
            const std::uint8_t was = layer.keep()[r];
            layer.keep()[r] = was ? 0 : 1;
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
            layer.keep()[r] = was;
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        }
        // Each int name a float of the same value, one at a time, and back;
        // then another int (a name a branch tests among them: n_exp 1 or
        // not, dc_kv 0 or not), and 0.
        for (NameId n = 0; n < program.names.size(); ++n) {
            const Value was = layer.names().values()[n];
            if (!was.is_int()) continue;
            INFO(program.names[n]);
            layer.set_name(n, Value::real(static_cast<double>(was.i)));
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
            for (const std::int64_t other : {was.i == 1 ? std::int64_t(2) : std::int64_t(1), std::int64_t(0)}) {
                layer.set_name(n, Value::integer(other));
                CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
            }
            layer.set_name(n, was);
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
        }
    }
}

TEST_CASE("a prepared layer's typed run holds while a strategy changes, not when the model's shape does",
          "[registers]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    const auto name = [&](const char* n) { return *program.find_name(n); };
    for (const char* layer_name : {"llama2-7b", "deepseek-v3-moe"}) {
        INFO(layer_name);
        const std::string path = fmt::format("{}/../examples/{}.json", OPREC_TEST_DATA, layer_name);
        PreparedLayer layer(records, parse_layer_doc(golden::load_json(path), path));
        REQUIRE(layer.runs_typed());
        // A search's names (not what a branch tests) keep the typed run; the
        // shape's (a test reads it) give the untyped run; both price exactly.
        struct Move {
            const char* name;
            std::int64_t by;
            bool typed;
        };
        for (const Move m : {Move{"t", 3, true}, Move{"cp", 3, true}, Move{"b", 3, true}, Move{"micro_factor", 3, true},
                             Move{"kv_shards", 3, true}, Move{"n_exp", 1, false}, Move{"dc_kv", 1, false},
                             Move{"n_ffMM", 1, false}}) {
            INFO(m.name);
            const Value was = layer.names().values()[name(m.name)];
            layer.set_name(name(m.name), Value::integer(was.as_int() + m.by));
            CHECK(layer.runs_typed() == m.typed);
            CHECK(priced(layer) == exact(layer_code, program, layer.names(), layer.keep()));
            layer.set_name(name(m.name), was);
            CHECK(layer.runs_typed());
        }
    }
}

// After a review: a pinned run no longer computes what only its decided
// tests read, but an argument a fn ignores, or a select's value not chosen,
// is still computed by the exact run, and can raise. Where those names move
// (the pins holding), the pinned run must still give up, or its pins fail.
TEST_CASE("a pinned run keeps the errors of values it no longer needs", "[registers]") {
    struct Case {
        const char* text;
        std::vector<std::pair<const char*, Value>> made_for;
        std::pair<const char*, Value> moved;
    };
    const std::vector<Case> cases = {
        {"switches keep\nlayerparts attention\nopvector attMM\nop attMM\nfn first(v, w) = v\n"
         "slot one in attention when n == 1 {\n    bytes = total\n    attMM = first(b, a / c)\n}\n"
         "slot two in attention {\n    bytes = total if total > a + c else 1\n    attMM = a * b\n}\n",
         {{"n", Value::integer(1)}, {"a", Value::integer(6)}, {"b", Value::integer(2)}, {"c", Value::integer(3)}},
         {"c", Value::integer(0)}},
        {"switches keep\nlayerparts attention\nopvector attMM, attBMM\nop attMM\nop attBMM\n"
         "fn pick(v, w) = v if n else w\n"
         "slot one in attention {\n    bytes = total if total > d else 1\n    attMM = pick(d % d, 1)\n"
         "    attBMM = a * b\n}\n",
         {{"n", Value::integer(0)}, {"d", Value::integer(3)}, {"a", Value::integer(2)}, {"b", Value::integer(5)}},
         {"d", Value::integer(0)}},
    };
    for (const Case& c : cases) {
        INFO(c.text);
        const Program program = load_records_text(c.text, "pins.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        Bindings made_for(program);
        for (const auto& [name, value] : c.made_for) made_for.set(*program.find_name(name), value);
        REQUIRE(made_for.all_bound());
        const KeepMask keep(program.records.size(), 1);
        const std::string pinned = pinned_for(layer_code, made_for, keep);
        REQUIRE(pinned != "untyped");
        check_same_run(pinned, in_registers(layer_code, made_for, keep), exact(layer_code, program, made_for, keep));
        Bindings moved = made_for;
        moved.set(*program.find_name(c.moved.first), c.moved.second);
        const std::string slow = exact(layer_code, program, moved, keep);
        CHECK(slow == "raises");
        const std::string on_moved = pinned_for(layer_code, made_for, keep, &moved);
        CHECK((on_moved == "pins fail" || on_moved == "gives up"));
    }
}

TEST_CASE("records beyond the register form's limits are priced by the exact run alone", "[registers]") {
    // A formula 300 operators deep: deeper than the register compiler follows.
    std::string deep = "total";
    for (int k = 0; k < 300; ++k) deep += " + a";
    const Program program = load_records_text(
        "switches keep\nlayerparts attention\nopvector attMM\nop attMM\n"
        "slot one in attention {\n    bytes = " + deep + "\n    attMM = a\n}\n",
        "deep.rec", {});
    const LayerCode layer_code = compile_layer(program);
    CHECK_FALSE(layer_code.registers);
    Bindings names(program);
    names.set(*program.find_name("a"), Value::integer(2));
    PartBytes out;
    price_layer(layer_code, program, names, KeepMask(program.records.size(), 1), out);
    REQUIRE(out.bytes.size() == 1);
    CHECK(bits(out.bytes[0]) == bits(Value::real(602.0)));
}

TEST_CASE("a prepared layer's typed run is for its mask alone", "[registers]") {
    // With attBMM kept the sum is a float, without it the int b.
    const Program program = load_records_text(
        "switches keep\nlayerparts attention\nopvector attMM, attBMM\nop attMM\nop attBMM switch keep\n"
        "slot one in attention {\n    bytes = total * 2\n    attMM = b\n    attBMM = 0.5 * b\n}\n",
        "mask.rec", {});
    const RecordsEvaluator records(program);
    PreparedLayer layer(records, parse_layer_doc_text(R"({"fields": {"b": 3}})", "layer.json"));
    const RecordId att_bmm = *program.find_record("attBMM");
    REQUIRE(layer.keep()[att_bmm] == 1);
    PartBytes out;
    layer.price(out);
    REQUIRE(out.bytes.size() == 1);
    CHECK(bits(out.bytes[0]) == bits(Value::real(9.0)));
    layer.keep()[att_bmm] = 0;
    layer.price(out);
    REQUIRE(out.bytes.size() == 1);
    CHECK(bits(out.bytes[0]) == bits(Value::real(6.0)));  // the part's sum from 0.0; the slot's value the int 6
    CHECK(bits(out.slot_values[0]) == bits(Value::integer(6)));
}

TEST_CASE("a layer of more slots than price_layer sums at hand prices as the tree walk does", "[registers]") {
    std::string text = "switches keep\nlayerparts attention, ffn, norm\nopvector attMM, attBMM\nop attMM\n"
                       "op attBMM switch keep\n";
    for (int k = 0; k < 70; ++k)
        text += fmt::format("slot s{0} in {1} when a != {0} {{\n    bytes = total * {0} / 3\n    attMM = a + {0}\n}}\n", k,
                            k % 3 == 0 ? "attention" : k % 3 == 1 ? "ffn" : "norm");
    const Program program = load_records_text(text, "many.rec", {});
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    Bindings names(program);
    names.set(*program.find_name("a"), Value::integer(5));
    const KeepMask keep(program.records.size(), 1);
    PartBytes walked, run;
    price_layer(program, names, keep, walked);
    for (int again = 0; again < 2; ++again) {  // the second over the first's vectors
        price_layer(layer_code, program, names, keep, run);
        CHECK(run.held == walked.held);
        CHECK(run.parts == walked.parts);
        REQUIRE(run.bytes.size() == walked.bytes.size());
        for (std::size_t k = 0; k < run.bytes.size(); ++k) CHECK(bits(run.bytes[k]) == bits(walked.bytes[k]));
    }
    CHECK(run.held.size() == 69);  // s5 is not held
    CHECK(run.parts.size() == 3);
}

// What specialise leaves to run, on a layer whose names are ints and whose
// entries are all kept.
TEST_CASE("a typed run is shorter: memoised values typed, sums' starts folded, pairs fused", "[registers]") {
    const Program program = load_records_text(
        "switches keep\nlayerparts attention, ffn\nopvector attMM, attBMM\nop attMM\nop attBMM switch keep\n"
        "fn big(v, w) = (v * w + v) * (w - v) * 3\n"
        "slot one in attention {\n    bytes = total * 2\n    attMM = big(a, b) + c\n    attBMM = a * b\n}\n"
        "slot two in ffn {\n    bytes = total * 3\n    attMM = big(a, b) - c\n}\n",
        "short.rec", {});
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    Bindings names(program);
    names.set(*program.find_name("a"), Value::integer(3));
    names.set(*program.find_name("b"), Value::integer(5));
    names.set(*program.find_name("c"), Value::integer(-7));
    const KeepMask keep(program.records.size(), 1);
    const RegisterCode& untyped = *layer_code.registers;
    REQUIRE(std::count_if(untyped.instrs.begin(), untyped.instrs.end(),
                          [](const RInstr& in) { return in.op == ROp::Memo; }) == 2);  // big(a, b), at each place
    const std::optional<RegisterCode> typed = specialise(untyped, names.values(), keep.data());
    REQUIRE(typed);
    int untyped_arithmetic = 0, kept_zero = 0, pairs = 0;
    for (const RInstr& in : typed->instrs) {
        const bool arithmetic = (in.op >= ROp::Add && in.op <= ROp::Div) || (in.op >= ROp::AddX && in.op <= ROp::SumDiv) ||
                                (in.op >= ROp::SumMulIf && in.op <= ROp::FirstMulIf) || in.op == ROp::MulStore ||
                                in.op == ROp::DivStore;
        untyped_arithmetic += arithmetic;
        kept_zero += in.op == ROp::KeptZero;
        pairs += in.op >= ROp::PairAddAddXIII;
    }
    CHECK(untyped_arithmetic == 0);  // the memo's value read after the memo too: an int either way
    CHECK(kept_zero == 0);           // each sum starts with its first entry's value
    CHECK(pairs >= 2);               // v * w + v, (w - v) * ...
    CHECK(typed->instrs.size() < untyped.instrs.size());
    CHECK(run(*typed, layer_code.slot_count, names, keep) == run(untyped, layer_code.slot_count, names, keep));
    CHECK(run(untyped, layer_code.slot_count, names, keep) == exact(layer_code, program, names, keep));
}

// price_layer keeps the last pricing's parts' layout in `out` for the next:
// another layer's pricing into the same `out` lays its own out.
TEST_CASE("a pricing into the output of another layer's pricing names its own parts", "[registers]") {
    const auto records = [](const char* first, const char* second) {
        return load_records_text(fmt::format("switches keep\nlayerparts attention, ffn\nopvector attMM\nop attMM\n"
                                             "slot one in {} {{\n    bytes = total\n    attMM = a\n}}\n"
                                             "slot two in {} {{\n    bytes = total * 2\n    attMM = a\n}}\n",
                                             first, second),
                                 "parts.rec", {});
    };
    const Program same = records("attention", "attention");
    const Program apart = records("attention", "ffn");
    PartBytes out;
    for (const Program* program : {&same, &apart, &same}) {
        const LayerCode layer_code = compile_layer(*program);
        Bindings names(*program);
        names.set(*program->find_name("a"), Value::integer(5));
        const KeepMask keep(program->records.size(), 1);
        price_layer(layer_code, *program, names, keep, out);
        PartBytes walked;
        price_layer(*program, names, keep, walked);
        CHECK(out.held == walked.held);
        CHECK(out.parts == walked.parts);
        REQUIRE(out.bytes.size() == walked.bytes.size());
        for (std::size_t k = 0; k < out.bytes.size(); ++k) CHECK(bits(out.bytes[k]) == bits(walked.bytes[k]));
    }
    CHECK(out.parts.size() == 1);  // the last: both slots in attention, 5 + 10
    CHECK(bits(out.bytes[0]) == bits(Value::real(15.0)));
}

namespace {

// A random expression over a, b, c, d and a few constants: Python's
// arithmetic, conditionals, not, and/or, max/min, comparisons, a fn.
std::string random_expression(std::mt19937& rng, int depth) {
    static const char* const leaves[] = {"a", "b", "c", "d", "0", "1", "2", "0.5", "-0.0"};
    static const char* const ops[] = {"+", "-", "*", "/", "+", "*", "-", "//", "%"};
    const auto sub = [&] { return random_expression(rng, depth - 1); };
    const auto p = rng() % 100;
    if (depth <= 0 || p < 25) return leaves[rng() % std::size(leaves)];
    if (p < 70) return "(" + sub() + " " + ops[rng() % std::size(ops)] + " " + sub() + ")";
    if (p < 76) return "(" + sub() + " if " + sub() + " else " + sub() + ")";
    if (p < 80) return "(not " + sub() + ")";
    if (p < 84) return "(" + sub() + (rng() % 2 ? " and " : " or ") + sub() + ")";
    if (p < 88) return std::string(rng() % 2 ? "max(" : "min(") + sub() + ", " + sub() + ")";
    if (p < 91) return "big(" + sub() + ", " + sub() + ")";
    if (p < 94) return "first(" + sub() + ", " + sub() + ")";  // an argument computed, then not read
    return "(" + sub() + (rng() % 2 ? " < " : " == ") + sub() + ")";
}

// Records of one to four slots, some with a `when`, each of three ops (two
// with switches) present or not, shared subexpressions among them (memos).
std::string random_records(std::mt19937& rng) {
    static const char* const shared[] = {"big(a, b)", "(a * b + c)", "big(c, a)", "(b - c) * a"};
    const auto expression = [&] {
        return rng() % 3 == 0 ? std::string(shared[rng() % 4]) + " * " + random_expression(rng, 1)
                              : random_expression(rng, 3);
    };
    std::string text = "switches keep, k2\nlayerparts attention, ffn\nopvector attMM, attBMM, attX\n"
                       "op attMM switch k2\nop attBMM switch keep\nop attX\n"
                       "fn big(v, w) = (v * w + v) * (w - v) * 3\nfn first(v, w) = v\n";
    const auto slots = 1 + rng() % 4;
    for (unsigned s = 0; s < slots; ++s) {
        text += fmt::format("slot s{} in {}", s, rng() % 2 ? "attention" : "ffn");
        if (rng() % 4 == 0) text += " when " + expression();
        const auto f = rng() % 5;
        text += "{\n    bytes = ";
        // The last: a test on a value the walk cannot know (the sum), whose
        // two ways bring different known values to a test after them.
        text += f == 0 ? "total * 2" : f == 1 ? "total" : f == 2 ? "total / 3 + " + expression()
              : f == 3 ? "(total + " + expression() + ") * 2"
                       : fmt::format("(total if {} else {}) if ({} if total > 1 else {}) else total", expression(),
                                     expression(), random_expression(rng, 1), random_expression(rng, 1));
        text += "\n";
        for (const char* op : {"attMM", "attBMM", "attX"})
            if (rng() % 3 != 0) text += fmt::format("    {} = {}\n", op, expression());
        text += "}\n";
    }
    return text;
}

}  // namespace

// After a review's fuzzing: random records, random bindings of bools, ints
// and floats (-0.0 among them), every switch setting; the typed run (with
// and without the mask) gives the untyped run's bits, and the untyped run
// the exact run's wherever it finishes.
TEST_CASE("random records: the typed run as the untyped, the untyped as the exact", "[registers]") {
    std::mt19937 rng(20261203);
    const std::vector<Value> samples = {Value::integer(0), Value::integer(3), Value::integer(-2), Value::real(0.5),
                                        Value::real(-0.0), Value::boolean(true), Value::boolean(false), Value::real(2.0)};
    int programs = 0, typed_runs = 0, pinned_runs = 0, held_pins = 0;
    for (int iteration = 0; iteration < 2000; ++iteration) {
        const std::string text = random_records(rng);
        const Program program = load_records_text(text, "random.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        ++programs;
        for (int trial = 0; trial < 8; ++trial) {
            Bindings names(program);
            std::string bound;
            for (const char* name : {"a", "b", "c", "d"}) {
                const std::optional<NameId> id = program.find_name(name);
                if (!id) continue;
                const Value v = samples[rng() % samples.size()];
                names.set(*id, v);
                bound += fmt::format("{}={} ", name, bits(v));
            }
            if (!names.all_bound()) continue;
            for (std::uint32_t setting = 0; setting < 4; ++setting) {
                INFO(text << bound << "setting " << setting);
                const KeepMask keep = setting_mask(program, setting);
                const std::string fast = in_registers(layer_code, names, keep);
                for (const bool for_mask : {false, true}) {
                    const std::string typed = typed_for(layer_code, names, keep, for_mask);
                    if (typed == "untyped") continue;
                    ++typed_runs;
                    CHECK(typed == fast);
                }
                const std::string slow = exact(layer_code, program, names, keep);
                if (fast != "gives up") CHECK(fast == slow);
                // Its branches decided for the values bound; then on other
                // values of the same types where its pins still hold: the
                // pins are every name a decided test reads.
                const std::string pinned = pinned_for(layer_code, names, keep);
                if (pinned == "untyped") continue;
                ++pinned_runs;
                check_same_run(pinned, fast, slow);
                Bindings others = names;
                std::string rebound;
                for (const char* name : {"a", "b", "c", "d"}) {
                    const std::optional<NameId> id = program.find_name(name);
                    if (!id) continue;
                    const Value was = names.values()[*id];
                    Value v = samples[rng() % samples.size()];
                    while (v.type != was.type) v = samples[rng() % samples.size()];
                    others.set(*id, v);
                    rebound += fmt::format("{}={} ", name, bits(v));
                }
                INFO("rebound " << rebound);
                const std::string moved = pinned_for(layer_code, names, keep, &others);
                if (moved == "pins fail") continue;
                ++held_pins;
                check_same_run(moved, in_registers(layer_code, others, keep), exact(layer_code, program, others, keep));
            }
        }
    }
    CHECK(programs == 2000);
    CHECK(typed_runs > 10000);
    CHECK(pinned_runs > 10000);
    CHECK(held_pins > 1000);
}

// The same random records with one name left without a value: the run must
// give up wherever the exact run raises (never finish with a number), and
// where both finish, agree. It may give up where the exact run does not
// only by testing, ahead of Python, a value it hoists (a `not`, max or min
// of names).
TEST_CASE("random records with a name unstated: the register run never finishes where Python raises", "[registers]") {
    std::mt19937 rng(20261206);
    const std::vector<Value> samples = {Value::integer(0), Value::integer(3), Value::integer(-2), Value::real(0.5),
                                        Value::real(-0.0), Value::boolean(true), Value::real(2.0)};
    Outcomes outcomes;
    for (int iteration = 0; iteration < 2000; ++iteration) {
        const std::string text = random_records(rng);
        const Program program = load_records_text(text, "random.rec", {});
        const LayerCode layer_code = compile_layer(program);
        REQUIRE(layer_code.registers);
        std::vector<NameId> present;
        for (const char* name : {"a", "b", "c", "d"})
            if (const std::optional<NameId> id = program.find_name(name)) present.push_back(*id);
        if (present.empty()) continue;
        for (int trial = 0; trial < 4; ++trial) {
            Bindings names(program);
            for (const NameId id : present) names.set(id, samples[rng() % samples.size()]);
            const NameId missing = present[rng() % present.size()];
            names.set_missing_field(missing);
            for (std::uint32_t setting = 0; setting < 4; ++setting) {
                INFO(text << "missing " << program.names[missing] << ", setting " << setting);
                const KeepMask keep = setting_mask(program, setting);
                outcomes.add(in_registers(layer_code, names, keep), exact(layer_code, program, names, keep));
            }
        }
    }
    CHECK(outcomes.raised > 5000);
    CHECK(outcomes.finished > 1000);
    CHECK(outcomes.spurious < outcomes.finished / 5);
}
