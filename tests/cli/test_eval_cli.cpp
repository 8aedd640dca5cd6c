// The records golden cases through the `oprec eval` process: each case
// written as the layer document a user would write (ints as JSON integers,
// floats as numbers that parse back to the same double, null for a field
// stated as none, absent fields absent), priced with `--format json` and
// with `--jsonl`, compared with the reference's outputs bit for bit. And a
// malformed document gets a clear error naming the place, exit code 2.
#include <catch2/catch.hpp>

#include <sstream>

#include <fmt/format.h>

#include "cli/golden_json.h"
#include "golden/golden_support.h"
#include "support/process.h"
#include "support/temp_dir.h"

using nlohmann::json;
using nlohmann::ordered_json;
using namespace oprec;

namespace {

const json& records_cases() {
    static const json cases = golden::load_json(OPREC_TEST_DATA "/golden/records_cases.json");
    return cases;
}

// Python's float.hex back to the double.
double from_hex(const std::string& hex) { return std::strtod(hex.c_str(), nullptr); }

// A number of the case by its Python type: a JSON integer, or a JSON float
// that parses back to the double of its hex.
ordered_json typed(const json& value, const std::string& type, const json& hexes, const std::string& name) {
    if (type == "float") return from_hex(hexes.at(name).get<std::string>());
    return value;  // an int, a bool, a string as the case states it
}

// The case as a layer document.
ordered_json layer_document(const json& c) {
    ordered_json fields = ordered_json::object();
    const json hexes = c.value("config_float_hex", json::object());
    for (const auto& [name, value] : c["config"].items()) {
        const std::string type = c["config_types"][name];
        fields[name] = type == "none" ? ordered_json(nullptr) : typed(value, type, hexes, name);
    }
    const json& ctx = c["context"];
    const json ctx_hexes = c.value("context_float_hex", json::object());
    ordered_json context = ordered_json::object();
    // Absent from the case: null, "the context has none" (absent would be 1).
    for (const char* name : {"micro_factor", "dropless_tok_factor"})
        context[name] = ctx.contains(name) ? typed(ctx[name], c["context_types"][name], ctx_hexes, name)
                                           : ordered_json(nullptr);
    context["node"] = ctx["current_node"];
    if (ctx["ctx_switches"]["kind"] == "mapping") context["switches"] = ctx["ctx_switches"]["values"];
    ordered_json doc;
    doc["fields"] = std::move(fields);
    const std::string rec_op = ctx["rec_op"]["kind"];
    if (rec_op == "mapping" || rec_op == "object") doc["switches"] = ctx["rec_op"]["values"];
    doc["context"] = std::move(context);
    return doc;
}

bool in_scope(const json& c) { return c["context"]["switches_in"] != "ctx_object_ignored"; }

bool golden_has_error(const json& j) {
    if (j.is_object()) {
        if (j.contains("error")) return true;
        for (const auto& [k, v] : j.items())
            if (golden_has_error(v)) return true;
    }
    if (j.is_array())
        for (const auto& v : j)
            if (golden_has_error(v)) return true;
    return false;
}

// Whether what `oprec eval` reports of the case holds an error: its exit code is then 1.
bool report_has_error(const json& outputs) {
    for (const char* key : {"layer_slots", "slot_bytes", "layer_bytes", "op_bytes", "num_params", "kv_shards",
                            "gathered_kv_bytes", "head_dim"})
        if (golden_has_error(outputs[key])) return true;
    for (const auto& [name, value] : outputs["activations"].items())
        if (name != "ffn_activations_width" && golden_has_error(value)) return true;
    return false;
}

// Every section of `oprec eval --format json` against the case's outputs;
// one line per difference.
std::vector<std::string> differences(const json& c, const ordered_json& got) {
    std::vector<std::string> out;
    auto check = [&](const std::string& what, const json& expected, const ordered_json& value) {
        const std::string diff = testing::json_mismatch(expected, value);
        if (!diff.empty()) out.push_back(what + ": " + diff);
    };
    const json& o = c["outputs"];
    const json& held = o["layer_slots"];
    for (const auto& [slot, expected] : o["slot_bytes"].items()) {
        if (!got["slots"].contains(slot)) {
            out.push_back("no slot " + slot);
            continue;
        }
        const ordered_json& s = got["slots"][slot];
        check("slots." + slot + ".bytes", expected, s["bytes"]);
        if (held.contains("error")) {
            check("slots." + slot + ".held", held, s["held"]);
        } else {
            bool is_held = false;
            for (const auto& item : held["items"]) is_held = is_held || item[0] == slot;
            if (s["held"] != is_held) out.push_back("slots." + slot + ".held: expected " + (is_held ? "true" : "false"));
        }
    }
    if (got["slots"].size() != o["slot_bytes"].size()) out.push_back("slots: another count of slots");
    check("parts", o["layer_bytes"], got["parts"]);
    for (const auto& [op, expected] : o["op_bytes"].items()) check("ops." + op, expected, got["ops"][op]);
    if (got["ops"].size() != o["op_bytes"].size()) out.push_back("ops: another count of ops");
    const std::pair<const char*, const char*> params[] = {
        {"attn", "num_params_attn"},     {"mla", "num_params_mla"},
        {"ffn", "num_params_ffn"},       {"routed_expert", "num_params_routed_expert"},
        {"router", "num_params_router"}, {"shared_expert", "num_params_shared_expert"},
        {"norm", "num_params_norm"}};
    for (const auto& [key, golden] : params) check(std::string("params.") + key, o["num_params"][golden], got["params"][key]);
    for (const char* key : {"kv_shards", "gathered_kv_bytes", "head_dim"}) check(key, o[key], got[key]);
    const std::pair<const char*, const char*> acts[] = {
        {"qkv", "attn_qkv_activations"},  {"score", "attn_score_activations"},
        {"proj", "attn_proj_activations"}, {"ffn", "ffn_activations"},
        {"router", "ffn_router_and_concat_activations"}, {"shared", "shared_exp_activations"},
        {"routed", "routed_exp_activations"}, {"moe", "ffn_moe_activations"},
        {"norm", "norm_activations"}};
    for (const auto& [key, golden] : acts)
        check(std::string("activations.") + key, o["activations"][golden], got["activations"][key]);
    return out;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

using Lines = std::vector<std::string>;

}  // namespace

TEST_CASE("eval --format json: every in-scope records golden case, bit for bit", "[cli][eval][golden]") {
    testing::TempDir dir;
    int cases = 0;
    for (const json& c : records_cases()["cases"]) {
        if (!in_scope(c)) continue;
        const std::string id = c["id"];
        const auto file = dir.write(id + ".json", layer_document(c).dump(2));
        const testing::RunResult run = testing::run_oprec({"eval", "--format", "json", file.string()});
        INFO(id << "\nstderr: " << run.err);
        REQUIRE(run.out.size() > 0);
        const ordered_json got = ordered_json::parse(run.out);
        CHECK(differences(c, got) == Lines{});
        // Exit 1 where something could not be computed, else 0.
        CHECK(run.exit_code == (report_has_error(c["outputs"]) ? 1 : 0));
        ++cases;
    }
    CHECK(cases >= 140);
}

TEST_CASE("eval --jsonl: every in-scope records golden case, one line each", "[cli][eval][golden]") {
    std::vector<const json*> cases;
    std::string input;
    for (const json& c : records_cases()["cases"]) {
        if (!in_scope(c)) continue;
        input += layer_document(c).dump() + "\n";
        cases.push_back(&c);
    }
    const testing::RunResult run = testing::run_oprec({"eval", "--jsonl"}, input);
    CHECK(run.err == "");  // every field of every golden layer is one the records know
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) {
        INFO((*cases[i])["id"].get<std::string>());
        CHECK(differences(*cases[i], ordered_json::parse(lines[i])) == Lines{});
    }
    CHECK(run.exit_code == 1);  // some cases hold errors
}

