#include "cli/sweep_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "cli/bytes_text.h"

namespace oprec::cli {

namespace {

// The table's unit: "139.70 GiB".
std::string human(double bytes) { return human_bytes(bytes); }

std::string recomputed_text(const Sweep& sweep, std::size_t setting) {
    const SweepSetting& s = sweep.settings()[setting];
    if (s.kind == Recompute::None) return "none";
    if (s.kind == Recompute::Full) return "full";
    std::string names;
    for (const std::string& sw : s.switches_off) names += (names.empty() ? "" : " ") + sw;
    return names.empty() ? "none (selective)" : names;
}

std::size_t recomputed_count(const Sweep& sweep, std::size_t setting) { return sweep.settings()[setting].recomputed; }

std::string describe_layers(const Sweep& sweep) {
    std::size_t total = 0;
    std::string kinds;
    for (const auto& [kind, n] : sweep.model().kinds) {
        total += n;
        kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, kind);
    }
    return fmt::format("{} layers: {}", total, kinds);
}

}  // namespace

std::string sweep_table(const Sweep& sweep, const StrategyGrid& grid, const std::vector<StrategyFront>& fronts,
                        const SweepTableInfo& info) {
    const SweepModel& m = sweep.model();
    const std::size_t switches = info.switches;
    std::string out = fmt::format("{}: {} (profile {}), {}\n", info.source,
                                  m.model_type.empty() ? "no model_type" : m.model_type, m.family,
                                  describe_layers(sweep));
    const auto skipped = static_cast<std::size_t>(
        std::count_if(fronts.begin(), fronts.end(), [](const StrategyFront& f) { return f.skipped.has_value(); }));
    out += fmt::format("{}{} strategies x {} recompute settings (plain, full and the 2^{} switch settings) priced in {:.2f} s{}\n",
                       info.interrupted ? fmt::format("interrupted: {} of ", fronts.size()) : "",
                       info.interrupted ? info.planned : fronts.size(), sweep.settings().size(), switches, info.seconds,
                       skipped == 0 ? "" : fmt::format("; {} the model cannot take, skipped", skipped));
    const std::vector<std::string> varying = grid.varying();
    if (!fronts.empty()) {
        std::string fixed;
        for (const std::string& option : strategy_option_names())
            if (std::find(varying.begin(), varying.end(), option) == varying.end())
                fixed += fmt::format("{}{} {}", fixed.empty() ? "" : ", ", option, option_value(fronts.front().strategy, option));
        out += "fixed: " + fixed + "\n";
    }
    std::size_t layers = m.layers;
    out += fmt::format("\nPareto front of each strategy: the least memory for each count of ops recomputed;\n"
                       "bytes of one layer of each kind, and of all {} layers{}\n",
                       layers, info.budget ? fmt::format(", against the budget of {}", human(*info.budget)) : "");

    // Columns: the varying options, what is recomputed, each kind, all layers.
    std::vector<std::string> heads = varying;
    heads.push_back("recomputed");
    for (const auto& [kind, n] : m.kinds) heads.push_back(kind + "/layer");
    heads.push_back("all layers");
    std::vector<std::vector<std::string>> rows;
    std::vector<bool> group_start;
    std::size_t fitting_strategies = 0;
    const StrategyFront* best = nullptr;
    const FrontPoint* best_point = nullptr;
    for (const StrategyFront& f : fronts) {
        std::vector<std::string> lead;
        for (const std::string& option : varying) lead.push_back(option_value(f.strategy, option));
        auto row = [&](std::vector<std::string> cells) {
            std::vector<std::string> r = lead;
            r.insert(r.end(), cells.begin(), cells.end());
            rows.push_back(std::move(r));
        };
        const std::size_t first_row = rows.size();
        if (f.skipped) {
            row({"skipped: " + *f.skipped});
        } else {
            bool any = false;
            for (const FrontPoint& p : f.points) {
                if (info.budget && p.model_bytes > *info.budget) continue;
                if (!any && info.budget) {
                    ++fitting_strategies;
                    const std::size_t n = recomputed_count(sweep, p.setting);
                    if (best_point == nullptr || n < recomputed_count(sweep, best_point->setting) ||
                        (n == recomputed_count(sweep, best_point->setting) &&
                         p.model_bytes < best_point->model_bytes)) {
                        best = &f;
                        best_point = &p;
                    }
                }
                any = true;
                std::vector<std::string> cells{recomputed_text(sweep, p.setting)};
                for (const Number& v : p.kind_bytes) cells.push_back(human(v.to_double()));
                cells.push_back(human(p.model_bytes));
                row(std::move(cells));
            }
            if (!any && !f.points.empty())
                row({fmt::format("nothing fits: the least is {} ({})", human(f.points.back().model_bytes),
                                 recomputed_text(sweep, f.points.back().setting))});
        }
        for (std::size_t i = first_row; i < rows.size(); ++i) {
            group_start.push_back(i == first_row);
            if (i != first_row)
                for (std::size_t c = 0; c < varying.size(); ++c) rows[i][c].clear();  // the strategy once per group
        }
    }
    if (info.budget)
        out += best_point == nullptr
                   ? fmt::format("no strategy fits {}\n", human(*info.budget))
                   : fmt::format("{} of {} strategies fit; the least recomputation that fits: {}recomputing {}\n",
                                 fitting_strategies, fronts.size(), [&] {
                                     std::string s;
                                     for (const std::string& o : varying)
                                         s += fmt::format("{}={} ", o, option_value(best->strategy, o));
                                     return s;
                                 }(), recomputed_text(sweep, best_point->setting));

    // Widths: a skipped or nothing-fits note spans the columns after the options.
    std::vector<std::size_t> width(heads.size(), 0);
    for (std::size_t c = 0; c < heads.size(); ++c) width[c] = heads[c].size();
    for (const auto& r : rows)
        for (std::size_t c = 0; c < r.size() && c < heads.size(); ++c)
            if (r.size() == heads.size() || c < varying.size()) width[c] = std::max(width[c], r[c].size());
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l = " ";
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const bool left = c >= varying.size() && c == varying.size();  // recomputed
            const bool note = cells.size() != heads.size() && c == cells.size() - 1;
            if (note) l += " " + cells[c];
            else if (left) l += fmt::format(" {:<{}}", cells[c], width[c]);
            else l += fmt::format(" {:>{}}", cells[c], width[c]);
            if (c + 1 == varying.size()) l += "  |";
        }
        while (!l.empty() && l.back() == ' ') l.pop_back();
        return l + "\n";
    };
    out += "\n" + line(heads);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (group_start[i] && i > 0 && !varying.empty()) out += "\n";
        out += line(rows[i]);
    }
    return out;
}

}  // namespace oprec::cli
