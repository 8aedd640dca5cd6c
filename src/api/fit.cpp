// The whole-rank fit through the API: records with terms, a config, and a
// strategy to each stage's bytes.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "api/hf_strategy.h"
#include "api/state.h"
#include "hf/hf_config.h"
#include "hf/model.h"
#include "oprec/fit.h"
#include "rank/fit.h"
#include "value/json_writer.h"

namespace oprec {

namespace detail {

namespace {
// A term's declaration as written: its lines until the brackets it opens
// close; and the comment lines just above, which name its source.
void declaration(const SourceFile& file, std::uint32_t line, FitTerm& term) {
    int depth = 0;
    for (std::uint32_t l = line; l <= file.line_count(); ++l) {
        const std::string_view text = file.line(l);
        term.text += std::string(text) + "\n";
        for (char c : text.substr(0, text.find('#'))) depth += (c == '(' || c == '[') - (c == ')' || c == ']');
        if (depth <= 0) break;
    }
    std::uint32_t first = line;
    while (first > 1 && file.line(first - 1).starts_with("#")) --first;
    for (std::uint32_t l = first; l < line; ++l) term.comment += std::string(file.line(l)) + "\n";
}
}  // namespace

struct FitState {
    std::shared_ptr<const RecordsState> records;
    hf::HfModel model;
    rank::RankModel rank;  // refers to `model` and the records' program: the state never moves
    std::string description;
    std::vector<FitTerm> terms;  // the records' terms, as every result names them

