#include "rank/megatron_derive.h"

#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "hf/model.h"  // kMaxLayers: the bound a config's layers have too

namespace oprec::rank::detail {

namespace {

// "SOURCE:LINE:COL" of the last statement of `flag`, SOURCE where unstated.
std::string where(const ParsedArgs& out, std::string_view flag) {
    for (auto it = out.used.rbegin(); it != out.used.rend(); ++it)
        if (it->name == flag) return fmt::format("{}:{}:{}", out.source, it->line, it->col);
    return out.source;
}

// Stated anywhere in the command, a flag this reader files as changing nothing too.
bool given(const ParsedArgs& out, std::string_view flag) {
    for (const auto* list : {&out.used, &out.ignored, &out.unknown})
        for (const StatedFlag& f : *list)
            if (f.name == flag) return true;
    return false;
}

bool stated(const ParsedArgs& out, std::string_view flag) {
    return std::any_of(out.used.begin(), out.used.end(), [&](const StatedFlag& f) { return f.name == flag; });
}

[[noreturn]] void fail(const ParsedArgs& out, std::string_view flag, const std::string& what) {
    throw MegatronArgsError(fmt::format("{}: {}", where(out, flag), what));
}

// The list expressions of _eval_pattern: a recursive descent over
// ints, [lists], +, * and parentheses.
class Pattern {
public:
    using Value = std::variant<std::int64_t, std::vector<int>>;
    Pattern(const std::string& text, const std::string& where) : s_(text), where_(where) {}

    Value parse() {
        Value v = sum();
        if (i_ != s_.size()) bad();
        return v;
    }

private:
    Value sum() {
        Value v = product();
        while (eat('+')) {
            Value r = product();
            if (v.index() != r.index()) bad();
            if (auto* n = std::get_if<std::int64_t>(&v)) {
                if (__builtin_add_overflow(*n, std::get<std::int64_t>(r), n)) bad();
            } else {
                auto& l = std::get<std::vector<int>>(v);
                const auto& rl = std::get<std::vector<int>>(r);
                l.insert(l.end(), rl.begin(), rl.end());
            }
        }
        return v;
    }
    Value product() {
        Value v = atom();
        while (eat('*')) {
            Value r = atom();
            const std::int64_t* times = std::get_if<std::int64_t>(&r);
            const std::int64_t* left = std::get_if<std::int64_t>(&v);
            if (left && times) {
                std::int64_t product = 0;
                if (__builtin_mul_overflow(*left, *times, &product)) bad();
                v = product;
            } else if (times || left) {
                const std::int64_t n = times ? *times : *left;
                const std::vector<int> base = std::get<std::vector<int>>(times ? v : r);
                if (n < 0 || static_cast<std::size_t>(n) * base.size() > 1'000'000) bad();
                std::vector<int> out;
                for (std::int64_t k = 0; k < n; ++k) out.insert(out.end(), base.begin(), base.end());
                v = std::move(out);
            } else {
                bad();
            }
        }
        return v;
    }
    Value atom() {
        if (eat('(')) {
            if (++depth_ > kMaxDepth) bad();  // a recursive descent: bounded, not the stack's end
            Value v = sum();
            if (!eat(')')) bad();
            --depth_;
            return v;
        }
        if (eat('[')) {
            std::vector<int> items;
            if (eat(']')) return items;
            do items.push_back(static_cast<int>(number()));
            while (eat(','));
            if (!eat(']')) bad();
            return items;
        }
        return number();
    }
    std::int64_t number() {
        const std::size_t start = i_;
        while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_])) && i_ - start < 9) ++i_;
        if (i_ == start) bad();
        return std::stoll(s_.substr(start, i_ - start));
    }
    bool eat(char c) {
        if (i_ < s_.size() && s_[i_] == c) {
            ++i_;
            return true;
        }
        return false;
    }
    [[noreturn]] void bad() const {
        throw MegatronArgsError(fmt::format("{}: --moe-layer-freq expects a whole number or a list expression "
                                            "such as ([0]*3+[1]*13), got `{}`",
                                            where_, s_));
    }
    static constexpr int kMaxDepth = 100;
    const std::string& s_;
    const std::string& where_;
    std::size_t i_ = 0;
    int depth_ = 0;
};

