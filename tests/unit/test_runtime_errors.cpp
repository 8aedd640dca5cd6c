// Every runtime error kind, with its message, the place of the expression
// that failed (file:line:col) and what was being priced. The records path
// (a slot priced on a layer) raises all seven kinds; the expression path
// (`oprec calc`) raises the four an expression alone can: division by zero,
// an unbound name, overflow and a type error.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "check/loader.h"
#include "eval/expression.h"
#include "eval/pricing.h"
#include "model/evaluator.h"
#include "model/report.h"

using namespace oprec;

namespace {

// The vocabulary and the two ops every text below starts with: its slots
// start on line 6.
const std::string kHead =
    "switches keep\n"                  // 1
    "layerparts attention\n"           // 2
    "opvector attMM, attBMM\n"         // 3
    "op attMM\n"                       // 4
    "op attBMM switch keep\n";         // 5

Program records(const std::string& slots) { return load_records_text(kHead + slots, "test.rec", {}); }

LayerDoc layer(std::initializer_list<std::pair<const char*, FieldValue>> fields) {
    LayerDoc doc;
    for (const auto& [name, value] : fields) doc.fields.set(name, value);
    return doc;
}

FieldValue i(std::int64_t v) { return Value::integer(v); }
FieldValue f(double v) { return Value::real(v); }

// What a failed evaluation says: kind, message, place, context.
struct Failure {
    std::string kind;
    std::string message;
    std::string where;  // "" where the error has no place
    std::string context;
    std::string described;  // describe_error: what `oprec eval` prints
};

template <class F>
std::optional<Failure> failure(const SourceMap& sources, F&& f) {
    try {
        f();
    } catch (const EvalError& e) {
        return Failure{error_kind_name(e.kind()), e.what(), e.span().known() ? sources.where(e.span()) : "",
                       e.context(), describe_error(e, &sources)};
    }
    return std::nullopt;
}

std::optional<Failure> slot_failure(const Program& p, const LayerDoc& doc, const std::string& slot,
                                    const SlotQuery& query = {}) {
    const RecordsEvaluator r(p);
    return failure(p.sources, [&] { r.slot_bytes(doc, slot, query); });
}

std::optional<Failure> expr_failure(const std::string& text,
                                    std::initializer_list<std::pair<const char*, Value>> bindings = {}) {
    const CompiledExpr e = compile_expression(text);
    return failure(e.sources, [&] {
        evaluate(e, [&](std::string_view name) -> std::optional<Value> {
            for (const auto& [n, v] : bindings)
                if (name == n) return v;
            return std::nullopt;
        });
    });
}

const char* kQkv =
    "slot qkv in attention {\n"     // 6
    "    bytes = total / t\n"       // 7
    "    attMM = h * n\n"           // 8
    "    attBMM = 1 / z\n"          // 9
    "}\n";                          // 10

}  // namespace

// ---- division-by-zero --------------------------------------------------------

TEST_CASE("runtime division-by-zero: records, in a formula", "[runtime]") {
    const Program p = records(kQkv);
    const auto e = slot_failure(p, layer({{"h", i(3)}, {"n", i(2)}, {"z", i(1)}, {"t", i(0)}}), "qkv");
    REQUIRE(e);
    // total is 3 * 2 + 1 / 1 = 7.0, a float: attBMM's true division made it one.
    CHECK(e->kind == "division-by-zero");
    CHECK(e->message == "float division by zero");
    CHECK(e->where == "test.rec:7:13");
    CHECK(e->context == "slot `qkv` formula");
    CHECK(e->described == "test.rec:7:13: in slot `qkv` formula: float division by zero");
}