TEST_CASE("eval: the JSON states what a tool needs, in the records' order", "[cli][eval]") {
    const auto run = testing::run_oprec({"eval", "--format", "json", "--only", "attMM",
                                         OPREC_TEST_DATA "/../examples/llama2-7b.json"});
    REQUIRE(run.exit_code == 0);
    const ordered_json doc = ordered_json::parse(run.out);
    std::vector<std::string> keys;
    for (const auto& [k, v] : doc.items()) keys.push_back(k);
    CHECK(keys == Lines{"slots", "parts", "ops", "only", "params", "kv_shards", "gathered_kv_bytes", "head_dim",
                        "activations"});
    std::vector<std::string> slots;
    for (const auto& [k, v] : doc["slots"].items()) slots.push_back(k);
    CHECK(slots == Lines{"qkv", "score", "proj", "ffn", "routed", "shared", "router", "norm"});
    // A slot the layer does not hold is still priced (routed's when is false here).
    CHECK(doc["slots"]["routed"]["held"] == false);
    CHECK(doc["slots"]["qkv"]["bytes"] == 21233664.0);
    CHECK(doc["only"]["qkv"] == 20971520.0);  // attMM alone: attBMM's 2 * 128 per token left out
    CHECK(doc["parts"]["attention"] == 42205184.0);
}