// The most symbols a layout may unroll to: far past any model's layers.
constexpr std::size_t kMaxLayoutSymbols = 1'000'000;

// Layout symbols one item at a time: a symbol or a (group), each `*N`.
std::string unroll(const std::string& s, std::size_t& i, const std::string& where, int depth) {
    const bool in_group = depth > 0;
    std::string out;
    auto bad = [&] {
        throw MegatronArgsError(
            fmt::format("{}: --pipeline-model-parallel-layout cannot be read at `{}`", where, s.substr(i, 40)));
    };
    if (depth > 100) bad();  // a recursive descent: bounded, not the stack's end
    while (i < s.size()) {
        std::string item;
        if (s[i] == ')') {
            if (!in_group) bad();
            return out;
        }
        if (s[i] == '(') {
            ++i;
            item = unroll(s, i, where, depth + 1);
            if (i >= s.size() || s[i] != ')') bad();
            ++i;
        } else if (s[i] == ',') {  // cosmetic
            ++i;
            continue;
        } else if (std::string_view("Etm|L").find(s[i]) != std::string_view::npos) {
            item = std::string(1, s[i++]);
        } else {
            bad();
        }
        if (i < s.size() && s[i] == '*') {
            ++i;
            const std::size_t start = i;
            while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && i - start < 6) ++i;
            if (i == start) bad();
            const int n = std::stoi(s.substr(start, i - start));
            if (item.size() * static_cast<std::size_t>(n) + out.size() > kMaxLayoutSymbols)
                throw MegatronArgsError(fmt::format("{}: --pipeline-model-parallel-layout unrolls to more than {} symbols",
                                                    where, kMaxLayoutSymbols));
            std::string repeated;
            for (int k = 0; k < n; ++k) repeated += item;
            item = std::move(repeated);
        }
        out += item;
    }
    if (in_group) bad();
    return out;
}

// a * b, or none past 64 bits.
std::optional<std::int64_t> checked_product(std::int64_t a, std::int64_t b) {
    std::int64_t r = 0;
    if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
    return r;
}

// The vocabulary rounded up to a multiple, as _vocab_size_with_padding; none past 64 bits.
std::optional<std::int64_t> pad_vocab(std::int64_t size, std::int64_t multiple) {
    std::int64_t sum = 0;
    if (__builtin_add_overflow(size, multiple - 1, &sum)) return std::nullopt;
    return checked_product(sum / multiple, multiple);
}

}  // namespace

std::vector<int> eval_pattern(const std::string& text, const std::string& where) {
    Pattern::Value v = Pattern(text, where).parse();
    if (auto* list = std::get_if<std::vector<int>>(&v)) return *list;
    return {};  // an int: the caller's
}

std::vector<std::string> expand_layout(const std::string& text, const std::string& where) {
    std::size_t i = 0;
    const std::string flat = unroll(text, i, where, 0);
    std::vector<std::string> stages{""};
    for (char c : flat) {
        if (c == '|')
            stages.emplace_back();
        else
            stages.back() += c;
    }
    return stages;
}

