#include "repl/fit_report.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

#include <fmt/format.h>

namespace oprec::repl {

namespace {

std::string gib(double bytes) { return fmt::format("{:.2f} GiB", bytes / (1024.0 * 1024 * 1024)); }

// A margin under 0.01 GiB in the unit that shows it: "0.00 GiB over" said
// neither how much nor that it was more than nothing.
std::string margin_text(double bytes) {
    if (bytes >= 0.005 * 1024 * 1024 * 1024) return gib(bytes);
    if (bytes >= 1024 * 1024) return fmt::format("{:.2f} MiB", bytes / (1024.0 * 1024));
    return fmt::format("{:.0f} bytes", bytes);
}

std::vector<std::size_t> shown_stages(const FitResult& r) {
    std::vector<std::size_t> out;
    const std::size_t n = r.stages.size();
    if (n <= 8) {
        for (std::size_t i = 0; i < n; ++i) out.push_back(i);
        return out;
    }
    std::set<std::size_t> pick{0, 1, r.peak_stage, n - 2, n - 1};
    return {pick.begin(), pick.end()};
}

}  // namespace

// 6.74B, 125M, 13.6K: three figures, as model cards give them. The unit is
// chosen after rounding: 999.7M is 1B, not "1e+03M".
std::string parameter_count(double n) {
    static constexpr std::pair<double, const char*> kUnits[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
    for (const auto& [unit, suffix] : kUnits)
        if (n >= 999.5 * (unit / 1e3)) return fmt::format("{:.3g}{}", n / unit, suffix);
    return fmt::format("{:.0f}", n);
}

std::string fit_text(const FitResult& r, std::string_view source, std::string_view records,
                     std::string_view all_stages) {
    const std::string params = r.parameters ? ", " + parameter_count(r.parameters->to_double()) + " parameters" : "";
    std::string out = fmt::format("{}: {}{}\nstrategy: {}; dp={}, {} micro-batch{} a step\nrecords: {}\n\n", source,
                                  r.model, params, r.strategy, r.dp, r.micro_batches, r.micro_batches == 1 ? "" : "es",
                                  records);
    if (r.stages.empty()) return out;
    const std::vector<std::size_t> shown = shown_stages(r);
    std::size_t name_width = 5;
    for (const FitTerm& t : r.terms) name_width = std::max(name_width, t.name.size() + (t.beside ? 9 : 0));
    constexpr std::size_t kCol = 12;
    auto row = [&](const std::string& label, auto cell) {
        std::string line = fmt::format("  {:<{}}", label, name_width);
        for (std::size_t i = 0; i < shown.size(); ++i) {
            if (i > 0 && shown[i] != shown[i - 1] + 1) line += fmt::format("{:>5}", "...");
            line += fmt::format("{:>{}}", cell(r.stages[shown[i]]), kCol);
        }
        out += line + "\n";
    };
    row("stage", [](const FitStage& s) { return fmt::format("{}", s.stage); });
    row("layers", [](const FitStage& s) { return fmt::format("{}", s.layers); });
    for (std::size_t t = 0; t < r.terms.size(); ++t)
        if (!r.terms[t].beside)
            row(r.terms[t].name, [&](const FitStage& s) { return gib(s.bytes[t].to_double()); });
    row("total", [](const FitStage& s) { return gib(s.total.to_double()); });
    for (std::size_t t = 0; t < r.terms.size(); ++t)
        if (r.terms[t].beside)
            row(r.terms[t].name + " (beside)", [&](const FitStage& s) { return gib(s.bytes[t].to_double()); });
    if (shown.size() < r.stages.size()) out += fmt::format("  ({} stages; {})\n", r.stages.size(), all_stages);
    const double margin = r.device_bytes - r.peak_bytes;
    out += fmt::format("\npeak: stage {}, {} of {}: {}\n", r.peak_stage, gib(r.peak_bytes), gib(r.device_bytes),
                       r.fits ? fmt::format("fits, {} to spare", margin_text(margin))
                              : fmt::format("does not fit, {} over", margin_text(-margin)));
    for (const std::string& note : r.notes) out += "note: " + note + "\n";
    return out;
}

}  // namespace oprec::repl
