#include "cli/layer_table.h"

#include <cmath>
#include <iostream>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli/bytes_text.h"
#include "value/numbers.h"
#include "value/format.h"
#include "value/text.h"
#include "value/json_writer.h"

namespace oprec::cli {

using nlohmann::ordered_json;

namespace {

std::optional<Value> json_value(const ordered_json& j) {
    if (j.is_object()) return std::nullopt;
    return value_from_json(j);
}

std::string header(const TableHeader& h) {
    return fmt::format("{}: {} layer, micro factor {}\n\n", h.name, h.node, h.micro_factor);
}

// The parameters of what the layer holds: a dense feed-forward, or experts and a router.
std::string parameters(const ordered_json& doc) {
    std::string out = "\n  parameters\n";
    const ordered_json& params = doc["params"];
    const bool moe = doc["slots"].contains("routed") && doc["slots"]["routed"]["held"] == true;
    std::vector<std::pair<const char*, const char*>> shown{{"attention", "attn"}};
    if (moe) {
        shown.insert(shown.end(), {{"routed experts", "routed_expert"}, {"shared experts", "shared_expert"}, {"router", "router"}});
    } else {
        shown.push_back({"feed-forward", "ffn"});
    }
    shown.push_back({"norms", "norm"});
    for (const auto& [label, key] : shown) out += fmt::format("  {:<23} {:>22}\n", label, bytes_cell(params[key]));
    out += fmt::format("\n  kv_shards {}, gathered K/V {} bytes per token, head width {}\n", bytes_cell(doc["kv_shards"]),
                       bytes_cell(doc["gathered_kv_bytes"]), bytes_cell(doc["head_dim"]));
    return out;
}

}  // namespace

// (A part that cannot be priced at all is the report's error, not this.)
bool warn_non_finite(const Layer& layer, std::string_view name, const std::string& slot) {
    std::vector<std::string> found;
    try {
        if (!slot.empty()) {
            const Number bytes = layer.slot(slot);
            if (!std::isfinite(bytes.to_double())) found.push_back("slot " + slot + " " + bytes.repr());
        } else {
            // A fully recomputed layer keeps its input alone; its parts are still reported.
            if (layer.recompute() == Recompute::Full)
                if (const Number bytes = layer.total(); !std::isfinite(bytes.to_double()))
                    found.push_back("the layer's input " + bytes.repr());
            for (const auto& [part, bytes] : layer.parts())
                if (!std::isfinite(bytes.to_double())) found.push_back(part + " " + bytes.repr());
        }
    } catch (const std::exception&) {
        return false;
    }
    if (found.empty()) return false;
    std::string list;
    for (const std::string& f : found) list += (list.empty() ? "" : ", ") + f;
    std::cerr << fmt::format("{}: warning: bytes past a float's range ({}), as Python computes them: no usable "
                             "answer\n", name, list);
    return true;
}

bool has_error(const ordered_json& j) {
    if (!j.is_object()) return false;
    if (j.contains("error")) return true;
    for (const auto& [key, value] : j.items())
        if (has_error(value)) return true;
    return false;
}

std::string bytes_cell(const ordered_json& j) {
    if (j.is_object() && j.contains("error")) return "error: " + j["error"]["kind"].get<std::string>();
    auto v = json_value(j);
    return v ? exact_bytes(*v) : json_text(j);
}

std::string human_cell(const ordered_json& j) {
    auto v = json_value(j);
    return v ? human_bytes(v->as_double()) : "";
}

std::string layer_table(const ordered_json& doc, const TableHeader& h, const Layer& layer) {
    std::string out = header(h);
    out += fmt::format("  {:<10} {:<12} {:>22}  {:>11}\n", "part", "slot", "bytes", "");
    const ordered_json& parts = doc["parts"];
    const bool have_total = parts.is_object() && !parts.contains("error");
    const ordered_json priced_parts = have_total ? parts : ordered_json::object();
    for (const auto& [part, part_bytes] : priced_parts.items()) {
        bool first = true;
        for (const auto& [slot, s] : doc["slots"].items()) {
            if (s["part"] != part || s["held"] != true) continue;
            out += fmt::format("  {:<10} {:<12} {:>22}  {:>11}\n", first ? part : "", slot, bytes_cell(s["bytes"]),
                               human_cell(s["bytes"]));
            first = false;
        }
        out += fmt::format("  {:<10} {:<12} {:>22}  {:>11}\n", "", "= " + part, bytes_cell(part_bytes), human_cell(part_bytes));
    }
    if (!have_total) {
        out += fmt::format("  the layer could not be priced: {}\n", parts["error"]["message"].get<std::string>());
    } else {
        // The parts summed as the reference sums them: the layer's total, from the API.
        const Number total = layer.total();
        out += fmt::format("  {:<23} {:>22}  {:>11}\n", "layer", exact_bytes(value_of(total)), human_bytes(total.to_double()));
    }
    // A slot the layer does not hold is not in the table, but the report
    // prices it as the reference does: its error fails the run (exit 1) and
    // would otherwise go unsaid.
    for (const auto& [slot, s] : doc["slots"].items())
        if (s["held"] != true && s["bytes"].is_object() && s["bytes"].contains("error"))
            out += fmt::format("  slot {} (not held) could not be priced: {}\n", slot,
                               s["bytes"]["error"]["message"].get<std::string>());
    if (doc.contains("only")) {
        out += "\n  priced alone:\n";
        for (const auto& [slot, bytes] : doc["only"].items())
            out += fmt::format("  {:<10} {:<12} {:>22}  {:>11}\n", "", slot, bytes_cell(bytes), human_cell(bytes));
    }
    return out + parameters(doc);
}

std::string full_recompute_table(const ordered_json& doc, const TableHeader& h, Value input_bytes) {
    std::string out = header(h);
    out += "  full recompute: the layer keeps only its input and recomputes the rest in the backward\n";
    out += fmt::format("  {:<23} {:>22}  {:>11}\n", "layer (its input)", exact_bytes(input_bytes),
                       human_bytes(input_bytes.as_double()));
    return out + parameters(doc);
}

}  // namespace oprec::cli