void derive(ParsedArgs& out, const Stated& st) {
    Args& a = out.args;
    // Required: what Megatron's _check_arg_is_not_none and the batch checks refuse without.
    if (st.encoder_seq_length && !stated(out, "--seq-length")) a.seq_length = *st.encoder_seq_length;
    for (auto [flag, value] : {std::pair{"--num-layers", a.num_layers}, {"--hidden-size", a.hidden_size},
                               {"--num-attention-heads", a.num_attention_heads}, {"--seq-length", a.seq_length},
                               {"--micro-batch-size", a.micro_batch_size}})
        if (value == 0) throw MegatronArgsError(fmt::format("{}: {} is required and not given", out.source, flag));

    if (a.num_layers > hf::kMaxLayers)
        fail(out, "--num-layers", fmt::format("--num-layers {}: more than {} layers", a.num_layers, hf::kMaxLayers));
    // The product of `factors`, or a refusal at `flag` saying what it is
    // the product of: one wrapped past 64 bits would be divided by below
    // (it once was, by zero).
    const auto product = [&](std::string_view flag, std::string_view what, std::initializer_list<std::int64_t> factors) {
        std::optional<std::int64_t> r = 1;
        for (std::int64_t f : factors) r = r ? checked_product(*r, f) : r;
        if (!r) fail(out, flag, fmt::format("{} = {} is beyond 64 bits", what, fmt::join(factors, " x ")));
        return *r;
    };

    // Sizes of the parallel groups.
    const std::int64_t model =
        product("--tensor-model-parallel-size", "tensor x pipeline x context parallel",
                {a.tensor_model_parallel_size, a.pipeline_model_parallel_size, a.context_parallel_size});
    if (a.gpus % model != 0)
        throw MegatronArgsError(fmt::format(
            "{}: {} GPUs are not divisible by tensor x pipeline x context parallel = {} x {} x {} = {}",
            where(out, "--tensor-model-parallel-size"), a.gpus, a.tensor_model_parallel_size,
            a.pipeline_model_parallel_size, a.context_parallel_size, model));
    a.data_parallel_size = a.gpus / model;
    if (!st.expert_tensor_parallel_size) a.expert_tensor_parallel_size = a.tensor_model_parallel_size;
    if (a.num_experts && *a.num_experts == 0) a.num_experts.reset();
    if (a.expert_model_parallel_size > 1) {
        if (!a.num_experts) fail(out, "--expert-model-parallel-size", "--expert-model-parallel-size needs --num-experts");
        if (*a.num_experts % a.expert_model_parallel_size != 0)
            fail(out, "--expert-model-parallel-size",
                 fmt::format("--num-experts {} is not divisible by --expert-model-parallel-size {}", *a.num_experts,
                             a.expert_model_parallel_size));
    }
    const std::int64_t expert_model =
        product("--expert-model-parallel-size", "expert tensor x expert x pipeline parallel",
                {a.expert_tensor_parallel_size, a.expert_model_parallel_size, a.pipeline_model_parallel_size});
    if (a.gpus % expert_model != 0)
        fail(out, "--expert-model-parallel-size",
             fmt::format("{} GPUs are not divisible by expert tensor x expert x pipeline parallel = {} x {} x {} = {}",
                         a.gpus, a.expert_tensor_parallel_size, a.expert_model_parallel_size,
                         a.pipeline_model_parallel_size, expert_model));
    a.expert_data_parallel_size = a.gpus / expert_model;

    // Batch: Megatron's microbatch calculator refuses a batch the data-parallel ranks cannot share.
    const std::int64_t batch =
        product("--micro-batch-size", "--micro-batch-size x data parallel", {a.micro_batch_size, a.data_parallel_size});
    if (!st.global_batch_size) a.global_batch_size = batch;
    if (a.global_batch_size % batch != 0)
        fail(out, "--global-batch-size",
             fmt::format("--global-batch-size {} is not divisible by --micro-batch-size {} x data parallel {}",
                         a.global_batch_size, a.micro_batch_size, a.data_parallel_size));
    a.num_microbatches = a.global_batch_size / batch;

    // The model's shape.
    if (a.ffn_hidden_size == 0)
        a.ffn_hidden_size = a.swiglu ? (product("--hidden-size", "the feed-forward width", {8, a.hidden_size}) / 3) / 64 * 64
                                     : product("--hidden-size", "the feed-forward width", {4, a.hidden_size});
    if (a.kv_channels == 0) {
        if (a.hidden_size % a.num_attention_heads != 0)
            fail(out, "--hidden-size",
                 fmt::format("--hidden-size {} is not divisible by --num-attention-heads {} (give --kv-channels)",
                             a.hidden_size, a.num_attention_heads));
        a.kv_channels = a.hidden_size / a.num_attention_heads;
    }
    a.num_query_groups = a.group_query_attention ? st.num_query_groups.value_or(1) : a.num_attention_heads;
    // Megatron's own asserts, said in its flags (the config written from
    // them would name keys the launch command never states).
    if (a.num_query_groups < 1 || a.num_attention_heads % a.num_query_groups != 0)
        fail(out, "--num-query-groups",
             fmt::format("--num-query-groups {} does not divide --num-attention-heads {}", a.num_query_groups,
                         a.num_attention_heads));
    if (a.num_attention_heads % a.tensor_model_parallel_size != 0)
        fail(out, "--tensor-model-parallel-size",
             fmt::format("--num-attention-heads {} is not divisible by --tensor-model-parallel-size {}",
                         a.num_attention_heads, a.tensor_model_parallel_size));
    else if (a.num_query_groups >= 1 && a.num_query_groups % a.tensor_model_parallel_size != 0)
        fail(out, "--tensor-model-parallel-size",
             fmt::format("--num-query-groups {} is not divisible by --tensor-model-parallel-size {}",
                         a.num_query_groups, a.tensor_model_parallel_size));
    if (a.context_parallel_size > 1 && a.seq_length % (2 * a.context_parallel_size) != 0)
        fail(out, "--seq-length",
             fmt::format("--seq-length {} must be a multiple of 2 x --context-parallel-size {}", a.seq_length,
                         a.context_parallel_size));
    if (!st.max_position_embeddings) {
        a.max_position_embeddings = a.seq_length;
        out.notes.push_back("--max-position-embeddings not given: taken as --seq-length (Megatron requires it)");
    } else if (a.max_position_embeddings < a.seq_length) {
        fail(out, "--max-position-embeddings",
             fmt::format("--max-position-embeddings {} is less than --seq-length {}", a.max_position_embeddings,
                         a.seq_length));
    }
    if (st.use_rotary_position_embeddings) a.position_embedding_type = "rope";
    if (a.position_embedding_type != "rope") a.apply_rope_fusion = false;
    if (!a.add_bias_linear) a.bias_gelu_fusion = false;
    if (a.add_bias_linear) a.add_qkv_bias = true;
    if (a.apply_query_key_layer_scaling) a.attention_softmax_in_fp32 = true;
    if (a.tensor_model_parallel_size == 1) a.sequence_parallel = false;

    // Precision.
    if (a.fp16 && a.bf16) fail(out, "--bf16", "--bf16 and --fp16 cannot both be given");
    a.params_dtype = a.fp16 ? "fp16" : a.bf16 ? "bf16" : "fp32";
    if (a.bf16) {
        if (a.grad_reduce_in_bf16)
            a.accumulate_allreduce_grads_in_fp32 = false;
        else if (a.main_grads_dtype == "fp32")
            a.accumulate_allreduce_grads_in_fp32 = true;
    }

    // Recompute.
    if (st.recompute_activations) a.recompute_granularity = "selective";
    // TransformerConfig: "--moe-layer-recompute is deprecated. Use --recompute-granularity
    // selective --recompute-modules moe_layer instead", and it does so, beside the modules
    // already asked (core_attn by default); with full recompute it raises.
    if (st.moe_layer_recompute && a.recompute_granularity == "full")
        fail(out, "--moe-layer-recompute", "--moe-layer-recompute cannot go with --recompute-granularity full");
    if (st.moe_layer_recompute) a.recompute_granularity = "selective";
    if (a.recompute_granularity == "selective" && a.recompute_modules.empty()) a.recompute_modules = {"core_attn"};
    if (st.moe_layer_recompute &&
        std::find(a.recompute_modules.begin(), a.recompute_modules.end(), "moe") == a.recompute_modules.end())
        a.recompute_modules.push_back("moe");
    // TransformerConfig raises for these two.
    const auto recomputes = [&](std::string_view m) {
        return a.recompute_granularity == "selective" &&
               std::find(a.recompute_modules.begin(), a.recompute_modules.end(), m) != a.recompute_modules.end();
    };
    if (recomputes("moe_act") && !a.moe_grouped_gemm)
        fail(out, "--recompute-modules", "moe_act in --recompute-modules needs --moe-grouped-gemm");
    if (recomputes("mla_up_proj") && !a.multi_latent_attention)
        fail(out, "--recompute-modules", "mla_up_proj in --recompute-modules needs --multi-latent-attention");
    if (a.recompute_granularity == "full" && !a.recompute_method)
        fail(out, "--recompute-granularity", "--recompute-granularity full needs --recompute-method (uniform or block)");
    // Selective recompute takes no method and no layer count (validate_args
    // asserts the one, TransformerConfig raises for the other).
    const std::string selective = st.recompute_activations ? "--recompute-activations makes the recompute selective, "
                                                             "and selective recompute"
                                                           : "selective recompute";
    if (a.recompute_granularity == "selective" && a.recompute_method)
        fail(out, "--recompute-method", selective + " takes no --recompute-method");
    if (a.recompute_granularity == "selective" && a.recompute_num_layers)
        fail(out, "--recompute-num-layers", selective + " takes no --recompute-num-layers");
    if (a.recompute_method && !a.recompute_num_layers)
        fail(out, "--recompute-method", "--recompute-method needs --recompute-num-layers");
    // Distributing the saved activations over the tensor-parallel group: only
    // for full recompute by a method over tp > 1 (validate_args), and not with
    // sequence parallelism (TransformerConfig).
    if (a.distribute_saved_activations) {
        const char* flag = "--distribute-saved-activations";
        if (a.tensor_model_parallel_size < 2)
            fail(out, flag, "--distribute-saved-activations spreads them over the tensor-parallel group: it needs "
                            "--tensor-model-parallel-size above 1");
        if (a.recompute_granularity != "full" || !a.recompute_method)
            fail(out, flag, "--distribute-saved-activations goes with --recompute-granularity full and a "
                            "--recompute-method");
        if (a.sequence_parallel) fail(out, flag, "--distribute-saved-activations must be off with --sequence-parallel");
    }
    if (a.recompute_granularity == "full" && a.recompute_method == "uniform" && a.recompute_num_layers == 0)
        fail(out, "--recompute-num-layers",
             "--recompute-num-layers 0 with --recompute-method uniform: groups of no layers (Megatron-LM's "
             "loop would never advance)");

    // Context parallelism: one communication type for every layer, or one a
    // layer (checked only where there is context parallelism, as TransformerConfig does).
    const bool cp = a.context_parallel_size > 1;
    if (cp && a.cp_comm_type.size() > 1 && static_cast<std::int64_t>(a.cp_comm_type.size()) != a.num_layers)
        fail(out, "--cp-comm-type",
             fmt::format("--cp-comm-type gives {} types: one for every layer, or one a layer (--num-layers {})",
                         a.cp_comm_type.size(), a.num_layers));
    if (cp && std::find(a.cp_comm_type.begin(), a.cp_comm_type.end(), "a2a+p2p") != a.cp_comm_type.end() &&
        !given(out, "--hierarchical-context-parallel-sizes"))
        fail(out, "--cp-comm-type", "--cp-comm-type a2a+p2p needs --hierarchical-context-parallel-sizes");

    // Experts.
    a.moe_layer_pattern.assign(static_cast<std::size_t>(a.num_layers), 0);
    if (a.num_experts && a.moe_router_topk > *a.num_experts)
        fail(out, "--moe-router-topk",
             fmt::format("--moe-router-topk {}{} is more than --num-experts {}", a.moe_router_topk,
                         stated(out, "--moe-router-topk") ? "" : " (its default)", *a.num_experts));
    if (a.num_experts) {
        if (a.moe_ffn_hidden_size == 0) a.moe_ffn_hidden_size = a.ffn_hidden_size;
        std::int64_t freq = 1;
        if (st.moe_layer_freq) {
            const std::string& text = *st.moe_layer_freq;
            if (text.find('[') != std::string::npos) {
                std::vector<int> pattern = eval_pattern(text, where(out, "--moe-layer-freq"));
                if (static_cast<std::int64_t>(pattern.size()) != a.num_layers)
                    fail(out, "--moe-layer-freq",
                         fmt::format("--moe-layer-freq gives {} layers, --num-layers {}", pattern.size(),
                                     a.num_layers));
                // Each entry says whether the layer is MoE (1) or dense (0); Megatron-LM raises
                // "Invalid layer pattern" for anything else.
                if (const auto odd = std::find_if(pattern.begin(), pattern.end(), [](int e) { return e != 0 && e != 1; });
                    odd != pattern.end())
                    fail(out, "--moe-layer-freq",
                         fmt::format("--moe-layer-freq's entry {} is {}: each is 1 (a MoE layer) or 0 (a dense one)",
                                     odd - pattern.begin(), *odd));
                a.moe_layer_pattern = std::move(pattern);
                freq = 0;
            } else {
                freq = ValueReader{"--moe-layer-freq", where(out, "--moe-layer-freq")}.integer(text, 1);
            }
        }
        if (freq > 0)
            for (std::int64_t i = 0; i < a.num_layers; ++i) a.moe_layer_pattern[static_cast<std::size_t>(i)] = i % freq == 0;
    } else {
        a.moe_ffn_hidden_size = 0;
    }

    // Vocabulary: the tokenizer's size, padded as _vocab_size_with_padding does.
    std::string tokenizer = a.tokenizer_type.value_or("");
    if (tokenizer.empty() && (st.vocab_file || st.merge_file)) {
        tokenizer = "GPT2BPETokenizer";
        out.notes.push_back("no --tokenizer-type: GPT2BPETokenizer assumed from --vocab-file/--merge-file (50257)");
    }
    if (tokenizer == "GPT2BPETokenizer") {
        a.original_vocab_size = 50257;
    } else if (tokenizer == "NullTokenizer") {
        if (!a.vocab_size) fail(out, "--tokenizer-type", "NullTokenizer needs --vocab-size");
        if (__builtin_add_overflow(*a.vocab_size, 1, &a.original_vocab_size))  // its EOD token
            fail(out, "--vocab-size", fmt::format("--vocab-size {} and its end-of-document token are beyond 64 bits", *a.vocab_size));
    } else if (a.vocab_size) {
        a.original_vocab_size = *a.vocab_size;
        if (!tokenizer.empty())
            out.notes.push_back(fmt::format("{}: vocabulary size taken from --vocab-size {} (the tokenizer file is not read)",
                                            tokenizer, *a.vocab_size));
    } else {
        out.notes.push_back(tokenizer.empty()
                                ? "no tokenizer and no --vocab-size: the vocabulary size is unknown (0)"
                                : fmt::format("{}: the vocabulary size is in its files, not read: give --vocab-size",
                                              tokenizer));
    }
    if (a.original_vocab_size != 0) {
        const auto padded = pad_vocab(a.original_vocab_size,
                                      product("--make-vocab-size-divisible-by", "--make-vocab-size-divisible-by x tensor parallel",
                                              {a.make_vocab_size_divisible_by, a.tensor_model_parallel_size}));
        if (!padded)
            fail(out, "--make-vocab-size-divisible-by",
                 fmt::format("the vocabulary {} padded to a multiple of {} x {} is beyond 64 bits", a.original_vocab_size,
                             a.make_vocab_size_divisible_by, a.tensor_model_parallel_size));
        a.padded_vocab_size = *padded;
    }

    // Pipeline: chunks per rank and the layers each rank holds.
    const std::int64_t pp = a.pipeline_model_parallel_size;
    const int ways = int{a.num_layers_per_virtual_pipeline_stage.has_value()} +
                     int{st.num_virtual_stages_per_pipeline_rank.has_value()} +
                     int{a.pipeline_model_parallel_layout.has_value()};
    if (ways > 1)
        fail(out, "--pipeline-model-parallel-layout",
             "give only one of --num-layers-per-virtual-pipeline-stage, --num-virtual-stages-per-pipeline-rank, "
             "--pipeline-model-parallel-layout");
    a.layers_per_stage.assign(static_cast<std::size_t>(pp), 0);
    a.mtp_layers_per_stage.assign(static_cast<std::size_t>(pp), 0);
    if (a.pipeline_model_parallel_layout) {
        const std::string at = where(out, "--pipeline-model-parallel-layout");
        const std::vector<std::string> stages = expand_layout(*a.pipeline_model_parallel_layout, at);
        if (static_cast<std::int64_t>(stages.size()) % pp != 0)
            fail(out, "--pipeline-model-parallel-layout",
                 fmt::format("--pipeline-model-parallel-layout has {} stages, not a multiple of "
                             "--pipeline-model-parallel-size {}",
                             stages.size(), pp));
        std::int64_t layers = 0, mtp = 0;
        for (std::size_t i = 0; i < stages.size(); ++i) {
            const auto t = std::count(stages[i].begin(), stages[i].end(), 't');
            const auto m = std::count(stages[i].begin(), stages[i].end(), 'm');
            a.layers_per_stage[i % static_cast<std::size_t>(pp)] += t;
            a.mtp_layers_per_stage[i % static_cast<std::size_t>(pp)] += m;
            a.layers_per_virtual_stage.push_back(t);
            layers += t, mtp += m;
        }
        if (layers != a.num_layers)
            fail(out, "--pipeline-model-parallel-layout",
                 fmt::format("--pipeline-model-parallel-layout places {} layers, --num-layers is {}", layers,
                             a.num_layers));
        if (mtp != a.mtp_num_layers.value_or(0))
            fail(out, "--pipeline-model-parallel-layout",
                 fmt::format("--pipeline-model-parallel-layout places {} MTP layers, --mtp-num-layers is {}", mtp,
                             a.mtp_num_layers.value_or(0)));
        const std::int64_t vpp = static_cast<std::int64_t>(stages.size()) / pp;
        if (vpp > 1) a.virtual_pipeline_model_parallel_size = vpp;
    } else {
        const bool uneven = a.decoder_first_pipeline_num_layers || a.decoder_last_pipeline_num_layers;
        if (uneven && (a.account_for_embedding_in_pipeline_split || a.account_for_loss_in_pipeline_split))
            fail(out, a.decoder_first_pipeline_num_layers ? "--decoder-first-pipeline-num-layers"
                                                          : "--decoder-last-pipeline-num-layers",
                 "uneven first/last pipeline stages do not go with --account-for-embedding-in-pipeline-split "
                 "or --account-for-loss-in-pipeline-split");
        if (uneven && pp == 1)
            fail(out, a.decoder_first_pipeline_num_layers ? "--decoder-first-pipeline-num-layers"
                                                          : "--decoder-last-pipeline-num-layers",
                 "uneven first/last pipeline stages need --pipeline-model-parallel-size above 1");
        std::int64_t vpp = 1;
        if (a.num_layers_per_virtual_pipeline_stage) {
            if (uneven)
                fail(out, "--num-layers-per-virtual-pipeline-stage",
                     "uneven pipeline stages need --num-virtual-stages-per-pipeline-rank, not "
                     "--num-layers-per-virtual-pipeline-stage");
            const std::int64_t layers = a.num_layers + a.account_for_embedding_in_pipeline_split +
                                        a.account_for_loss_in_pipeline_split;
            if (layers % pp != 0 || (layers / pp) % *a.num_layers_per_virtual_pipeline_stage != 0)
                fail(out, "--num-layers-per-virtual-pipeline-stage",
                     fmt::format("{} layers do not split into {} pipeline stages of chunks of {}", layers, pp,
                                 *a.num_layers_per_virtual_pipeline_stage));
            vpp = layers / pp / *a.num_layers_per_virtual_pipeline_stage;
        } else if (st.num_virtual_stages_per_pipeline_rank) {
            vpp = *st.num_virtual_stages_per_pipeline_rank;
        }
        if (vpp > 1) a.virtual_pipeline_model_parallel_size = vpp;
        // Virtual stage v sits on rank v % pp; the first and last may be uneven.
        // More stages than layers (and the embedding and loss) cannot be filled:
        // refused before a count each is allocated.
        std::int64_t stages = 0;
        if (__builtin_mul_overflow(pp, vpp, &stages) || stages > a.num_layers + 2)
            fail(out, "--num-virtual-stages-per-pipeline-rank",
                 fmt::format("{} layers cannot fill {} pipeline stages of {} model chunks", a.num_layers, pp, vpp));
        std::vector<std::int64_t> per_virtual(static_cast<std::size_t>(stages), 0);
        std::int64_t rest = a.num_layers, rest_stages = stages;
        if (uneven) {
            if (a.decoder_first_pipeline_num_layers) {
                per_virtual.front() = *a.decoder_first_pipeline_num_layers;
                rest -= per_virtual.front();
                --rest_stages;
            }
            if (a.decoder_last_pipeline_num_layers) {
                per_virtual.back() = *a.decoder_last_pipeline_num_layers;
                rest -= per_virtual.back();
                --rest_stages;
            }
        } else {
            rest += a.account_for_embedding_in_pipeline_split + a.account_for_loss_in_pipeline_split;
        }
        const std::string_view flag = uneven ? "--decoder-first-pipeline-num-layers" : "--num-layers";
        if (rest < 0 || (rest_stages == 0 && rest != 0) || (rest_stages > 0 && rest % rest_stages != 0))
            fail(out, stated(out, flag) ? flag : "--num-layers",
                 uneven ? fmt::format("--num-layers {} does not split evenly over {} pipeline stages after the first "
                                      "and last stages' layers", a.num_layers, stages)
                 : a.account_for_embedding_in_pipeline_split || a.account_for_loss_in_pipeline_split
                     ? fmt::format("--num-layers {} and the {} taking a layer's place ({}) do not split evenly over "
                                   "{} pipeline stages", a.num_layers,
                                   a.account_for_embedding_in_pipeline_split && a.account_for_loss_in_pipeline_split
                                       ? "embedding and the loss"
                                   : a.account_for_embedding_in_pipeline_split ? "embedding" : "loss",
                                   rest, stages)
                     : fmt::format("--num-layers {} does not split evenly over {} pipeline stages", a.num_layers, stages));
        for (std::size_t v = 0; v < per_virtual.size(); ++v) {
            const bool fixed = uneven && ((v == 0 && a.decoder_first_pipeline_num_layers) ||
                                          (v + 1 == per_virtual.size() && a.decoder_last_pipeline_num_layers));
            if (!fixed) per_virtual[v] = rest / rest_stages;
        }
        if (!uneven) {  // the embedding and the loss each take a layer's place
            if (a.account_for_embedding_in_pipeline_split) --per_virtual.front();
            if (a.account_for_loss_in_pipeline_split) --per_virtual.back();
        }
        for (std::size_t v = 0; v < per_virtual.size(); ++v)
            a.layers_per_stage[v % static_cast<std::size_t>(pp)] += per_virtual[v];
        a.layers_per_virtual_stage = per_virtual;
        a.mtp_layers_per_stage.back() = a.mtp_num_layers.value_or(0);
    }
    if (a.virtual_pipeline_model_parallel_size && pp == 1)
        fail(out,
             a.pipeline_model_parallel_layout ? "--pipeline-model-parallel-layout"
             : a.num_layers_per_virtual_pipeline_stage ? "--num-layers-per-virtual-pipeline-stage"
                                                       : "--num-virtual-stages-per-pipeline-rank",
             "the interleaved schedule's model chunks need --pipeline-model-parallel-size above 1");
    if (!a.virtual_pipeline_model_parallel_size) {
        a.overlap_p2p_comm = false;
        a.align_param_gather = false;
    } else if (!a.overlap_p2p_comm && pp <= 2 && !a.pipeline_model_parallel_layout) {
        // (A layout states its virtual stages itself: Megatron-LM runs pp = 2 with one.)
        fail(out, "--pipeline-model-parallel-size",
             "with --no-overlap-p2p-communication the interleaved schedule needs --pipeline-model-parallel-size above 2");
    }
    if (a.overlap_param_gather && !(a.use_distributed_optimizer || a.use_megatron_fsdp))
        fail(out, "--overlap-param-gather", "--overlap-param-gather needs --use-distributed-optimizer");
    // torch's FSDP2: what validate_args asserts it does not go with.
    if (a.use_torch_fsdp2) {
        const char* flag = "--use-torch-fsdp2";
        if (pp > 1) fail(out, flag, "--use-torch-fsdp2 does not go with pipeline parallelism");
        if (a.expert_model_parallel_size > 1) fail(out, flag, "--use-torch-fsdp2 does not go with expert parallelism");
        if (a.use_distributed_optimizer)
            fail(out, flag, "--use-torch-fsdp2 shards the optimizer itself: not with --use-distributed-optimizer");
        if (!a.untie_embeddings_and_output_weights)
            fail(out, flag, "--use-torch-fsdp2 needs --untie-embeddings-and-output-weights");
        if (a.fp16) fail(out, flag, "--use-torch-fsdp2 does not go with --fp16");
    }
}

}  // namespace oprec::rank::detail