// ---- malformed documents: a clear error naming the place, exit code 2 ----------

TEST_CASE("eval: bad JSON is reported at its line and column", "[cli][eval]") {
    testing::TempDir dir;
    const auto file = dir.write("layer.json", "{\n  \"fields\": {\n    \"h\": 4096,\n  }\n}\n");
    const auto run = testing::run_oprec({"eval", file.string()});
    CHECK(run.exit_code == 2);
    CHECK(run.out == "");
    CHECK(run.err.rfind("oprec eval: " + file.string() + ":4:3: invalid JSON: ", 0) == 0);
}

TEST_CASE("eval: a string where a number belongs names the key", "[cli][eval]") {
    SECTION("a context value") {
        const auto run = testing::run_oprec({"eval", "-"}, R"({"context": {"micro_factor": "2"}})");
        CHECK(run.exit_code == 2);
        CHECK(run.err == "oprec eval: <stdin>: context.micro_factor: expected a number, got a string\n");
    }
    SECTION("a switch") {
        const auto run = testing::run_oprec({"eval"}, R"({"switches": {"softmax": "0"}})");
        CHECK(run.exit_code == 2);
        CHECK(run.err == "oprec eval: <stdin>: switches.softmax: expected 0, 1, true or false, got \"0\"\n");
    }
    SECTION("a field the field schema types as a number") {
        const auto run = testing::run_oprec({"eval"}, R"({"fields": {"cp_algo": "ulysses_cp", "h": "4096"}})");
        CHECK(run.exit_code == 2);
        CHECK(run.err == "oprec eval: <stdin>: fields.h: expected int or float, got a string ('4096')\n");
    }
    SECTION("a field set on the command line") {
        const auto run = testing::run_oprec({"eval", "--set", "t=four", OPREC_TEST_DATA "/../examples/llama2-7b.json"});
        CHECK(run.exit_code == 2);
        // The value is the command line's, not the document's: the document is not named.
        CHECK(run.err == "oprec eval: --set t=four: field `t`: expected int, got a string ('four')\n");
    }
    SECTION("a field set to what no layer document can state") {
        // Once priced: every slot nan, exit 0.
        for (const char* v : {"nan", "-inf", "inf", "1e400"}) {  // 1e400: Python's inf
            const auto run = testing::run_oprec({"eval", "--set", std::string("t=") + v, OPREC_TEST_DATA "/../examples/llama2-7b.json"});
            CHECK(run.exit_code == 2);
            CHECK(run.err == std::string("oprec eval: --set t=") + v + ": not a finite number (a layer document cannot state one either)\n");
        }
    }
}

TEST_CASE("eval: an unknown node kind is refused, naming the kinds", "[cli][eval]") {
    const auto run = testing::run_oprec({"eval"}, R"({"context": {"node": "SELECTIVE"}})");
    CHECK(run.exit_code == 2);
    CHECK(run.err == "oprec eval: <stdin>: context.node: unknown layer kind 'SELECTIVE' "
                     "(expected NOT_REC_LAYER, SEL_REC_LAYER or FULL_REC_LAYER)\n");
}

