#include "api/debug.h"

#include "api/state.h"
#include "eval/code_dump.h"

namespace oprec::debug {

std::optional<Tier> parse_tier(std::string_view text) {
    if (text == "auto") return Tier::Auto;
    if (text == "tree") return Tier::Tree;
    if (text == "registers") return Tier::Registers;
    return std::nullopt;
}

Records load(const std::filesystem::path& path_or_name, const RecordsOptions& options, Tier tier) {
    RunTier run = RunTier::Auto;
    switch (tier) {
    case Tier::Tree: run = RunTier::Tree; break;
    case Tier::Registers: run = RunTier::Registers; break;
    case Tier::Auto: break;
    }
    return detail::load_records(path_or_name, options, run);
}

std::string dump_code(const Layer& layer) {
    detail::LayerState& s = detail::Access::state(layer);
    if (!s.prepared.runs_typed() && s.prepared.names().all_bound()) s.prepared.make_typed();
    return s.prepared.dump_code();
}

std::string dump_code(const Expression& expr) { return dump_expression(detail::Access::state(expr).compiled); }

Number evaluate_tree(const Expression& expr, const Expression::Lookup& lookup) {
    return detail::evaluate(detail::Access::state(expr), lookup, nullptr, /*tree=*/true);
}

}  // namespace oprec::debug