    FitState(std::shared_ptr<const RecordsState> r, hf::HfConfig config, const std::optional<std::string>& family)
        : records(std::move(r)), model(records->program, std::move(config), family), rank(records->program, model) {
        description = fmt::format("{} (profile {}), {} layers", model.name().empty() ? "model" : model.name(),
                                  model.family().name, model.stack().size());
        const SourceMap& sources = records->program.sources;
        for (const TermInfo& t : records->program.terms) {
            FitTerm term{t.name, t.beside, sources.where(t.span), {}, {}};
            if (t.span.known()) declaration(sources.file(t.span.file), t.span.line, term);
            terms.push_back(std::move(term));
        }
    }
};

namespace {

rank::RankStrategy internal(const FitStrategy& s) {
    rank::RankStrategy out;
    out.layer = internal_strategy(s.layer);
    out.gpus = s.gpus;
    out.pp = s.pp;
    out.vpp = s.vpp;
    out.gbs = s.gbs;
    out.zero = s.zero;
    if (s.schedule) {
        const auto schedule = rank::parse_schedule(*s.schedule);
        if (!schedule)
            throw LayerError(fmt::format("schedule `{}`: expected 1f1b, interleaved, gpipe, dualpipev or zero-bubble",
                                         *s.schedule));
        out.schedule = *schedule;
    }
    const auto optimizer = rank::parse_optimizer(s.optimizer);
    if (!optimizer) throw LayerError(fmt::format("optimizer `{}`: expected adam or sgd", s.optimizer));
    out.optimizer = *optimizer;
    if (s.recompute_method != "uniform" && s.recompute_method != "block")
        throw LayerError(fmt::format("recompute method `{}`: expected uniform or block", s.recompute_method));
    out.recompute_method =
        s.recompute_method == "uniform" ? rank::RecomputeMethod::Uniform : rank::RecomputeMethod::Block;
    out.recompute_layers = s.recompute_layers;
    out.first_stage_layers = s.first_stage_layers;
    out.last_stage_layers = s.last_stage_layers;
    out.virtual_stage_layers = s.virtual_stage_layers;
    out.vp_group = s.vp_group;
    out.interleaved_batch = s.interleaved_batch;
    out.balance_layers = s.balance_layers;
    out.untied = s.untied;
    out.vocab = s.vocab;
    out.mtp_layers = s.mtp_layers;
    out.learned_positions = s.learned_positions;
    out.fp32_grads = s.fp32_grads;
    out.grouped_gemm = s.grouped_gemm;
    out.fused_cross_entropy = s.fused_cross_entropy;
    out.moe_allgather = s.moe_allgather;
    out.deferred_wgrad = s.deferred_wgrad;
    out.device_bytes = s.device_bytes;
    return out;
}

std::shared_ptr<const RecordsState> checked(const Records& records) {
    if (!records.has_profiles())
        throw LayerError(fmt::format("{}: no op profiles: load the records with RecordsOptions::profiles "
                                     "(\"profiles.rec\")", records.source()));
    return Access::state(records);
}

std::unique_ptr<FitState> make_state(const Records& records, hf::HfConfig config, const std::optional<std::string>& family) {
    auto state = checked(records);
    try {
        return std::make_unique<FitState>(state, std::move(config), family);
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    } catch (const rank::FitError& e) {
        throw LayerError(e.what());
    }
}

}  // namespace
}  // namespace detail

FitModel::FitModel(const Records& records, const std::filesystem::path& config, std::optional<std::string> family) {
    try {
        state_ = detail::make_state(records, hf::HfConfig::read(config.string()), family);
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    }
}

FitModel::FitModel(const Records& records, std::string_view config_json, std::string source_name,
                   std::optional<std::string> family) {
    try {
        state_ = detail::make_state(records, hf::HfConfig::parse(config_json, std::move(source_name)), family);
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    }
}

FitModel::FitModel(FitModel&&) noexcept = default;
FitModel& FitModel::operator=(FitModel&&) noexcept = default;
FitModel::~FitModel() = default;

FitResult FitModel::fit(const FitStrategy& strategy) const {
    try {
        const rank::Fit f = state_->rank.fit(detail::internal(strategy));
        FitResult out;
        out.model = state_->description;
        for (const std::string& tower : state_->model.config().other_towers())
            out.notes.push_back(fmt::format("`{}`: the {} tower is not priced, only the text model", tower,
                                            tower.substr(0, tower.find('_'))));
        out.strategy = f.strategy;
        out.dp = f.dp;
        out.micro_batches = f.micro_batches;
        out.terms = state_->terms;
        out.stages.reserve(f.stages.size());
        for (const rank::StageFit& s : f.stages) {
            FitStage stage{s.stage, s.layers, {}, detail::to_number(s.total)};
            stage.bytes.reserve(s.bytes.size());
            for (const Value& v : s.bytes) stage.bytes.push_back(detail::to_number(v));
            out.stages.push_back(std::move(stage));
        }
        out.peak_stage = f.peak_stage;
        out.peak_bytes = f.peak_bytes;
        out.device_bytes = f.device_bytes;
        out.fits = f.fits;
        return out;
    } catch (const hf::HfError& e) {
        throw LayerError(e.what());
    } catch (const rank::FitError& e) {
        throw LayerError(e.what());
    } catch (const EvalError& e) {
        throw detail::pricing_error(e, state_->records->program.sources);
    }
}

std::optional<Number> FitModel::parameters(const FitStrategy& strategy) const {
    const auto& terms = state_->terms;
    const auto weights = std::find_if(terms.begin(), terms.end(), [](const FitTerm& t) { return t.name == "weights" && !t.beside; });
    if (weights == terms.end()) return std::nullopt;
    FitStrategy one = strategy;  // the same model, whole on one GPU, 4 bytes a parameter
    one.gpus = one.pp = one.vpp = 1;
    one.layer.tp = one.layer.cp = one.layer.ep = one.layer.etp = 1;
    one.layer.dtype = "fp32";
    one.zero = 0;
    one.gbs.reset();
    one.schedule.reset();
    one.first_stage_layers.reset();
    one.last_stage_layers.reset();
    one.virtual_stage_layers.clear();
    one.vp_group.reset();
    one.interleaved_batch = false;
    try {
        const FitResult r = fit(one);
        const double count = r.stages.at(0).bytes.at(static_cast<std::size_t>(weights - terms.begin())).to_double() / 4;
        if (count == std::floor(count) && std::fabs(count) < 9.0e15) return Number::integer(static_cast<std::int64_t>(count));
        return Number::real(count);
    } catch (const LayerError&) {
        return std::nullopt;  // what the strategy's own fit says is the answer
    } catch (const PricingError&) {
        return std::nullopt;  // what the strategy's own fit says is the answer
    }
}

std::string FitResult::to_json(int indent) const {
    JsonWriter w(indent);
    w.begin_object();
    w.key("model");
    w.string(model);
    w.key("strategy");
    w.string(strategy);
    w.key("dp");
    w.value(Value::integer(dp));
    w.key("micro_batches");
    w.value(Value::integer(micro_batches));
    w.key("stages");
    w.begin_array();
    for (const FitStage& s : stages) {
        w.begin_object();
        w.key("stage");
        w.value(Value::integer(s.stage));
        w.key("layers");
        w.value(Value::integer(s.layers));
        w.key("total_bytes");
        w.value(detail::to_value(s.total));
        w.key("terms");
        w.begin_object();
        for (std::size_t t = 0; t < terms.size(); ++t)
            if (!terms[t].beside) {
                w.key(terms[t].name);
                w.value(detail::to_value(s.bytes[t]));
            }
        w.end_object();
        w.key("beside");
        w.begin_object();
        for (std::size_t t = 0; t < terms.size(); ++t)
            if (terms[t].beside) {
                w.key(terms[t].name);
                w.value(detail::to_value(s.bytes[t]));
            }
        w.end_object();
        w.end_object();
    }
    w.end_array();
    if (parameters) {
        w.key("parameters");
        w.value(detail::to_value(*parameters));
    }
    if (!notes.empty()) {
        w.key("notes");
        w.begin_array();
        for (const std::string& note : notes) w.string(note);
        w.end_array();
    }
    w.key("peak_bytes");
    w.value(Value::real(peak_bytes));
    w.key("peak_stage");
    w.value(Value::integer(static_cast<std::int64_t>(peak_stage)));
    w.key("device_bytes");
    w.value(Value::real(device_bytes));
    w.key("margin_bytes");
    w.value(Value::real(device_bytes - peak_bytes));
    w.key("fits");
    w.boolean(fits);
    w.end_object();
    return w.take() + "\n";
}

}  // namespace oprec