TEST_CASE("eval: an unknown key is refused", "[cli][eval]") {
    const auto run = testing::run_oprec({"eval"}, R"({"field": {}})");
    CHECK(run.exit_code == 2);
    CHECK(run.err == "oprec eval: <stdin>: unknown key 'field' (expected fields, switches or context)\n");
}

TEST_CASE("eval --jsonl: a malformed line is answered on its line, the others priced", "[cli][eval]") {
    std::ifstream example(OPREC_TEST_DATA "/../examples/llama2-7b.json");
    const std::string good = json::parse(example).dump();
    const auto run = testing::run_oprec({"eval", "--jsonl"},
                                        good + "\n{\"context\": {\"node\": \"FULL\"}}\n{bad\n" + good + "\n");
    const auto lines = split_lines(run.out);
    REQUIRE(lines.size() == 4);
    CHECK(ordered_json::parse(lines[0])["parts"]["attention"] == 42205184.0);
    const ordered_json bad_node = ordered_json::parse(lines[1]);
    CHECK(bad_node["error"]["kind"] == "invalid-input");
    CHECK(bad_node["error"]["message"] == "<stdin>:2: context.node: unknown layer kind 'FULL' "
                                          "(expected NOT_REC_LAYER, SEL_REC_LAYER or FULL_REC_LAYER)");
    const ordered_json bad_json = ordered_json::parse(lines[2]);
    CHECK(bad_json["error"]["kind"] == "invalid-input");
    // Line 3 of the input, column 2 of it (not "<stdin>:3:1:2:", the document's own line 1).
    CHECK(bad_json["error"]["message"].get<std::string>().rfind("<stdin>:3:2: invalid JSON: ", 0) == 0);
    CHECK(lines[3] == lines[0]);
    CHECK(run.exit_code == 1);
}

TEST_CASE("eval: a cp_algo that names no algorithm is warned of at its key, or at its --set", "[cli][eval]") {
    std::ifstream example(OPREC_TEST_DATA "/../examples/llama2-7b.json");
    json doc = json::parse(example);
    doc["fields"]["cp"] = 4;
    doc["fields"]["cp_algo"] = "colossalai_cp";
    const std::string text = "{\"fields\": " + doc["fields"].dump() + ",\n \"context\": " + doc["context"].dump() +
                             ",\n \"switches\": " + doc["switches"].dump() + "}\n";
    std::string misspelt = text;
    misspelt.replace(misspelt.find("\"colossalai_cp\""), 15, "\"ulysess_cp\"");
    const std::size_t col = misspelt.find("\"cp_algo\"") + 1;
    testing::TempDir dir;
    const auto file = dir.write("cp.json", misspelt);
    const auto run = testing::run_oprec({"eval", file.string()});
    CHECK(run.exit_code == 0);  // the reference prices it, as ring CP: so does eval, and says so
    CHECK(run.err == file.string() + ":1:" + std::to_string(col) + ": warning: cp_algo 'ulysess_cp' names no algorithm (colossalai_cp, "
                                     "hybrid_cp or ulysses_cp): priced as colossalai_cp, ring CP, as the reference does "
                                     "(did you mean `ulysses_cp`?)\n");
    const auto ring = testing::run_oprec({"eval", "-"}, text);
    CHECK(ring.err.empty());
    CHECK(run.out.substr(run.out.find('\n')) == ring.out.substr(ring.out.find('\n')));
    const auto set = testing::run_oprec({"eval", "-", "--set", "cp_algo=ulysses"}, text);
    CHECK(set.exit_code == 0);
    CHECK(set.err.starts_with("oprec eval: warning: --set cp_algo: cp_algo 'ulysses' names no algorithm"));
    CHECK(set.err.ends_with("(did you mean `ulysses_cp`?)\n"));
    // Ring CP by another name is what it is priced as: nothing to say.
    for (const char* ring_too : {"cp_algo=ring_cp", "cp_algo=ring"})
        CHECK(testing::run_oprec({"eval", "-", "--set", ring_too}, text).err.empty());
}

