#include "hf/sweep_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "value/format.h"
#include "value/text.h"
#include "value/json_writer.h"

namespace oprec::hf {

using nlohmann::ordered_json;

namespace {

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string joined(const std::vector<std::string>& names, const char* sep) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : sep) + n;
    return out;
}

}  // namespace

// ---- CSV ----------------------------------------------------------------------------

std::string csv_header(const Sweep& sweep) {
    std::string out = "tp,cp,cp_algo,sp,ep,etp,mbs,seq,dtype,flash_attention,param_casts,micro_factor,"
                      "setting,recomputed,n_recomputed";
    for (const auto& [kind, n] : sweep.kinds()) out += "," + kind + "_bytes";
    return out + ",model_bytes,skipped\n";
}

std::string csv_rows(const Sweep& sweep, const StrategyResult& r) {
    std::string strategy;
    for (const std::string& option : strategy_options()) strategy += (strategy.empty() ? "" : ",") + option_value(r.strategy, option);
    if (r.skipped) {
        std::string out = strategy + ",,,";
        for (std::size_t k = 0; k < sweep.kinds().size(); ++k) out += ",";
        return out + "," + "," + csv_field(*r.skipped) + "\n";
    }
    std::string out;
    for (std::size_t i = 0; i < sweep.settings().size(); ++i) {
        const Setting& s = sweep.settings()[i];
        out += strategy;
        out += s.kind == Setting::Kind::Plain ? ",plain," : s.kind == Setting::Kind::Full ? ",full," : ",selective,";
        out += joined(sweep.recomputed(s), "+");
        out += fmt::format(",{}", sweep.recomputed_count(s));
        for (const KindBytes& k : r.kinds) out += "," + repr(k.bytes[i]);
        out += "," + float_repr(r.model_bytes[i]) + ",\n";
    }
    return out;
}

// ---- JSON ---------------------------------------------------------------------------

std::string json_open(const Sweep& sweep, std::size_t strategies) {
    const HfModel& m = sweep.model();
    ordered_json model = {{"config", m.config().source()},
                          {"model_type", m.config().model_type()},
                          {"family", m.family().name},
                          {"layers", m.stack().size()}};
    ordered_json kinds = ordered_json::array();
    for (const auto& [kind, n] : sweep.kinds()) kinds.push_back({{"kind", kind}, {"layers", n}});
    model["kinds"] = std::move(kinds);
    ordered_json settings = ordered_json::array();
    for (const Setting& s : sweep.settings()) {
        settings.push_back({{"setting", s.kind == Setting::Kind::Plain  ? "plain"
                                        : s.kind == Setting::Kind::Full ? "full"
                                                                        : "selective"},
                            {"recomputed", sweep.recomputed(s)},
                            {"n_recomputed", sweep.recomputed_count(s)}});
    }
    std::string head = json_text(ordered_json{{"model", model}, {"settings", settings}, {"planned", strategies}});
    head.pop_back();  // the closing brace: the strategies follow
    return head + ",\"strategies\":[\n";
}

std::string json_strategy(const Sweep& sweep, const StrategyResult& r, bool first) {
    ordered_json strategy = ordered_json::object();
    for (const std::string& option : strategy_options()) {
        const std::string v = option_value(r.strategy, option);
        std::string key = option;
        std::replace(key.begin(), key.end(), '-', '_');
        if (v == "on" || v == "off") strategy[key] = v == "on";
        else if (std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }) && !v.empty())
            strategy[key] = std::stoll(v);
        else
            strategy[key] = v;
    }
    strategy["micro_factor"] = to_json(r.strategy.micro_factor);
    ordered_json out = {{"strategy", strategy}};
    if (r.skipped) {
        out["skipped"] = *r.skipped;
    } else {
        ordered_json bytes = ordered_json::object();
        for (const KindBytes& k : r.kinds) {
            ordered_json list = ordered_json::array();
            for (Value v : k.bytes) list.push_back(to_json(v));
            bytes[k.kind] = std::move(list);
        }
        out["bytes"] = std::move(bytes);  // by kind: one layer, by setting
        out["model_bytes"] = r.model_bytes;
        out["front"] = sweep.front(r);
    }
    (void)sweep;
    return (first ? "" : ",\n") + json_text(out);
}

std::string json_close(std::size_t priced, bool interrupted) {
    return fmt::format("\n],\"priced\":{},\"interrupted\":{}}}\n", priced, interrupted ? "true" : "false");
}

// ---- the table ------------------------------------------------------------------------

StrategyFront front_of(const Sweep& sweep, const StrategyResult& r) {
    StrategyFront out{r.strategy, r.skipped, {}};
    for (std::size_t i : sweep.front(r)) {
        FrontPoint p{i, {}, r.model_bytes[i]};
        for (const KindBytes& k : r.kinds) p.kind_bytes.push_back(k.bytes[i]);
        out.points.push_back(std::move(p));
    }
    return out;
}

}  // namespace oprec::hf
