// The straight-line form (code.h, interp.h) and a layer's register run
// (layer_code.h) against the tree walk: the same value to the bit, or the
// same error (kind, message, place, context), everywhere.
#include <catch2/catch.hpp>

#include <bit>

#include <fmt/format.h>

#include "eval/expression.h"
#include "code/interp.h"
#include "eval/layer_code.h"
#include "golden/golden_support.h"
#include "golden/records_fixture.h"
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
    } catch (const EvalError& e) {
        const Span& s = e.span();
        return fmt::format("raises {} `{}` at {}:{}:{}+{} in `{}`", error_kind_name(e.kind()), e.what(), s.file, s.line,
                           s.col, s.len, e.context());
    }
}

std::string parts(const PartBytes& p) {
    std::string out;
    for (SlotId s : p.held) out += std::to_string(s) + " ";
    for (std::size_t k = 0; k < p.parts.size(); ++k) out += std::to_string(p.parts[k]) + "=" + bits(p.bytes[k]) + " ";
    return out;
}

// A map from names to values for standalone expressions.
struct MapEnv {
    const CompiledExpr& expr;
    std::vector<std::optional<Value>> values;
    Value load(NameId name, NodeId) const {
        if (!values[name]) throw EvalError(ErrorKind::UnboundName, "`" + expr.names[name] + "` has no value");
        return *values[name];
    }
};

}  // namespace

TEST_CASE("every records expression runs straight-line as the tree walks it", "[linear][golden]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    REQUIRE(layer_code.registers);
    const nlohmann::json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    int compared = 0;
    for (const nlohmann::json& c : cases["cases"]) {
        const LayerDoc layer = golden::layer_doc(c);
        const Bindings names = records.bind(layer);
        INFO(c["id"].get<std::string>());
        std::vector<NodeId> roots;
        for (const SlotInfo& s : program.slots) {
            if (s.when) roots.push_back(*s.when);
            roots.push_back(s.formula);
            for (const SlotEntryInfo& e : s.entries) roots.push_back(e.expr);
        }
        for (NodeId root : roots) {
            REQUIRE(program.code.entry_of(root) != kNoEntry);
            for (Value total : {Value::integer(0), Value::real(3.5), Value::integer(-7)}) {
                Interpreter<const Bindings> interp(program.code, names);
                CHECK(outcome([&] { return bits(interp.run(root, total)); }) ==
                      outcome([&] { return bits(interp.run_tree(root, total)); }));
                ++compared;
            }
        }
        for (std::uint32_t setting = 0; setting < (1u << program.switches.size()); setting += 5) {
            KeepMask keep(program.records.size(), 1);
            for (RecordId r = 0; r < program.records.size(); ++r)
                if (program.records[r].switch_id) keep[r] = (setting >> *program.records[r].switch_id) & 1u;
            PartBytes tree, run;
            CHECK(outcome([&] { price_layer(program, names, keep, tree); return parts(tree); }) ==
                  outcome([&] { price_layer(layer_code, program, names, keep, run); return parts(run); }));
        }
    }
    CHECK(compared > 10000);
}

// Bindings are read inline by the straight-line code: a name that raises
// must raise there as in the tree, at the same place, wherever it sits (a
// fused name-name operator's left or right, a pushed name, ...).
TEST_CASE("a records name that raises raises straight-line as in the tree walk", "[linear][golden]") {
    const Program& program = testing::shipped_records();
    const RecordsEvaluator records(program);
    const LayerCode layer_code = compile_layer(program);
    const nlohmann::json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    const LayerDoc layer = golden::layer_doc(cases["cases"][0]);
    std::vector<NodeId> roots;
    for (const SlotInfo& s : program.slots) {
        if (s.when) roots.push_back(*s.when);
        roots.push_back(s.formula);
        for (const SlotEntryInfo& e : s.entries) roots.push_back(e.expr);
    }
    int raised = 0;
    for (NameId missing = 0; missing < program.names.size(); ++missing) {
        Bindings names = records.bind(layer);
        names.set_error(missing, ErrorKind::MissingField, "no `" + program.names[missing] + "` here");
        INFO(program.names[missing]);
        // try_run gives back what run raises; one interpreter for every root,
        // so a run stopped by the name must leave the next one unaffected.
        Interpreter<const Bindings> reused(program.code, names);
        for (NodeId root : roots) {
            Interpreter<const Bindings> interp(program.code, names);
            const std::string straight = outcome([&] { return bits(interp.run(root)); });
            CHECK(straight == outcome([&] { return bits(interp.run_tree(root)); }));
            CHECK(straight == outcome([&] {
                      auto given = reused.try_run(root);
                      if (auto* e = std::get_if<EvalError>(&given)) throw *e;
                      return bits(std::get<Value>(given));
                  }));
            if (straight.rfind("raises", 0) == 0) ++raised;
        }
        const KeepMask keep(program.records.size(), 1);
        PartBytes tree, run;
        CHECK(outcome([&] { price_layer(program, names, keep, tree); return parts(tree); }) ==
              outcome([&] { price_layer(layer_code, program, names, keep, run); return parts(run); }));
    }
    CHECK(raised > 50);
}

TEST_CASE("standalone expressions run straight-line as the tree walks them", "[linear]") {
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
        "x + 1",
        "a + x if b else c",
        "1 / 0 if a else b",
        "(a - b) * (b - c) * (c - a) + ((a * b) - (c / b)) ** 2",
        "a * b * c * a * b * c * a * b * c * a * b * c * a * b * c * a * b * c * a * b * c * a * b * c",
        "max(a)",
        "0 < a < 10 if a else max(b, c, 1 / c)",
        "max(a, x) + a * x + x * a",
        "(a + b) / (x * b) - (a - c) / (b * x)",
        "a < x < b",
        "c - a * b // (b ** a) % (a / b)",
        "c - (a * b) + (b * c) * (a + c)",
        "a / (b + c) - (c + x)",
        // Superinstructions: const op (name op name), (x op name) op name,
        // push then name op name, const op parameter (through a fn in the records).
        "2 * (a * b) - 0.5 / (c + a)",
        "(a + b) / c / b * a",
        "(a - c) * x * b",
        "a - (b - c) * (a / b) + c / (a - b)",
    };
    const std::vector<Value> samples = {Value::integer(0),        Value::integer(3),  Value::integer(-2),
                                        Value::real(0.5),         Value::real(-0.0),  Value::boolean(true),
                                        Value::integer(INT64_MAX), Value::real(1e308)};
    int compared = 0;
    for (const std::string& text : exprs) {
        const CompiledExpr expr = compile_expression(text);
        INFO(text);
        if (text != "max(a)") CHECK(expr.code.entry_of(expr.root) != kNoEntry);
        for (Value a : samples)
            for (Value b : samples)
                for (Value c : samples) {
                    MapEnv env{expr, std::vector<std::optional<Value>>(expr.names.size())};
                    for (NameId n = 0; n < expr.names.size(); ++n) {
                        const std::string& name = expr.names[n];
                        if (name == "a") env.values[n] = a;
                        if (name == "b") env.values[n] = b;
                        if (name == "c") env.values[n] = c;
                    }
                    Interpreter<const MapEnv> interp(expr.code, env);
                    CHECK(outcome([&] { return bits(interp.run(expr.root)); }) ==
                          outcome([&] { return bits(interp.run_tree(expr.root)); }));
                    ++compared;
                }
    }
    CHECK(compared == 30 * 512);
}