TEST_CASE("eval: a field nothing reads is warned of at its key, the layer priced without it", "[cli][eval]") {
    std::ifstream example(OPREC_TEST_DATA "/../examples/llama2-7b.json");
    const json doc = json::parse(example);
    const std::string fields = doc["fields"].dump();
    // "epp" (for ep) on line 3, column 4; a context switch of that name before it is not the field.
    json context = doc["context"];
    context["switches"] = {{"epp", true}};  // on a layer that recomputes nothing: no effect
    const std::string text = "{\"context\": " + context.dump() + ",\n\"fields\":\n  {\"epp\": 8, " +
                             fields.substr(1) + ",\n \"switches\": " + doc["switches"].dump() + "}\n";
    testing::TempDir dir;
    const auto file = dir.write("typo.json", text);
    const auto plain = testing::run_oprec({"eval", OPREC_TEST_DATA "/../examples/llama2-7b.json"});
    const auto run = testing::run_oprec({"eval", file.string()});
    CHECK(run.exit_code == 0);
    // (The context's switch of that name is no switch of the records: warned of at its own place.)
    const std::size_t switch_col = text.find("\"epp\"") + 1;
    CHECK(run.err == file.string() + ":3:4: warning: no field `epp` in the records' schema (did you mean `ep`?): "
                                     "the layer is priced without it\n" +
                         file.string() + ":1:" + std::to_string(switch_col) +
                         ": warning: no switch `epp` in the records: it changes nothing\n");
    // The same bytes as without it (the table's first line names the file).
    CHECK(run.out.substr(run.out.find('\n')) == plain.out.substr(plain.out.find('\n')));
    // A misspelt switch changes nothing either: warned of at its key, the context's too.
    const auto sw = testing::run_oprec({"eval", "-"}, "{\"fields\": " + fields + ",\n\"switches\": {\"sofmax\": 0},\n"
                                       "\"context\": {\"node\": \"SEL_REC_LAYER\", \"switches\": {\"dropuot\": 1}}}\n");
    CHECK(sw.exit_code == 0);
    CHECK(sw.err == "<stdin>:2:14: warning: no switch `sofmax` in the records (did you mean `softmax`?): it changes nothing\n"
                    "<stdin>:3:51: warning: no switch `dropuot` in the records (did you mean `dropout`?): it changes nothing\n");

    const std::string line = json::parse(text).dump();
    const auto jsonl = testing::run_oprec({"eval", "--jsonl"}, line + "\n" + line + "\n");
    const std::size_t col = line.find("\"epp\"", line.find("\"fields\"")) + 1;
    REQUIRE(line.find("\"epp\"") + 1 < col);  // the context's switch comes first
    CHECK(jsonl.exit_code == 0);
    const std::size_t switch_at = line.find("\"epp\"") + 1;
    const auto warnings_at = [&](int n) {
        return fmt::format("<stdin>:{0}:{1}: warning: no field `epp` in the records' schema (did you mean `ep`?): the "
                           "layer is priced without it\n<stdin>:{0}:{2}: warning: no switch `epp` in the records: it "
                           "changes nothing\n", n, col, switch_at);
    };
    CHECK(jsonl.err == warnings_at(1) + warnings_at(2));
}

TEST_CASE("eval --slot: the bytes, or the error's message and kind", "[cli][eval]") {
    const std::string layer = OPREC_TEST_DATA "/../examples/llama2-7b.json";
    const auto ok = testing::run_oprec({"eval", "--slot", "qkv", layer});
    CHECK(ok.out == "qkv: 21,233,664 bytes (20.25 MiB)\n");
    CHECK(ok.exit_code == 0);
    // A slot the records do not have is a bad option (2), as --only's unknown op is, not a failed pricing (1).
    const auto unknown = testing::run_oprec({"eval", "--slot", "nope", layer});
    CHECK(unknown.out.empty());
    CHECK(unknown.err == "oprec eval: --slot nope: the records state no slot `nope`\n");
    CHECK(unknown.exit_code == 2);
    const auto none = testing::run_oprec({"eval", "--slot", "qkv", "--set", "dh=none", layer});
    CHECK(none.out.find("the layer config's field 'dh' is None, not a number [type-error]") != std::string::npos);
    CHECK(none.exit_code == 1);
}