TEST_CASE("runtime division-by-zero: records, in an entry, by a float zero", "[runtime]") {
    const Program p = records(kQkv);
    const auto e = slot_failure(p, layer({{"h", i(3)}, {"n", i(2)}, {"z", f(0.0)}, {"t", i(1)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->message == "float division by zero");
    CHECK(e->where == "test.rec:9:14");
    CHECK(e->context == "slot `qkv`");
}

TEST_CASE("runtime division-by-zero: records, a dropped entry is never evaluated", "[runtime]") {
    const Program p = records(kQkv);
    LayerDoc doc = layer({{"h", i(3)}, {"n", i(2)}, {"z", i(0)}, {"t", i(1)}});
    doc.context.node = NodeKind::SelRec;
    doc.switches["keep"] = Value::integer(0);
    const RecordsEvaluator r(p);
    CHECK(r.slot_bytes(doc, "qkv").f == 6.0);
    doc.switches["keep"] = Value::integer(1);
    const auto e = slot_failure(p, doc, "qkv");
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->where == "test.rec:9:14");
}

TEST_CASE("runtime division-by-zero: records, in a `when`", "[runtime]") {
    const Program p = records(
        "slot qkv in attention when h // t > 0 {\n"  // 6
        "    bytes = total\n"
        "    attMM = h\n"
        "}\n");
    const RecordsEvaluator r(p);
    const auto e = failure(p.sources, [&] { r.layer_slots(layer({{"h", i(3)}, {"t", i(0)}})); });
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->message == "integer division or modulo by zero");
    CHECK(e->where == "test.rec:6:28");
    CHECK(e->context == "slot `qkv` when");
}

TEST_CASE("runtime division-by-zero: expression, // and % of ints and floats", "[runtime]") {
    auto e = expr_failure("x / (y - y)", {{"x", Value::integer(1)}, {"y", Value::integer(2)}});
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->message == "division by zero");
    CHECK(e->where == "<expr>:1:1");
    CHECK(e->context == "");
    e = expr_failure("1 + x % 0", {{"x", Value::integer(7)}});
    REQUIRE(e);
    CHECK(e->message == "integer modulo by zero");
    CHECK(e->where == "<expr>:1:5");
    e = expr_failure("x // 0.0", {{"x", Value::integer(7)}});
    REQUIRE(e);
    CHECK(e->message == "float floor division by zero");
    e = expr_failure("0.0 ** -1");
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->message == "0.0 cannot be raised to a negative power");
}

// ---- unbound-name ------------------------------------------------------------

TEST_CASE("runtime unbound-name: records, a name nothing binds", "[runtime]") {
    // RecordsEvaluator binds every name a layer answers; Bindings left
    // unset (a caller of the library pricing on its own names) raise this.
    const Program p = records(kQkv);
    Bindings names(p);
    names.set(*p.find_name("t"), Value::integer(1));
    const KeepMask keep(p.records.size(), 1);
    const auto e = failure(p.sources, [&] { price_slot(p, *p.find_slot("qkv"), names, keep); });
    REQUIRE(e);
    CHECK(e->kind == "unbound-name");
    CHECK(e->message == "`h` has no value");
    CHECK(e->where == "test.rec:8:13");
    CHECK(e->context == "slot `qkv`");
}

TEST_CASE("runtime unbound-name: expression, naming the name and its place", "[runtime]") {
    const auto e = expr_failure("x + y * 2", {{"x", Value::integer(1)}});
    REQUIRE(e);
    CHECK(e->kind == "unbound-name");
    CHECK(e->message == "`y` has no value");
    CHECK(e->where == "<expr>:1:5");
    // A branch not taken reads nothing.
    CHECK_FALSE(expr_failure("x if x else y", {{"x", Value::integer(1)}}));
}

// ---- missing-field -------------------------------------------------------------

