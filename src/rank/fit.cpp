#include "rank/fit.h"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "code/interp.h"
#include "eval/pricing.h"
#include "model/params.h"
#include "rank/layout.h"
#include "value/arith.h"
#include "value/format.h"

namespace oprec::rank {

namespace {

Value I(std::int64_t v) { return Value::integer(v); }
Value B(bool v) { return Value::boolean(v); }

// What a fully recomputed layer keeps, evaluated on each layer kind.
constexpr const char* kRecomputedLayerBytes = "recomputed_layer_bytes";
// A fn `layer_NAME()` is evaluated on each layer kind and summed over a
// chunk's layers into the name `chunk_NAME`.
constexpr std::string_view kLayerPrefix = "layer_";

Value larger(Value a, Value b) { return py::compare(py::CmpOp::Gt, b, a) ? b : a; }

Value sum_parts(const Named<Value>& parts) {
    Value total = Value::real(0.0);
    for (const auto& [part, bytes] : parts) total = py::add(total, bytes);
    return total;
}

}  // namespace

namespace {

// The names the fit binds, with what each means (docs/fit.md); a term reads them by name.
constexpr std::pair<std::string_view, std::string_view> kBound[] = {
    {"gpus", "GPUs of the job"},
    {"pp", "pipeline stages"},
    {"vp", "model chunks per stage (interleaved pipeline)"},
    {"vp_group", "micro-batches a chunk takes in a row under the interleaved schedule"},
    {"dp", "data-parallel size: gpus / (t * pp * cp)"},
    {"edp", "expert data-parallel size: gpus / (pp * ep * etp)"},
    {"m", "micro-batches per step per pipeline: gbs / (b * dp)"},
    {"gbs", "global batch, sequences per step"},
    {"stage", "this stage, from 0"},
    {"chunk", "this model chunk of the stage, from 0"},
    {"layers", "transformer layers of the model"},
    {"stage_layers", "transformer layers on this stage, every chunk"},
    {"chunk_layers", "transformer layers in this chunk"},
    {"chunk_layer_bytes", "activations kept per micro-batch by the chunk's layers not fully recomputed"},
    {"chunk_recomputed_layers", "the chunk's layers fully recomputed"},
    {"chunk_recomputed_bytes", "recomputed_layer_bytes() summed over the inputs the recomputed layers keep"},
    {"recompute_group", "layers recomputed together in the backward"},
    {"max_layer_bytes", "the most one of the stage's layers keeps per micro-batch, nothing recomputed"},
    {"last_layer_bytes", "what the stage's last layer keeps per micro-batch, nothing recomputed"},
    {"zero", "ZeRO stage: 0 none, 1 distributed optimizer, 2 gradients too, 3 weights too"},
    {"adam", "the optimizer is Adam (else SGD)"},
    {"param_bytes", "bytes of a weight in the compute dtype"},
    {"main_grad_bytes", "bytes of an accumulated gradient: 4 when accumulated in fp32, else param_bytes"},
    {"fp16", "the run is fp16 (loss scaling)"},
    {"interleaved", "the schedule is interleaved 1F1B (VPP)"},
    {"gpipe", "the schedule is GPipe"},
    {"dualpipev", "the schedule is DualPipeV"},
    {"zero_bubble", "the schedule is zero-bubble"},
    {"selective", "the layers run selective recompute"},
    {"cp_ring", "context parallelism is a ring (ring or hybrid algorithm)"},
    {"cp_ulysses", "context parallelism is Ulysses"},
    {"v", "vocabulary, padded"},
    {"tied", "input embedding and output layer share one table"},
    {"learned_positions", "a learned position embedding"},
    {"max_positions", "max_position_embeddings"},
    {"mtp_layers", "multi-token prediction layers (on the last stage)"},
    {"grouped_gemm", "MoE experts run as one grouped GEMM"},
    {"fused_cross_entropy", "the loss is one fused kernel"},
    {"moe_allgather", "MoE tokens are dispatched by all-gather (else all-to-all)"},
    {"deferred_wgrad", "micro-batches whose output-layer weight gradient waits (0: none)"},
    {"block_params", "per layer kind: layer_block's non-expert parameters (attention, norms, dense ffn or router)"},
    {"block_routed_params", "per layer kind: layer_block's routed-expert parameters"},
    {"block_shared_params", "per layer kind: layer_block's shared-expert parameters"},
};

// A bound name's index in kBound, found at compile time (a typo does not compile).
consteval std::size_t bound(std::string_view name) {
    for (std::size_t i = 0; i < std::size(kBound); ++i)
        if (kBound[i].first == name) return i;
    throw "not a bound name";
}

}  // namespace

const std::vector<std::pair<std::string, std::string>>& RankModel::bound_names() {
    static const std::vector<std::pair<std::string, std::string>> names = [] {
        std::vector<std::pair<std::string, std::string>> out;
        for (const auto& [name, meaning] : kBound) out.emplace_back(name, meaning);
        return out;
    }();
    return names;
}

RankModel::RankModel(const Program& program, const hf::HfModel& model)
    : program_(program), model_(model), records_(program) {
    bound_.resize(std::size(kBound));
    for (std::size_t i = 0; i < std::size(kBound); ++i) bound_[i] = program.find_name(kBound[i].first);
    if (program.terms.empty())
        throw FitError("the records state no `term`: they are op records, not a whole-rank model "
                       "(records/rank_calibrated.rec and records/rank_reference.rec are)");
    for (const CompiledFn& fn : program.code.fns) {
        const bool per_layer = fn.name.rfind(kLayerPrefix, 0) == 0;
        if (!per_layer && fn.name != kRecomputedLayerBytes) continue;
        if (fn.params != 0)
            throw FitError(fmt::format("fn `{}` takes parameters: the fit calls it on each layer kind with none", fn.name));
        if (per_layer)
            layer_fns_.push_back({fn.name, fn.body,
                                  program.find_name("chunk_" + fn.name.substr(kLayerPrefix.size()))});
        else
            recomputed_layer_bytes_ = fn.body;
    }
}

std::shared_ptr<const RankModel::Prepared> RankModel::prepare(const hf::Strategy& layer_strategy) const {
    const std::string key = hf::describe(layer_strategy) + " " + std::string(hf::recompute_name(layer_strategy.recompute));
    {
        const std::lock_guard<std::mutex> lock(last_mutex_);
        if (layer_strategy.switches.empty())
            for (const auto& p : recent_)
                if (p->key == key) return p;
    }
    // Each kind priced once, at one micro-batch: its activations plainly and
    // as kept, and the per-layer fns on its own fields.
    hf::Strategy plain = layer_strategy, kept = layer_strategy;
    plain.recompute = hf::Recompute::None;
    plain.micro_factor = I(1);
    kept.recompute = layer_strategy.recompute == hf::Recompute::Selective ? hf::Recompute::Selective : hf::Recompute::None;
    kept.micro_factor = I(1);
    // The family's run settings (profiles.rec's `run`), for the layer fns and the terms alike.
    const OpProfile& family = model_.family();
    auto bind_run_settings = [&](Bindings& names) {
        for (const ProfileSetting& r : program_.profiles.run_defaults)
            if (auto id = program_.find_name(r.name))
                if (auto v = program_.profiles.run_setting(family, r.name)) names.set(*id, *v);
    };
    auto out = std::make_shared<Prepared>(Prepared{key, {}, {}, Bindings(program_)});
    const std::string& representative = model_.stack().at(model_.representative_layer());
    for (const auto& entry : model_.kinds()) {
        const std::string& kind = entry.first;  // a name, not a binding: the lambdas below capture it
        const LayerKind& k = *model_.family().find_kind(kind);
        const LayerDoc plain_doc = model_.layer_of_kind(k, plain);
        const LayerDoc kept_doc = model_.layer_of_kind(k, kept);
        Bindings names = records_.bind(kept_doc);
        bind_run_settings(names);
        if (kind == representative) {  // the terms read its fields, and what the fit binds
            out->names = names;
            for (const std::optional<NameId>& id : bound_)
                if (id) out->names.set(*id, I(0));
        }
        auto bind_native = [&](const char* name, auto count_of) {
            if (auto id = program_.find_name(name)) {
                try {
                    names.set(*id, count_of(kept_doc.fields));
                } catch (const EvalError&) {
                    // A count the layer's fields do not give: reading it raises.
                }
            }
        };
        bind_native("block_params", [](const LayerConfig& f) {
            const bool moe = py::compare(py::CmpOp::Gt, f.number("n_exp"), I(1));
            return num_params_attn(f) + num_params_norm(f) + (moe ? num_params_router(f) : num_params_ffn(f));
        });
        bind_native("block_routed_params", [](const LayerConfig& f) {
            return py::compare(py::CmpOp::Gt, f.number("n_exp"), I(1)) ? num_params_routed_expert(f) : I(0);
        });
        bind_native("block_shared_params", [](const LayerConfig& f) {
            return py::compare(py::CmpOp::Gt, f.number("n_exp"), I(1)) ? num_params_shared_expert(f) : I(0);
        });
        Interpreter<const Bindings> interp(program_.code, names);
        auto call = [&](NodeId body, const std::string& fn) {
            try {
                return interp.run(body);
            } catch (EvalError& e) {  // the records' error, kept as one (the API's PricingError)
                e.set_context(fmt::format("`{}()` on a {} layer", fn, kind));
                throw;
            }
        };
        KindFacts f;
        for (const LayerFn& fn : layer_fns_) f.per_layer.push_back(call(fn.body, fn.name));
        f.plain_bytes = sum_parts(records_.layer_bytes(plain_doc));
        f.kept_bytes = sum_parts(records_.layer_bytes(kept_doc));
        if (recomputed_layer_bytes_) f.recomputed_bytes = call(*recomputed_layer_bytes_, kRecomputedLayerBytes);
        out->kinds.emplace(kind, std::move(f));
    }
    out->by_layer.reserve(model_.stack().size());
    for (const std::string& kind : model_.stack()) out->by_layer.push_back(&out->kinds.at(kind));
    const std::lock_guard<std::mutex> lock(last_mutex_);
    if (recent_.size() == 4) recent_.erase(recent_.begin());
    recent_.push_back(out);
    return out;
}

Fit RankModel::fit(const RankStrategy& s) const {
    const hf::Strategy layer_strategy = model_.resolved(s.layer);
    const std::int64_t tp = layer_strategy.tp, cp = layer_strategy.cp, ep = layer_strategy.ep,
                       etp = layer_strategy.etp, mbs = layer_strategy.mbs;
    if (s.gpus < 1 || s.pp < 1 || s.vpp < 1) throw FitError("--gpus, --pp and --vpp must be at least 1");
    // Products that pass 64 bits are no divisor of --gpus (nor a batch): refused, not wrapped.
    const auto product = [](std::initializer_list<std::int64_t> factors) -> std::optional<std::int64_t> {
        std::int64_t p = 1;
        for (const std::int64_t f : factors)
            if (__builtin_mul_overflow(p, f, &p)) return std::nullopt;
        return p;
    };
    const std::optional<std::int64_t> tp_pp_cp = product({tp, s.pp, cp}), pp_ep_etp = product({s.pp, ep, etp});
    if (!tp_pp_cp || s.gpus % *tp_pp_cp != 0)
        throw FitError(fmt::format("--gpus {} is not a multiple of tp * pp * cp = {} * {} * {}", s.gpus, tp, s.pp, cp));
    const std::int64_t dp = s.gpus / *tp_pp_cp;
    if (!pp_ep_etp || s.gpus % *pp_ep_etp != 0)
        throw FitError(fmt::format("--gpus {} is not a multiple of pp * ep * etp = {} * {} * {}", s.gpus, s.pp, ep, etp));
    const std::int64_t edp = s.gpus / *pp_ep_etp;
    const std::optional<std::int64_t> mbs_dp = product({mbs, dp});
    if (!mbs_dp) throw FitError(fmt::format("mbs * dp = {} * {} passes 64 bits", mbs, dp));
    // Unstated, the batch is one micro-batch per data-parallel rank; under the
    // interleaved schedule, the group of micro-batches it runs on each chunk
    // in turn (pp unless stated), the least Megatron-LM runs.
    const bool interleaved = s.schedule_or_default() == Schedule::Interleaved;
    const std::int64_t group = s.vp_group.value_or(s.pp);
    const std::optional<std::int64_t> least_gbs =
        interleaved || s.interleaved_batch ? product({*mbs_dp, group}) : mbs_dp;
    if (!s.gbs && !least_gbs) throw FitError(fmt::format("mbs * dp * pp = {} * {} * {} passes 64 bits", mbs, dp, group));
    const std::int64_t gbs = s.gbs.value_or(*least_gbs);
    if (gbs < 1 || gbs % *mbs_dp != 0)
        throw FitError(fmt::format("--gbs {} is not a multiple of mbs * dp = {} * {}", gbs, mbs, dp));
    const std::int64_t m = gbs / *mbs_dp;
    // Megatron-LM splits each sequence evenly over the context-parallel ranks.
    if (layer_strategy.seq && *layer_strategy.seq % cp != 0)
        throw FitError(fmt::format("--seq {} does not split evenly over cp {}", *layer_strategy.seq, cp));
    if (s.zero < 0 || s.zero > 3) throw FitError(fmt::format("--zero {}: a ZeRO stage is 0, 1, 2 or 3", s.zero));
    if (s.vpp > 1 && s.pp < 2)
        throw FitError(fmt::format("--vpp {} interleaves model chunks over pipeline stages: it needs --pp 2 or more", s.vpp));
    // Chunks run only interleaved, and the interleaved schedule needs chunks:
    // either alone would be priced as a schedule no framework runs.
    if (s.schedule == Schedule::Interleaved && s.vpp < 2)
        throw FitError("the interleaved schedule needs model chunks: --vpp 2 or more");
    if (s.vpp > 1 && (s.schedule == Schedule::OneFOneB || s.schedule == Schedule::GPipe ||
                      s.schedule == Schedule::ZeroBubble))
        throw FitError(fmt::format("--vpp {} model chunks run only under the interleaved schedule and DualPipeV, not {}",
                                   s.vpp, schedule_name(*s.schedule)));
    // DualPipeV's V: each rank runs two chunks, one on the way down the
    // stages and one on the way back (its module is a pair).
    if (s.schedule == Schedule::DualPipeV && s.vpp != 2)
        throw FitError(fmt::format("DualPipeV runs two model chunks on each rank, down the stages and back: --vpp 2, "
                                   "not {}", s.vpp));

    const Layout layout = lay_out(model_.stack().size(), s);
    // Megatron-LM runs a group of pp to m micro-batches on each chunk in turn,
    // and a last group of fewer than pp would stall the pipeline: it raises.
    if (interleaved && group < s.pp)
        throw FitError(fmt::format("the interleaved schedule takes at least pp = {} micro-batches in a row on each "
                                   "model chunk, not {}",
                                   s.pp, group));
    if (interleaved && m < group)
        throw FitError(fmt::format("the interleaved schedule takes {} micro-batches in a row on each model chunk; the "
                                   "batch gives {} (global batch {} / (micro-batch {} * dp {}))",
                                   group, m, gbs, mbs, dp));
    if (interleaved && m % group != 0 && m % group < s.pp)
        throw FitError(fmt::format("the interleaved schedule runs micro-batches in groups of {} on each model chunk; "
                                   "the batch's {} leave a last group of {}, fewer than pp = {} (Megatron-LM refuses "
                                   "it: a multiple of {} runs)",
                                   group, m, m % group, s.pp, group));

    const std::shared_ptr<const Prepared> prepared = prepare(layer_strategy);
    const std::vector<const KindFacts*>& facts = prepared->by_layer;
    Bindings names = prepared->names;
    auto bind = [&](std::size_t index, Value v) {
        if (const std::optional<NameId>& id = bound_[index]) names.set(*id, v);
    };
    const hf::HfConfig& config = model_.config();
    const std::int64_t vocab = s.vocab ? *s.vocab : config.count("vocab_size").value_or(0);
    // The embedding, the output layer and the logits are priced from it. (A
    // strategy's own 0 is a launch command's unknown vocabulary, noted there.)
    if (!s.vocab && vocab < 1)
        throw FitError(fmt::format("{}: {}: give `vocab_size` (at least 1), or --vocab", config.source(),
                                   config.has("vocab_size") ? fmt::format("`{}` is {}", config.key_name("vocab_size"), vocab)
                                                            : std::string("the config states no vocab_size")));
    const bool tied = s.untied ? !*s.untied : model_.tied_embeddings();
    const Schedule schedule = s.schedule_or_default();
    const std::int64_t param_bytes = hf::dtype_bytes(*layer_strategy.dtype);
    bind(bound("gpus"), I(s.gpus));
    bind(bound("pp"), I(s.pp));
    bind(bound("vp"), I(s.vpp));
    bind(bound("vp_group"), I(s.vp_group.value_or(s.pp)));
    bind(bound("dp"), I(dp));
    bind(bound("edp"), I(edp));
    bind(bound("m"), I(m));
    bind(bound("gbs"), I(gbs));
    bind(bound("layers"), I(static_cast<std::int64_t>(model_.stack().size())));
    bind(bound("zero"), I(s.zero));
    bind(bound("adam"), B(s.optimizer == Optimizer::Adam));
    bind(bound("param_bytes"), I(param_bytes));
    bind(bound("main_grad_bytes"), I(s.fp32_grads ? 4 : param_bytes));
    bind(bound("fp16"), B(*layer_strategy.dtype == hf::Dtype::Fp16));
    bind(bound("interleaved"), B(schedule == Schedule::Interleaved));
    bind(bound("gpipe"), B(schedule == Schedule::GPipe));
    bind(bound("dualpipev"), B(schedule == Schedule::DualPipeV));
    bind(bound("zero_bubble"), B(schedule == Schedule::ZeroBubble));
    bind(bound("selective"), B(layer_strategy.recompute == hf::Recompute::Selective));
    bind(bound("cp_ring"), B(layer_strategy.cp_algo != CpAlgo::Ulysses));
    bind(bound("cp_ulysses"), B(layer_strategy.cp_algo == CpAlgo::Ulysses));
    bind(bound("v"), I(vocab));
    bind(bound("tied"), B(tied));
    bind(bound("learned_positions"), B(s.learned_positions));
    bind(bound("max_positions"), I(config.count("max_position_embeddings").value_or(0)));
    bind(bound("mtp_layers"), I(s.mtp_layers));
    bind(bound("grouped_gemm"), B(s.grouped_gemm));
    bind(bound("fused_cross_entropy"), B(s.fused_cross_entropy));
    bind(bound("moe_allgather"), B(s.moe_allgather));
    bind(bound("deferred_wgrad"), I(s.deferred_wgrad));

    Fit out;
    // Settled as a command would state it again: the batch, and the layers of
    // each virtual stage as laid out (describe() states them where uneven;
    // first and last stage counts say themselves).
    RankStrategy settled = s;
    settled.layer = layer_strategy;
    settled.gbs = gbs;
    settled.virtual_stage_layers.clear();
    if (!s.first_stage_layers && !s.last_stage_layers)
        for (std::int64_t v = 0; v < layout.pp * layout.vp; ++v) {  // in model order, as --stage-layers takes them
            const auto [stage, chunk] = place(v, layout.pp, s.schedule_or_default() == Schedule::DualPipeV);
            settled.virtual_stage_layers.push_back(static_cast<std::int64_t>(layout.chunk(stage, chunk).count));
        }
    out.strategy = describe(settled);
    out.dp = dp;
    out.micro_batches = m;
    out.device_bytes = s.device_bytes;
    out.stages.reserve(static_cast<std::size_t>(s.pp));
    std::vector<Value> sums(layer_fns_.size());
    for (std::int64_t stage = 0; stage < s.pp; ++stage) {
        StageFit sf;
        sf.stage = stage;
        sf.bytes.assign(program_.terms.size(), I(0));
        Value max_layer = I(0), last_layer = I(0);
        for (std::int64_t ci = 0; ci < layout.vp; ++ci) {
            const Chunk& c = layout.chunk(stage, ci);
            for (std::size_t l = c.first; l < c.first + c.count; ++l) {
                last_layer = facts[l]->plain_bytes;
                max_layer = larger(max_layer, last_layer);
            }
        }
        bind(bound("stage"), I(stage));
        bind(bound("stage_layers"), I(layout.stage_layers(stage)));
        bind(bound("max_layer_bytes"), max_layer);
        bind(bound("last_layer_bytes"), last_layer);
        for (std::int64_t ci = 0; ci < layout.vp; ++ci) {
            const Chunk& c = layout.chunk(stage, ci);
            std::fill(sums.begin(), sums.end(), I(0));
            Value kept_sum = I(0), recomputed = I(0);
            std::int64_t recomputed_layers = 0;
            for (std::size_t i = 0; i < c.count; ++i) {
                const KindFacts& f = *facts[c.first + i];
                for (std::size_t k = 0; k < sums.size(); ++k) sums[k] = py::add(sums[k], f.per_layer[k]);
                if (c.recomputed(i)) ++recomputed_layers;
                else kept_sum = py::add(kept_sum, f.kept_bytes);
                if (c.keeps_input(i)) {
                    if (!f.recomputed_bytes)
                        throw FitError(fmt::format("the records declare no fn `{}()`: what a fully recomputed layer keeps",
                                                   kRecomputedLayerBytes));
                    recomputed = py::add(recomputed, *f.recomputed_bytes);
                }
            }
            for (std::size_t k = 0; k < sums.size(); ++k)
                if (layer_fns_[k].chunk_name) names.set(*layer_fns_[k].chunk_name, sums[k]);
            bind(bound("chunk"), I(ci));
            bind(bound("chunk_layers"), I(static_cast<std::int64_t>(c.count)));
            bind(bound("chunk_layer_bytes"), kept_sum);
            bind(bound("chunk_recomputed_layers"), I(recomputed_layers));
            bind(bound("chunk_recomputed_bytes"), recomputed);
            bind(bound("recompute_group"), I(c.recompute_group));
            Interpreter<const Bindings> interp(program_.code, names);
            for (std::size_t ti = 0; ti < program_.terms.size(); ++ti) {
                const TermInfo& t = program_.terms[ti];
                try {
                    sf.bytes[ti] = py::add(sf.bytes[ti], interp.run(t.formula));
                } catch (EvalError& e) {
                    e.set_context(fmt::format("term `{}` (stage {}, chunk {})", t.name, stage, ci));
                    throw;
                }
            }
        }
        sf.layers = layout.stage_layers(stage);
        Value total = Value::real(0.0);
        for (std::size_t ti = 0; ti < sf.bytes.size(); ++ti) {
            const Value bytes = sf.bytes[ti];
            const double d = bytes.as_double();
            if (!(d >= 0) || d > 1e30)
                throw FitError(fmt::format("{}: term `{}` gives {} bytes on stage {}: a rank's bytes are finite and "
                                           "not negative",
                                           program_.sources.where(program_.terms[ti].span), program_.terms[ti].name,
                                           repr(bytes), stage));
            if (!program_.terms[ti].beside) total = py::add(total, bytes);
        }
        sf.total = total;
        out.stages.push_back(std::move(sf));
    }
    for (std::size_t i = 0; i < out.stages.size(); ++i) {
        const double bytes = out.stages[i].total.as_double();
        if (i == 0 || bytes > out.peak_bytes) {
            out.peak_bytes = bytes;
            out.peak_stage = i;
        }
    }
    out.fits = out.peak_bytes <= out.device_bytes;
    return out;
}

}  // namespace oprec::rank