TEST_CASE("eval: bytes past a float's range are printed as computed, warned of, exit 1", "[cli][eval]") {
    // Python gives inf too; it was printed as a normal answer, exit 0, and the slot line read "inf bytes ()".
    const std::string layer = OPREC_TEST_DATA "/../examples/llama2-7b.json";
    const std::string warning = ": warning: bytes past a float's range (";
    const auto slot = testing::run_oprec({"eval", "--slot", "qkv", "--set", "h=1e308", layer});
    CHECK(slot.out == "qkv: inf bytes\n");
    CHECK(slot.err == layer + warning + "slot qkv inf), as Python computes them: no usable answer\n");
    CHECK(slot.exit_code == 1);
    const auto table = testing::run_oprec({"eval", "--set", "h=1e308", layer});
    CHECK(table.err == layer + warning + "attention inf, ffn inf, norm inf), as Python computes them: no usable answer\n");
    CHECK(table.exit_code == 1);
    const auto json = testing::run_oprec({"eval", "--format", "json", "--set", "h=1e308", layer});
    CHECK(json.out.find("\"bytes\": \"inf\"") != std::string::npos);
    CHECK(json.exit_code == 1);
    const std::string doc = testing::read_text(layer);
    std::string line;
    for (char c : doc) if (c != '\n') line += c;
    const auto jsonl = testing::run_oprec({"eval", "--jsonl", "--set", "h=1e308"}, line + "\n");
    CHECK(jsonl.err.rfind("<stdin>:1" + warning, 0) == 0);
    CHECK(jsonl.exit_code == 1);
    const auto finite = testing::run_oprec({"eval", layer});
    CHECK(finite.err.empty());
    CHECK(finite.exit_code == 0);
    // The same from a Hugging Face config.
    const std::string config = OPREC_TEST_DATA "/../examples/hf/llama-2-7b.json";
    const auto hf = testing::run_oprec({"eval", "--hf", config, "--set", "h=1e308"});
    CHECK(hf.err == config + warning + "attention inf, ffn inf), as Python computes them: no usable answer\n");
    CHECK(hf.exit_code == 1);
    // A finite size past a million PiB is said in three digits, not three hundred.
    const auto large = testing::run_oprec({"eval", "--set", "h=1e150", "--set", "s=1e150", layer});
    CHECK(large.out.find("3.0719999999999998e+153  2.73e+138 PiB") != std::string::npos);
    CHECK(large.out.find("0000000000") == std::string::npos);
}

