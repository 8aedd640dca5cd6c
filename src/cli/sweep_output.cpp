#include "cli/sweep_output.h"

#include <algorithm>

#include <fmt/format.h>

#include "value/numbers.h"
#include "cli/strategy_grid.h"
#include "value/json_writer.h"
#include "value/text.h"

namespace oprec::cli {

using nlohmann::ordered_json;

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string_view kind_word(Recompute kind) {
    return kind == Recompute::None ? "plain" : kind == Recompute::Full ? "full" : "selective";
}

// What a setting recomputes, as the CSV and JSON list it: nothing, "full",
// or the switches turned off.
std::vector<std::string> recomputed_names(const SweepSetting& s) {
    if (s.kind == Recompute::Full) return {"full"};
    return s.switches_off;
}

}  // namespace

// ---- CSV ----------------------------------------------------------------------------

std::string csv_header(const Sweep& sweep) {
    std::string out = "tp,cp,cp_algo,sp,ep,etp,mbs,seq,dtype,flash_attention,param_casts,micro_factor,"
                      "setting,recomputed,n_recomputed";
    for (const auto& [kind, n] : sweep.model().kinds) out += "," + kind + "_bytes";
    return out + ",model_bytes,skipped\n";
}

std::string csv_rows(const Sweep& sweep, const SweepRow& r) {
    std::string strategy;
    for (const std::string& option : strategy_option_names())
        strategy += (strategy.empty() ? "" : ",") + option_value(r.settled, option);
    if (r.skipped) {
        std::string out = strategy + ",,,";
        for (std::size_t k = 0; k < sweep.model().kinds.size(); ++k) out += ",";
        return out + "," + "," + csv_field(*r.skipped) + "\n";
    }
    std::string out;
    for (std::size_t i = 0; i < sweep.settings().size(); ++i) {
        const SweepSetting& s = sweep.settings()[i];
        out += fmt::format("{},{},", strategy, kind_word(s.kind));
        const std::vector<std::string> names = recomputed_names(s);
        for (std::size_t n = 0; n < names.size(); ++n) out += (n == 0 ? "" : "+") + names[n];
        out += fmt::format(",{}", s.recomputed);
        for (const SweepKind& k : r.kinds) out += "," + k.bytes[i].repr();
        out += "," + Number::real(r.model_bytes[i]).repr() + ",\n";
    }
    return out;
}

// ---- JSON ---------------------------------------------------------------------------

std::string json_open(const Sweep& sweep, std::size_t strategies) {
    const SweepModel& m = sweep.model();
    ordered_json model = {{"config", m.config}, {"model_type", m.model_type}, {"family", m.family}, {"layers", m.layers}};
    ordered_json kinds = ordered_json::array();
    for (const auto& [kind, n] : m.kinds) kinds.push_back({{"kind", kind}, {"layers", n}});
    model["kinds"] = std::move(kinds);
    ordered_json settings = ordered_json::array();
    for (const SweepSetting& s : sweep.settings())
        settings.push_back({{"setting", kind_word(s.kind)}, {"recomputed", recomputed_names(s)}, {"n_recomputed", s.recomputed}});
    std::string head = json_text(ordered_json{{"model", model}, {"settings", settings}, {"planned", strategies}});
    head.pop_back();  // the closing brace: the strategies follow
    return head + ",\"strategies\":[\n";
}

std::string json_strategy(const SweepRow& r, bool first) {
    ordered_json strategy = ordered_json::object();
    for (const std::string& option : strategy_option_names()) {
        const std::string v = option_value(r.settled, option);
        std::string key = option;
        std::replace(key.begin(), key.end(), '-', '_');
        if (v == "on" || v == "off") strategy[key] = v == "on";
        else if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) && !v.empty())
            strategy[key] = std::stoll(v);
        else
            strategy[key] = v;
    }
    strategy["micro_factor"] = to_json(value_of(r.settled.micro_factor));
    ordered_json out = {{"strategy", strategy}};
    if (r.skipped) {
        out["skipped"] = *r.skipped;
    } else {
        ordered_json bytes = ordered_json::object();
        for (const SweepKind& k : r.kinds) {
            ordered_json list = ordered_json::array();
            for (const Number& v : k.bytes) list.push_back(to_json(value_of(v)));
            bytes[k.kind] = std::move(list);
        }
        out["bytes"] = std::move(bytes);  // by kind: one layer, by setting
        out["model_bytes"] = r.model_bytes;
        out["front"] = r.front;
    }
    return (first ? "" : ",\n") + json_text(out);
}

std::string json_close(std::size_t written, std::size_t skipped, bool interrupted) {
    return fmt::format("\n],\"written\":{},\"priced\":{},\"skipped\":{},\"interrupted\":{}}}\n", written,
                       written - skipped, skipped, interrupted ? "true" : "false");
}

// ---- the table ------------------------------------------------------------------------

StrategyFront front_of(const SweepRow& r) {
    StrategyFront out{r.settled, r.skipped, {}};
    for (std::size_t i : r.front) {
        FrontPoint p{i, {}, r.model_bytes[i]};
        for (const SweepKind& k : r.kinds) p.kind_bytes.push_back(k.bytes[i]);
        out.points.push_back(std::move(p));
    }
    return out;
}

}  // namespace oprec::cli
