// The sweep through the API: hf::Sweep over the records' evaluator, its
// results as public values.
#include "oprec/sweep.h"

#include <fmt/format.h>

#include "api/hf_strategy.h"
#include "api/state.h"
#include "hf/hf_config.h"
#include "hf/model.h"
#include "hf/sweep.h"

namespace oprec {

namespace detail {
// The model and the sweep refer to the records' program and to each other:
// made once on the heap, never moved.
struct SweepState {
    std::shared_ptr<const RecordsState> records;
    hf::HfModel model;
    hf::Sweep sweep;
    SweepModel about;
    std::vector<SweepSetting> settings;

    SweepState(std::shared_ptr<const RecordsState> r, hf::HfModel m)
        : records(std::move(r)), model(std::move(m)), sweep(*records->evaluator, model) {
        about = {model.config().source(), model.config().model_type(), model.family().name, model.stack().size(),
                 sweep.kinds()};
        for (const hf::Setting& s : sweep.settings()) {
            const auto kind = s.kind == hf::Setting::Kind::Plain  ? Recompute::None
                              : s.kind == hf::Setting::Kind::Full ? Recompute::Full
                                                                  : Recompute::Selective;
            std::vector<std::string> off;
            if (kind == Recompute::Selective) off = sweep.recomputed(s);
            settings.push_back({kind, sweep.setting_name(s), std::move(off), sweep.recomputed_count(s)});
        }
    }
};
}  // namespace detail

Sweep::Sweep(const Records& records, const std::filesystem::path& config, std::optional<std::string> family) {
    const auto& state = detail::Access::state(records);
    if (!records.has_profiles())
        throw LayerError(fmt::format("{}: no op profiles: load the records with RecordsOptions::profiles "
                                     "(\"profiles.rec\")", records.source()));
    try {
        state_ = std::make_unique<detail::SweepState>(
            state, hf::HfModel(state->program, hf::HfConfig::read(config.string()), family));
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    }
}

Sweep::Sweep(Sweep&&) noexcept = default;
Sweep& Sweep::operator=(Sweep&&) noexcept = default;
Sweep::~Sweep() = default;

const SweepModel& Sweep::model() const { return state_->about; }
const std::vector<SweepSetting>& Sweep::settings() const { return state_->settings; }

SweepRow Sweep::price(const HfStrategy& strategy) const {
    const hf::Strategy s = detail::internal_strategy(strategy);
    hf::StrategyResult result;
    try {
        result = state_->sweep.price(s);
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, state_->records->program.sources);
    }
    SweepRow row;
    row.settled = detail::public_strategy(result.strategy);
    row.settled.recompute = strategy.recompute;  // the sweep prices every setting: what was asked stays
    row.settled.switches = strategy.switches;
    row.strategy = hf::describe(result.strategy);
    row.skipped = result.skipped;
    for (const hf::KindBytes& k : result.kinds) {
        SweepKind kind{k.kind, k.layers, {}};
        kind.bytes.reserve(k.bytes.size());
        for (const Value& v : k.bytes) kind.bytes.push_back(detail::to_number(v));
        row.kinds.push_back(std::move(kind));
    }
    row.model_bytes = result.model_bytes;
    row.front = state_->sweep.front(result);
    return row;
}

}  // namespace oprec