TEST_CASE("eval: a document's strings and names reach the terminal escaped, as Python's repr", "[cli][eval]") {
    // A field's string value and an unknown key once printed an escape sequence raw (coloured the terminal).
    testing::TempDir dir;
    const auto value = testing::run_oprec({"eval", dir.write("v.json", R"({"fields": {"h": "a'b\nc\u001b[31mRED"}})").string()});
    CHECK(value.err.find(R"(got a string ("a'b\nc\x1b[31mRED"))") != std::string::npos);
    CHECK(value.err.find('\x1b') == std::string::npos);
    CHECK(value.exit_code == 2);
    const auto key = testing::run_oprec({"eval", dir.write("k.json", R"({"fields": {"h\u001b[31mX": 1}, "switches": {"s\u001b[2J": 1}})").string()});
    CHECK(key.err.find(R"(no field 'h\x1b[31mX')") != std::string::npos);
    CHECK(key.err.find(R"(no switch 's\x1b[2J')") != std::string::npos);
    CHECK(key.err.find('\x1b') == std::string::npos);
}

TEST_CASE("eval: a float has the same digits however it is printed", "[cli][eval]") {
    // 2073600000000000.0: Python's repr; nlohmann's dump would write 2.0736e+15.
    const std::string layer = OPREC_TEST_DATA "/../examples/llama2-7b.json";
    const std::string want = "\"bytes\": 2073600000000000.0";
    const auto full = testing::run_oprec({"eval", "--format", "json", "--set", "s=400000000000", layer});
    CHECK(full.out.find(want) != std::string::npos);
    const auto slot = testing::run_oprec({"eval", "--format", "json", "--slot", "qkv", "--set", "s=400000000000", layer});
    CHECK(slot.out.find(want) != std::string::npos);
    const auto jsonl = testing::run_oprec({"eval", "--jsonl", "--slot", "qkv", "--set", "s=400000000000"},
                                          json::parse(testing::read_text(layer)).dump() + "\n");
    CHECK(jsonl.out.find("\"bytes\":2073600000000000.0") != std::string::npos);
}

TEST_CASE("eval --tier prices alike in each tier, eval --dump lists the run", "[cli][eval][tier][dump]") {
    const std::string layer = OPREC_TEST_DATA "/../examples/deepseek-v3-moe.json";
    const auto fast = testing::run_oprec({"eval", "--format", "json", layer});
    REQUIRE(fast.exit_code == 0);
    for (const char* tier : {"auto", "tree", "registers"}) {
        INFO(tier);
        const auto run = testing::run_oprec({"eval", "--format", "json", "--tier", tier, layer});
        CHECK(run.exit_code == 0);
        CHECK(run.out == fast.out);
    }
    CHECK(testing::run_oprec({"eval", "--tier", "fast", layer}).exit_code != 0);
    CHECK(testing::run_oprec({"eval", "--tier", "straight-line", layer}).exit_code != 0);  // one run per layer now
    const auto dump = testing::run_oprec({"eval", "--dump", layer});
    CHECK(dump.exit_code == 0);
    CHECK(dump.out.rfind("register code:\n", 0) == 0);
    CHECK(dump.out.find("\nregister code typed for this layer:\n") != std::string::npos);
    CHECK(dump.out.find("\n; pinned: ") != std::string::npos);  // the run decided for the model's shape
}

TEST_CASE("oprec eval and calc: options that would do nothing are refused, naming them", "[cli][errors]") {
    const std::string layer = OPREC_SOURCE_DIR "/examples/llama2-7b.json";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"eval", layer, "--slot", "qkv", "--only", "attMM"}, "--slot and --only: give one"},
        {{"eval", layer, "--slot", ""}, "--slot needs a slot's name"},
        {{"eval", layer, "--slot", "qvk"}, "--slot qvk: the records state no slot `qvk` (did you mean `qkv`?)"},
        {{"eval", layer, "--jsonl"}, "--jsonl reads the layer documents from standard input: give no layer file"},
        {{"eval", "--jsonl", "--dump"}, "--dump prints one layer's run: not with --jsonl"},
        {{"eval", "--jsonl", "--format", "table"}, "--format table does not go with it"},
        {{"eval", layer, "--tp", "2"}, "--tp goes with --hf"},
        {{"eval", layer, "--layer", "3"}, "--layer goes with --hf"},
        {{"calc", "--jsonl", "h"}, "--jsonl reads each expression and its bindings from a line"},
    };
    for (const auto& [args, words] : cases) {
        INFO(args.at(0) + " " + args.at(1));
        const auto r = testing::run_oprec(args);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find(words) != std::string::npos);
    }
}

TEST_CASE("eval: a slot the layer does not hold that cannot be priced is said, not only exited 1", "[cli][eval]") {
    // b=0 divides by zero in `routed`, which a dense layer does not hold:
    // the report prices it as the reference does and fails; the table says why.
    const auto r = testing::run_oprec({"eval", OPREC_SOURCE_DIR "/examples/llama2-7b.json", "--set", "b=0"});
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("slot routed (not held) could not be priced: ") != std::string::npos);
    CHECK(r.out.find("float division by zero") != std::string::npos);
}