TEST_CASE("runtime missing-field: records, a field the layer does not hold", "[runtime]") {
    const Program p = records(kQkv);
    const auto e = slot_failure(p, layer({{"h", i(3)}, {"z", i(1)}, {"t", i(1)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "missing-field");
    CHECK(e->message == "the layer config has no field 'n'");
    CHECK(e->where == "test.rec:8:17");
    CHECK(e->context == "slot `qkv`");
    CHECK(e->described == "test.rec:8:17: in slot `qkv`: the layer config has no field 'n'");
}

TEST_CASE("runtime missing-field: records, a context value the context does not hold", "[runtime]") {
    const Program p = records(
        "slot qkv in attention {\n"
        "    bytes = micro_factor * total\n"  // 7
        "    attMM = h\n"
        "}\n");
    LayerDoc doc = layer({{"h", i(3)}});
    doc.context.micro_factor.reset();
    const auto e = slot_failure(p, doc, "qkv");
    REQUIRE(e);
    CHECK(e->kind == "missing-field");
    CHECK(e->message == "the evaluation context has no 'micro_factor'");
    CHECK(e->where == "test.rec:7:13");
    CHECK(e->context == "slot `qkv` formula");
}

TEST_CASE("runtime missing-field: records, a branch not taken needs no field", "[runtime]") {
    const Program p = records(
        "slot qkv in attention {\n"
        "    bytes = total\n"
        "    attMM = h if flag else missing\n"  // 8
        "}\n");
    const RecordsEvaluator r(p);
    CHECK(r.slot_bytes(layer({{"h", i(10)}, {"flag", i(1)}}), "qkv").i == 10);
    const auto e = slot_failure(p, layer({{"h", i(10)}, {"flag", i(0)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "missing-field");
    CHECK(e->message == "the layer config has no field 'missing'");
    CHECK(e->where == "test.rec:8:28");
}

// ---- overflow --------------------------------------------------------------------

TEST_CASE("runtime overflow: records, an int product beyond 64 bits", "[runtime]") {
    const Program p = records(kQkv);
    const auto e = slot_failure(p, layer({{"h", i(std::int64_t(1) << 62)}, {"n", i(4)}, {"z", i(1)}, {"t", i(1)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "overflow");
    CHECK(e->message == "integer overflow: 4611686018427387904 * 4");
    CHECK(e->where == "test.rec:8:13");
    CHECK(e->context == "slot `qkv`");
}

TEST_CASE("runtime overflow: records, the sum of the entries", "[runtime]") {
    const Program p = records(kQkv);
    const std::int64_t max = std::numeric_limits<std::int64_t>::max();
    const auto e = slot_failure(p, layer({{"h", i(max)}, {"n", i(1)}, {"z", i(-1)}, {"t", i(1)}}), "qkv");
    REQUIRE_FALSE(e);  // max + (1 / -1) is max - 1.0: a float, no overflow
    const Program ints = records(
        "slot qkv in attention {\n"
        "    bytes = total\n"
        "    attMM = h\n"
        "    attBMM = h\n"
        "}\n");
    const auto sum = slot_failure(ints, layer({{"h", i(max)}}), "qkv");
    REQUIRE(sum);
    CHECK(sum->kind == "overflow");
    CHECK(sum->message == "integer overflow: 9223372036854775807 + 9223372036854775807");
    CHECK(sum->context == "slot `qkv`");
}

TEST_CASE("runtime overflow: expression, ints and floats", "[runtime]") {
    auto e = expr_failure("2 ** x", {{"x", Value::integer(63)}});
    REQUIRE(e);
    CHECK(e->kind == "overflow");
    CHECK(e->message == "integer overflow: 2 ** 63");
    CHECK(e->where == "<expr>:1:1");
    e = expr_failure("-x", {{"x", Value::integer(std::numeric_limits<std::int64_t>::min())}});
    REQUIRE(e);
    CHECK(e->kind == "overflow");
    e = expr_failure("10.0 ** 400");
    REQUIRE(e);
    CHECK(e->kind == "overflow");
    CHECK(e->message == "(34, 'Numerical result out of range')");
}

// ---- type-error --------------------------------------------------------------------

TEST_CASE("runtime type-error: records, a field stated as none or as a string", "[runtime]") {
    const Program p = records(kQkv);
    auto e = slot_failure(p, layer({{"h", std::monostate{}}, {"n", i(2)}, {"z", i(1)}, {"t", i(1)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "type-error");
    CHECK(e->message == "the layer config's field 'h' is None, not a number");
    CHECK(e->where == "test.rec:8:13");
    CHECK(e->context == "slot `qkv`");
    e = slot_failure(p, layer({{"h", i(2)}, {"n", std::string("ring")}, {"z", i(1)}, {"t", i(1)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "type-error");
    CHECK(e->message == "the layer config's field 'n' is a string ('ring'), not a number");
    CHECK(e->where == "test.rec:8:17");
}

TEST_CASE("runtime type-error: records, a complex result", "[runtime]") {
    const Program p = records(
        "slot qkv in attention {\n"
        "    bytes = total\n"
        "    attMM = (0 - h) ** 0.5\n"  // 8
        "}\n");
    const auto e = slot_failure(p, layer({{"h", i(2)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "type-error");
    CHECK(e->message == "a negative number to a fractional power has a complex result");
    CHECK(e->where == "test.rec:8:13");
}

TEST_CASE("runtime type-error: expression, max of one number", "[runtime]") {
    auto e = expr_failure("1 + max(x)", {{"x", Value::integer(3)}});
    REQUIRE(e);
    CHECK(e->kind == "type-error");
    CHECK(e->message == "max/min of one number: it is not iterable");
    CHECK(e->where == "<expr>:1:5");
    e = expr_failure("min()");
    REQUIRE(e);
    CHECK(e->message == "max/min expected at least 1 argument, got 0");
}

// ---- unknown-slot, unknown-op ----------------------------------------------------

TEST_CASE("runtime unknown-slot: records, a slot the records do not have", "[runtime]") {
    const Program p = records(kQkv);
    const auto e = slot_failure(p, layer({}), "qvk");
    REQUIRE(e);
    CHECK(e->kind == "unknown-slot");
    CHECK(e->message == "no slot `qvk` in the records");
    CHECK(e->where == "");
    CHECK(e->described == "no slot `qvk` in the records");
}

TEST_CASE("runtime unknown-op: records, an op the records do not have", "[runtime]") {
    const Program p = records(kQkv);
    SlotQuery only;
    only.only = "attMN";
    auto e = slot_failure(p, layer({}), "qkv", only);
    REQUIRE(e);
    CHECK(e->kind == "unknown-op");
    CHECK(e->message == "no op or part `attMN` in the records");
    CHECK(e->where == "");
    const RecordsEvaluator r(p);
    e = failure(p.sources, [&] { r.op_bytes(layer({}), "noSuchOp"); });
    REQUIRE(e);
    CHECK(e->kind == "unknown-op");
    CHECK(e->message == "no op or part `noSuchOp` in the records");
}

// ---- the place inside a fn -----------------------------------------------------------

TEST_CASE("runtime errors inside a fn point into its body, in the slot's context", "[runtime]") {
    const Program p = records(
        "fn per_rank(x) = x / t\n"        // 6
        "slot qkv in attention {\n"
        "    bytes = total\n"
        "    attMM = per_rank(h)\n"       // 9
        "}\n");
    const auto e = slot_failure(p, layer({{"h", i(8)}, {"t", i(0)}}), "qkv");
    REQUIRE(e);
    CHECK(e->kind == "division-by-zero");
    CHECK(e->where == "test.rec:6:18");
    CHECK(e->context == "slot `qkv`");
}

TEST_CASE("runtime errors in a layer report stand in place of the value", "[runtime]") {
    const Program p = records(kQkv);
    const RecordsEvaluator r(p);
    const auto doc = nlohmann::json::parse(oracle_report(r, layer({{"h", i(3)}, {"n", i(2)}, {"z", i(1)}, {"t", i(0)}})).json);
    const auto& bytes = doc["slots"]["qkv"]["bytes"];
    REQUIRE(bytes.contains("error"));
    CHECK(bytes["error"]["kind"] == "division-by-zero");
    CHECK(bytes["error"]["message"] == "test.rec:7:13: in slot `qkv` formula: float division by zero");
}
