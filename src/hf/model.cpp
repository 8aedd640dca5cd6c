#include "hf/model.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "value/arith.h"
#include "value/format.h"

namespace oprec::hf {

namespace {

Value I(std::int64_t v) { return Value::integer(v); }
Value B(bool v) { return Value::boolean(v); }

std::string lower(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
    return out;
}

std::string kind_list(const OpProfile& p) {
    std::string out;
    for (const LayerKind& k : p.kinds) out += (out.empty() ? "" : ", ") + k.name;
    return out;
}

// The switch the HyperParallel selective rule keeps: the attention kernel's
// output. It recomputes every other op's switch (its checkpoint policy keeps
// matmul and attention-kernel outputs and recomputes the rest).
constexpr std::string_view kSelectiveKeeps = "attBMM";

}  // namespace

const OpProfile* infer_family(const Profiles& profiles, std::string_view model_name) {
    const std::string name = lower(model_name);
    const OpProfile* best = nullptr;
    std::size_t best_len = 0;
    for (const OpProfile& p : profiles.families)
        for (const std::string& prefix : p.matches)
            if (prefix.size() > best_len && name.compare(0, prefix.size(), prefix) == 0) {
                best = &p;
                best_len = prefix.size();
            }
    return best != nullptr ? best : profiles.find("default");
}

HfModel::HfModel(const Program& program, HfConfig config, const std::optional<std::string>& family)
    : program_(program), config_(std::move(config)), name_(lower(config_.model_type())) {
    const Profiles& profiles = program_.profiles;
    if (profiles.families.empty())
        throw HfError("the records hold no op profiles: load stdlib/profiles.rec with them");
    if (family) {
        family_ = profiles.find(*family);
        if (family_ == nullptr) {
            std::string known;
            for (const OpProfile& p : profiles.families) known += (known.empty() ? "" : ", ") + p.name;
            throw HfError(fmt::format("--family {}: no such profile (the profiles: {})", *family, known));
        }
    } else {
        family_ = infer_family(profiles, name_);
        if (family_ == nullptr)
            throw HfError(fmt::format("{}: no profile matches the model name \"{}\" and there is no `default` profile",
                                      config_.source(), name_));
    }
    check_model();

    const std::int64_t layers = config_.required("num_hidden_layers");
    if (auto types = config_.names("layer_types")) {
        std::size_t known = 0;
        for (const std::string& t : *types) known += family_->find_kind(t) != nullptr ? 1 : 0;
        if (known == types->size()) {
            if (static_cast<std::int64_t>(types->size()) != layers)
                config_.fail("layer_types", fmt::format("names {} layers, but `{}` is {}", types->size(),
                                                        config_.key_name("num_hidden_layers"), layers));
            stack_ = *types;
            return;
        }
        if (known > 0)
            for (std::size_t i = 0; i < types->size(); ++i)
                if (family_->find_kind((*types)[i]) == nullptr)
                    throw HfError(fmt::format("{}: `{}[{}]` is \"{}\": not a kind of profile `{}` (its kinds: {})",
                                              config_.source(), config_.key_name("layer_types"), i, (*types)[i],
                                              family_->name, kind_list(*family_)));
        // Names none of the kinds (sliding windows, say): the family's own stack.
    }
    const LayerKind* dense = nullptr;
    const LayerKind* moe = nullptr;
    for (const LayerKind& k : family_->kinds) {
        if (k.ffn == FfnFlavour::Dense && dense == nullptr) dense = &k;
        if (k.ffn == FfnFlavour::Moe && moe == nullptr) moe = &k;
    }
    // A family with a dense kind and no MoE kind routes by its default kind
    // (the model's feed-forward) where the model has experts.
    if (dense != nullptr && moe == nullptr && family_->default_kind && config_.count("num_experts").value_or(0) > 1)
        if (const LayerKind* k = family_->find_kind(*family_->default_kind); k != nullptr && k->ffn == FfnFlavour::Model)
            moe = k;
    if (dense != nullptr && moe != nullptr) {
        const std::int64_t first_dense = config_.count("first_k_dense_replace").value_or(0);
        if (first_dense > layers)
            config_.fail("first_k_dense_replace", fmt::format("is {}, more than the {} layers", first_dense, layers));
        // Which layers route to experts, as transformers' modelling code
        // decides: DeepSeek's (i >= first_k_dense_replace and i %
        // moe_layer_freq == 0), Qwen-MoE's ((i + 1) % decoder_sparse_step ==
        // 0, i not in mlp_only_layers). Absent, every layer past the dense ones.
        const std::int64_t freq = config_.count("moe_layer_freq", true).value_or(1);
        const std::int64_t step = config_.count("decoder_sparse_step", true).value_or(1);
        const std::vector<std::int64_t> mlp_only = config_.indices("mlp_only_layers").value_or(std::vector<std::int64_t>{});
        stack_.reserve(static_cast<std::size_t>(layers));
        for (std::int64_t i = 0; i < layers; ++i) {
            const bool routed = i >= first_dense && i % freq == 0 && (i + 1) % step == 0 &&
                                std::find(mlp_only.begin(), mlp_only.end(), i) == mlp_only.end();
            stack_.push_back(routed ? moe->name : dense->name);
        }
        return;
    }
    if (family_->find_kind("encoder") != nullptr && family_->find_kind("decoder") != nullptr) {
        if (layers % 2 != 0)
            config_.fail("num_hidden_layers", fmt::format("is {}: an encoder-decoder stack is half encoder, half "
                                                          "decoder layers, so an even count", layers));
        stack_.assign(static_cast<std::size_t>(layers / 2), "encoder");
        stack_.resize(static_cast<std::size_t>(layers), "decoder");
        return;
    }
    if (!family_->default_kind)
        throw HfError(fmt::format("{}: profile `{}` has no default kind: `layer_types` must name each layer's kind "
                                  "(one of: {})", config_.source(), family_->name, kind_list(*family_)));
    stack_.assign(static_cast<std::size_t>(layers), *family_->default_kind);
}

void HfModel::check_model() const {
    const std::int64_t h = config_.required("hidden_size");
    const std::int64_t a = config_.required("num_attention_heads");
    // The stack holds a name per layer: a count no model has would only
    // exhaust memory (docs/limits.md).
    if (const std::int64_t layers = config_.required("num_hidden_layers"); layers > kMaxLayers)
        config_.fail("num_hidden_layers", fmt::format("is {}: more than {} layers, more than any model has", layers,
                                                      kMaxLayers));
    if (!config_.has("head_dim") && h % a != 0)
        config_.fail("num_attention_heads",
                     fmt::format("({}) does not divide `{}` ({}), and no `head_dim` states the head width", a,
                                 config_.key_name("hidden_size"), h));
    if (auto n_kv = config_.count("num_key_value_heads", true); n_kv && a % *n_kv != 0)
        config_.fail("num_key_value_heads", fmt::format("({}) does not divide `{}` ({})", *n_kv,
                                                        config_.key_name("num_attention_heads"), a));
    if (!config_.has("intermediate_size") && !config_.has("moe_intermediate_size") && !ungated_mlp())
        config_.required("intermediate_size");
    for (const char* key : {"head_dim", "intermediate_size", "moe_intermediate_size", "shared_expert_intermediate_size",
                            "max_position_embeddings", "v_head_dim", "qk_nope_head_dim", "linear_num_value_heads",
                            "linear_num_key_heads", "linear_key_head_dim", "linear_value_head_dim",
                            "linear_conv_kernel_dim"})
        config_.count(key, true);
    for (const char* key : {"num_experts", "num_experts_per_tok", "num_shared_experts", "first_k_dense_replace",
                            "mtp_depth", "kv_lora_rank", "q_lora_rank", "qk_rope_head_dim", "vocab_size"})
        config_.count(key);
    const std::optional<std::int64_t> experts = config_.count("num_experts");
    const std::optional<std::int64_t> per_token = config_.count("num_experts_per_tok");
    // 0 experts is a dense model (some configs state it so); a token then
    // chooses none, and among experts it chooses at least one.
    if (experts && per_token && *per_token > 0 && *per_token > *experts)
        config_.fail("num_experts_per_tok", fmt::format("({}) is more than the experts, `{}` = {}: a token cannot "
                                                        "choose more experts than there are", *per_token,
                                                        config_.key_name("num_experts"), *experts));
    if (experts && *experts > 1 && per_token && *per_token == 0)
        config_.fail("num_experts_per_tok", fmt::format("is 0: a token chooses at least one of the {} experts (`{}`)",
                                                        *experts, config_.key_name("num_experts")));
}

std::vector<std::pair<std::string, std::size_t>> HfModel::kinds() const {
    std::vector<std::pair<std::string, std::size_t>> out;
    for (const std::string& k : stack_) {
        auto it = std::find_if(out.begin(), out.end(), [&](const auto& e) { return e.first == k; });
        if (it == out.end())
            out.emplace_back(k, 1);
        else
            ++it->second;
    }
    return out;
}

std::size_t HfModel::first_of(std::string_view kind) const {
    auto it = std::find(stack_.begin(), stack_.end(), kind);
    if (it != stack_.end()) return static_cast<std::size_t>(it - stack_.begin());
    std::string present;
    for (const auto& [k, n] : kinds()) present += fmt::format("{}{} ({} layers)", present.empty() ? "" : ", ", k, n);
    throw HfError(fmt::format("--kind {}: {} has no {} layer; its layers: {}", kind, config_.source(), kind, present));
}

std::size_t HfModel::representative_layer() const {
    if (family_->default_kind) {
        auto it = std::find(stack_.begin(), stack_.end(), *family_->default_kind);
        if (it != stack_.end()) return static_cast<std::size_t>(it - stack_.begin());
    }
    return 0;
}

LayerDoc HfModel::layer(std::size_t index, const Strategy& strategy) const {
    if (index >= stack_.size())
        throw HfError(fmt::format("--layer {}: {} has {} layers (0 to {})", index, config_.source(), stack_.size(),
                                  stack_.size() - 1));
    return layer_of_kind(*family_->find_kind(stack_[index]), strategy);
}

bool HfModel::tied_embeddings() const {
    if (const auto stated = config_.flag("tie_word_embeddings")) return *stated;
    // Else its transformers config class's default, as the profiles state it:
    // False for Llama and its kin; PretrainedConfig's True where none says
    // (save_pretrained leaves out a True its class defaults to).
    return model_default("tie_word_embeddings", Value::boolean(true)).truthy();
}

std::int64_t HfModel::kv_heads(std::int64_t heads) const {
    // Falcon's multi_query (with no key/value head count): one shared head.
    const bool one_kv = config_.flag("multi_query").value_or(false);
    return config_.count("num_key_value_heads", true).value_or(one_kv ? 1 : heads);
}

void HfModel::check_strategy(const LayerKind& kind, const Strategy& s, std::int64_t heads, std::int64_t experts) const {
    auto positive = [](const char* option, std::int64_t v) {
        if (v < 1) throw HfError(fmt::format("--{} {}: it must be at least 1", option, v));
    };
    positive("tp", s.tp);
    positive("cp", s.cp);
    positive("ep", s.ep);
    positive("etp", s.etp);
    positive("mbs", s.mbs);
    if (s.seq) positive("seq", *s.seq);
    if (!(s.micro_factor.as_double() > 0))
        throw HfError(fmt::format("--micro-factor {}: it must be above 0", repr(s.micro_factor)));
    const std::string heads_key =
        config_.key_name(kind.attention == AttentionFlavour::Linear ? "linear_num_value_heads" : "num_attention_heads");
    if (heads % s.tp != 0)
        throw HfError(fmt::format("--tp {}: does not divide the heads, `{}` = {} in {}", s.tp, heads_key, heads,
                                  config_.source()));
    std::int64_t tp_cp = 0;
    const bool wide = __builtin_mul_overflow(s.tp, s.cp, &tp_cp);  // beyond 64 bits: divides nothing
    if (s.cp_algo == CpAlgo::Ulysses && (wide || heads % tp_cp != 0))
        throw HfError(fmt::format("--tp {} --cp {} with Ulysses CP: tp*cp = {} does not divide the heads, `{}` = {} in {}",
                                  s.tp, s.cp, wide ? std::string("(beyond 64 bits)") : std::to_string(tp_cp),
                                  heads_key, heads, config_.source()));
    if (kind.attention != AttentionFlavour::Linear) {
        // Megatron-LM splits the key/value heads over tp (divide() asserts it); it does not copy them.
        const std::int64_t kv = kv_heads(heads);
        if (kv % s.tp != 0)
            throw HfError(fmt::format("--tp {}: does not divide the key/value heads, `{}` = {} in {}", s.tp,
                                      config_.has("num_key_value_heads") || !config_.has("multi_query")
                                          ? config_.key_name("num_key_value_heads") : std::string("multi_query"),
                                      config_.has("num_key_value_heads") || !config_.has("multi_query")
                                          ? std::to_string(kv) : std::string("true"),
                                      config_.source()));
        // Ulysses' all-to-all hands each rank whole key/value heads too
        // (Transformer Engine asserts the heads split over cp).
        if (s.cp_algo == CpAlgo::Ulysses && (wide || kv % tp_cp != 0))
            throw HfError(fmt::format("--tp {} --cp {} with Ulysses CP: tp*cp = {} does not divide the key/value "
                                      "heads ({}) in {}",
                                      s.tp, s.cp, wide ? std::string("(beyond 64 bits)") : std::to_string(tp_cp), kv,
                                      config_.source()));
    }
    if (s.ep > 1 && config_.count("num_experts").value_or(1) <= 1)  // as Megatron-LM asserts
        throw HfError(config_.has("num_experts")
                          ? fmt::format("--ep {}: the model has no experts to split (`{}` = {} in {})", s.ep,
                                        config_.key_name("num_experts"), *config_.count("num_experts"), config_.source())
                          : fmt::format("--ep {}: the model has no experts to split ({} states none)", s.ep,
                                        config_.source()));
    if (experts > 1 && experts % s.ep != 0)
        throw HfError(fmt::format("--ep {}: does not divide the experts, `{}` = {} in {}", s.ep,
                                  config_.key_name("num_experts"), experts, config_.source()));
    // Megatron-LM splits each sequence evenly over the context-parallel
    // ranks; a remainder would price a fraction of a token's bytes.
    const std::int64_t seq = s.seq.value_or(default_seq());
    if (seq % s.cp != 0)
        throw HfError(fmt::format("--seq {} does not split evenly over cp {}{}", seq, s.cp,
                                  s.seq ? ""
                                  : config_.has("max_position_embeddings")
                                      ? fmt::format(" (`max_position_embeddings` in {})", config_.source())
                                      : std::string(" (the default sequence)")));
    // Sequence parallelism splits each CP rank's share of the sequence over tp.
    if (s.sp && s.tp > 1 && seq / s.cp % s.tp != 0)
        throw HfError(fmt::format("sequence parallelism splits the sequence over tp: --seq {}{} does not split evenly "
                                  "over tp {} (--no-sp keeps it whole)",
                                  seq, s.cp > 1 ? fmt::format(" over cp {}", s.cp) : "", s.tp));
}

LayerDoc HfModel::layer_of_kind(const LayerKind& kind, const Strategy& s) const {
    const HfConfig& c = config_;
    const bool linear = kind.attention == AttentionFlavour::Linear;
    const std::int64_t h = c.required("hidden_size");
    const std::int64_t heads = linear ? c.required("linear_num_value_heads") : c.required("num_attention_heads");

    // The feed-forward: the dense width (an all-MoE model's shared expert
    // width, else its expert width), one expert's width, the expert counts.
    std::int64_t model_hff = 0;
    if (auto v = c.count("intermediate_size")) model_hff = *v;
    else if (auto sh = c.count("shared_expert_intermediate_size")) model_hff = *sh;
    else if (!c.has("moe_intermediate_size") && ungated_mlp()) {  // GPT-2, BLOOM, Falcon: 4h unstated
        if (__builtin_mul_overflow(h, 4, &model_hff))
            throw HfError(fmt::format("{}: `{}` = {}: the feed-forward width 4 * {} is beyond 64 bits", c.source(),
                                      c.key_name("hidden_size"), h, h));
    } else {
        model_hff = c.required("moe_intermediate_size");
    }
    const std::int64_t hff_exp = c.count("moe_intermediate_size").value_or(model_hff);
    std::int64_t n_exp = std::max<std::int64_t>(1, c.count("num_experts").value_or(1));
    std::int64_t n_chosen = std::max<std::int64_t>(1, c.count("num_experts_per_tok").value_or(1));
    std::int64_t n_shared = 0;
    if (auto v = c.count("num_shared_experts")) {
        n_shared = *v;
    } else if (auto sh = c.count("shared_expert_intermediate_size"), mi = c.count("moe_intermediate_size"); sh && mi && *mi > 0) {
        n_shared = std::max<std::int64_t>(1, *sh / *mi);
    }
    std::int64_t hff = model_hff;
    std::int64_t ep = s.ep;
    if (kind.ffn == FfnFlavour::Dense) {
        n_exp = n_chosen = 1;
        n_shared = 0;
        ep = 1;
    } else if (kind.ffn == FfnFlavour::Moe) {
        hff = hff_exp;
    }
    check_strategy(kind, s, heads, n_exp);

    LayerDoc doc;
    LayerConfig& f = doc.fields;

    // ---- the model's dimensions ------------------------------------------------
    f.set("h", I(h));
    f.set("a", I(heads));
    const ProfileSetting* mla_head = family_->find_model("v_head_dim");
    if (linear) {
        const std::int64_t n_k = c.required("linear_num_key_heads");
        const std::int64_t d_k = c.required("linear_key_head_dim");
        const std::int64_t d_v = c.required("linear_value_head_dim");
        f.set("n_kv", py::truediv(I(n_k) * I(d_k), I(d_v)));  // fractional where the key heads are narrower
        f.set("dh", I(d_v));
    } else {
        f.set("n_kv", I(kv_heads(heads)));
        if (mla_head != nullptr)  // MLA: a value head's width
            f.set("dh", c.has("v_head_dim") ? I(*c.count("v_head_dim")) : mla_head->value);
        else if (auto hd = c.count("head_dim", true))
            f.set("dh", I(*hd));
        else
            f.set("dh", py::truediv(I(h), I(heads)));  // a real number, as the parser computes it
    }
    f.set("dhr", I(c.count("qk_rope_head_dim").value_or(0)));
    f.set("dc_q", I(c.count("q_lora_rank").value_or(0)));
    f.set("dc_kv", I(c.count("kv_lora_rank").value_or(0)));
    if (auto v = c.count("qk_nope_head_dim")) f.set("qk_nope_head_dim", I(*v));
    else f.set("qk_nope_head_dim", std::monostate{});
    if (auto v = c.count("v_head_dim")) f.set("v_head_dim", I(*v));
    else if (mla_head != nullptr) f.set("v_head_dim", mla_head->value);
    else f.set("v_head_dim", std::monostate{});
    f.set("hff", I(hff));
    f.set("hff_exp", I(hff_exp));
    f.set("n_exp", I(n_exp));
    f.set("n_chosen_exp", I(n_chosen));
    f.set("n_shared_exp", I(n_shared));
    f.set("cap_fact", I(1));
    f.set("gmm", B(n_exp != 1));  // MoE routes dropless through grouped GEMMs

    // ---- what the model states, else its family's default for its name ------------------
    const std::optional<bool> qk_norm = c.flag("qk_norm");
    if (linear) {
        const std::int64_t n_k = c.required("linear_num_key_heads"), d_k = c.required("linear_key_head_dim");
        const std::int64_t d_v = c.required("linear_value_head_dim"), conv = c.required("linear_conv_kernel_dim");
        f.set("attn_output_gate", B(true));
        // Value arithmetic: an absurd config raises an overflow instead of wrapping.
        f.set("attn_extra_p", I(conv) * (I(2) * I(n_k) * I(d_k) + I(heads) * I(d_v)) + I(2) * I(h) * I(heads) +
                                  I(2) * I(heads) + I(d_v));
        f.set("n_qknorm", I(0));
    } else {
        f.set("attn_output_gate", B(c.flag("attn_output_gate").value_or(false)));
        f.set("attn_extra_p", I(0));
        f.set("n_qknorm", qk_norm ? I(*qk_norm ? 1 : 0) : model_default("n_qknorm", I(0)));
    }
    for (const char* bias : {"qkv_bias", "o_bias", "mlp_bias"}) {
        const std::optional<bool> stated = c.flag(bias);
        f.set(bias, stated ? B(*stated) : model_default(bias, B(false)));
    }
    f.set("layer_norms", model_default("layer_norms", I(2)));
    f.set("norm_bias", model_default("norm_bias", B(false)));
    f.set("shared_expert_gate", model_default("shared_expert_gate", B(false)));

    // ---- the strategy ----------------------------------------------------------------
    const std::int64_t seq = s.seq ? *s.seq : default_seq();
    const Dtype dtype = s.dtype ? *s.dtype : default_dtype();
    f.set("t", I(s.tp));
    f.set("cp", I(s.cp));
    f.set("sp", I(s.sp ? s.tp : 1));
    f.set("b", I(s.mbs));
    f.set("s", I(seq));
    // Flash attention keeps s/a per token and head, not the whole score row.
    f.set("s_fa", s.flash_attention && heads != 0 ? py::truediv(I(seq), I(heads)) : I(seq));
    f.set("cp_algo", std::string(cp_algo_name(s.cp_algo)));
    f.set("ep", I(ep));
    f.set("etp", I(s.etp));
    f.set("bytes_compute", I(dtype_bytes(dtype)));
    // The family's run settings: softmax and norms in fp32 and no dropout unless it says.
    f.set("bytes_softmax", program_.profiles.run_setting(*family_, "softmax_bytes").value_or(I(4)));
    f.set("bytes_norm", program_.profiles.run_setting(*family_, "norm_bytes").value_or(I(4)));
    f.set("bytes_dropout", program_.profiles.run_setting(*family_, "dropout_bytes").value_or(I(0)));

    // ---- the kind's op counts ---------------------------------------------------------
    std::int64_t att_mm = 0, ff_mm = 0;
    for (std::size_t i = 0; i < program_.op_vector.size() && i < kind.counts.size(); ++i) {
        const std::string& op = program_.op_vector[i];
        if (op == "attMM") att_mm = kind.counts[i];
        if (op == "ffMM") ff_mm = kind.counts[i];
    }
    // Cast copies of the weights beside the matmuls, if the run keeps them.
    f.set("n_attParamCast", I(s.param_casts ? att_mm : 0));
    f.set("n_ffParamCast", I(s.param_casts ? ff_mm : 0));
    for (std::size_t i = 0; i < program_.op_vector.size() && i < kind.counts.size(); ++i)
        f.set("n_" + program_.op_vector[i], I(kind.counts[i]));

    // ---- recompute: the HyperParallel rule's switches, then the asked ones ----------------
    for (const RecordInfo& r : program_.records) {
        if (!r.switch_id || r.is_part) continue;  // a part's switch is not in rec_op: unstated keeps
        const std::string& sw = program_.switches[*r.switch_id];
        const bool keep = s.recompute != Recompute::Selective || sw == kSelectiveKeeps;
        doc.switches[sw] = I(keep ? 1 : 0);
    }
    for (const auto& [sw, v] : s.switches) {
        if (std::find(program_.switches.begin(), program_.switches.end(), sw) == program_.switches.end()) {
            std::string known;
            for (const std::string& k : program_.switches) known += (known.empty() ? "" : ", ") + k;
            throw HfError(fmt::format("--switch {}: no such switch (the switches: {})", sw, known));
        }
        doc.switches[sw] = I(v.truthy() ? 1 : 0);
    }
    doc.context.node = s.recompute == Recompute::Full        ? NodeKind::FullRec
                       : s.recompute == Recompute::Selective ? NodeKind::SelRec
                                                             : NodeKind::NotRec;
    doc.context.micro_factor = s.micro_factor;
    doc.context.dropless_tok_factor = I(1);
    return doc;
}

Value HfModel::model_default(std::string_view field, Value fallback) const {
    const ProfileSetting* d = family_->model_default(field, name_);
    return d != nullptr ? d->value : fallback;
}

bool HfModel::ungated_mlp() const {
    const auto ffmm = std::find(program_.op_vector.begin(), program_.op_vector.end(), "ffMM");
    if (ffmm == program_.op_vector.end() || family_->kinds.empty()) return false;
    const auto i = static_cast<std::size_t>(ffmm - program_.op_vector.begin());
    return std::all_of(family_->kinds.begin(), family_->kinds.end(),
                       [&](const LayerKind& k) { return i < k.counts.size() && k.counts[i] == 2; });
}

std::int64_t HfModel::default_seq() const { return config_.count("max_position_embeddings", true).value_or(4096); }

Dtype HfModel::default_dtype() const {
    auto t = config_.text("torch_dtype");
    if (!t) return Dtype::Bf16;
    auto d = parse_dtype(*t);
    if (!d) config_.fail("torch_dtype", fmt::format("is \"{}\": not bf16, fp16 or fp32 (pass --dtype)", *t));
    return *d;
}

Strategy HfModel::resolved(Strategy strategy) const {
    if (!strategy.seq) strategy.seq = default_seq();
    if (!strategy.dtype) strategy.dtype = default_dtype();
    return strategy;
}

Value HfModel::shard_recompute_input(const LayerDoc& layer) const {
    const auto shard = program_.profiles.run_setting(*family_, "shard_activations");
    return shard && shard->truthy() ? layer.fields.number("t") : I(1);
}

Value HfModel::full_recompute_input(const LayerDoc& layer) const {
    return oprec::full_recompute_input(layer, shard_recompute_input(layer));
}

}  // namespace oprec::hf
