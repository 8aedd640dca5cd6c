#include "cli/strategy_options.h"

#include <cmath>
#include <iostream>
#include <unistd.h>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/paths.h"

namespace oprec::cli {

namespace {

// "1,2,4" and repeated options alike (list_items); empty pieces are errors.
template <class T, class Parse>
std::vector<T> values(const std::vector<std::string>& texts, const char* option, std::vector<T> fallback, Parse parse) {
    if (texts.empty()) return fallback;
    std::vector<T> out;
    for (const std::string& t : list_items(texts, option)) out.push_back(parse(t));
    // 1 and 1.0 price alike but are not one value: kept apart by their type.
    if constexpr (std::is_same_v<T, Number>)
        drop_repeats(out, [](const Number& a, const Number& b) { return a.kind == b.kind && a.repr() == b.repr(); });
    else
        drop_repeats(out);
    return out;
}


std::vector<bool> both_ways(bool on, bool off, bool fallback) {
    if (on && off) return {true, false};
    if (on) return {true};
    if (off) return {false};
    return {fallback};
}

}  // namespace

void add_strategy_options(CLI::App& cmd, StrategyOptions& o, bool lists) {
    auto list = [&](const char* name, std::vector<std::string>& into, const std::string& help,
                    const char* example = "1,2,4") {
        // Split at commas by values(), which refuses an empty item CLI11's split would drop.
        return cmd.add_option(name, into, help + (lists ? fmt::format(" (a list: {})", example) : ""));
    };
    list("--tp", o.tp, "Tensor-parallel degree (default 1)");
    list("--cp", o.cp, "Context-parallel degree (default 1)");
    list("--cp-algo", o.cp_algo, "Context-parallel algorithm: ring, ulysses or hybrid (default ring)", "ring,ulysses");
    cmd.add_flag("--sp", o.sp, "Sequence parallelism on (the default)");
    cmd.add_flag("--no-sp", o.no_sp, "Sequence parallelism off");
    list("--ep", o.ep, "Expert-parallel degree (default 1)");
    list("--etp", o.etp, "Expert tensor-parallel degree (default 1)");
    list("--mbs", o.mbs, "Micro-batch size, in sequences (default 1)");
    list("--seq", o.seq, "Sequence length (default: the model's max_position_embeddings, else 4096)",
         "4096,32768");
    list("--dtype", o.dtype, "Activation dtype: bf16, fp16 or fp32 (default: the model's torch_dtype, else bf16)",
         "bf16,fp32");
    cmd.add_flag("--flash-attention", o.flash_attention, "Flash attention on (the default)");
    cmd.add_flag("--no-flash-attention", o.no_flash_attention, "Flash attention off");
    cmd.add_flag("--param-casts", o.param_casts, "Keep cast copies of the weights beside the matmuls (default: none)");
    if (lists) cmd.add_flag("--no-param-casts", o.no_param_casts, "No cast copies (the default)");
    list("--micro-factor", o.micro_factor, "Micro-batches whose activations the stage holds at its peak (default 1)");
    cmd.add_option("--family", o.family, "Price with this op profile, not the one the model's name chooses");
    cmd.add_option("--profiles", o.profiles, "The op profiles (default: the standard library's profiles.rec)");
}

StrategyGrid parse_grid(const StrategyOptions& o) {
    StrategyGrid g;
    auto ints = [](const char* option) { return [option](const std::string& t) { return parse_whole(t, option, 1); }; };
    g.tp = values<std::int64_t>(o.tp, "tp", g.tp, ints("tp"));
    g.cp = values<std::int64_t>(o.cp, "cp", g.cp, ints("cp"));
    g.cp_algo = values<std::string>(o.cp_algo, "cp-algo", g.cp_algo, [](const std::string& t) {
        auto a = canonical_cp_algo(t);
        if (!a) throw std::invalid_argument(fmt::format("--cp-algo {}: expected ring, ulysses or hybrid", t));
        return *a;
    });
    g.sp = both_ways(o.sp, o.no_sp, true);
    g.ep = values<std::int64_t>(o.ep, "ep", g.ep, ints("ep"));
    g.etp = values<std::int64_t>(o.etp, "etp", g.etp, ints("etp"));
    g.mbs = values<std::int64_t>(o.mbs, "mbs", g.mbs, ints("mbs"));
    g.seq = values<std::optional<std::int64_t>>(o.seq, "seq", g.seq,
                                                [](const std::string& t) { return std::optional(parse_whole(t, "seq", 1)); });
    g.dtype = values<std::optional<std::string>>(o.dtype, "dtype", g.dtype, [](const std::string& t) {
        auto d = canonical_dtype(t);
        if (!d) throw std::invalid_argument(fmt::format("--dtype {}: expected bf16, fp16 or fp32", t));
        return std::optional(*d);
    });
    g.flash_attention = both_ways(o.flash_attention, o.no_flash_attention, true);
    g.param_casts = both_ways(o.param_casts, o.no_param_casts, false);
    g.micro_factor = values<Number>(o.micro_factor, "micro-factor", g.micro_factor, [](const std::string& t) {
        std::optional<Number> v;
        try {
            if (const Field f = parse_field(t); const Number* n = std::get_if<Number>(&f)) v = *n;
        } catch (const LayerError&) {  // an integer beyond 64 bits: a bad option, as any other
        }
        if (!v || v->kind == Number::Kind::Bool || !(v->to_double() > 0) || !std::isfinite(v->to_double()))
            throw std::invalid_argument(fmt::format("--micro-factor {}: expected a finite number above 0", t));
        return *v;
    });
    return g;
}

std::optional<Records> load_hf_records(const std::string& records, const StrategyOptions& options,
                                       std::string_view command) {
    std::optional<Records> loaded;
    try {
        RecordsOptions with = records_options();
        with.profiles = options.profiles;
        loaded = Records::load(resolve_records(records), with);
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0) << records_hint(resolve_records(records), "op_records, calibrated");
        return std::nullopt;
    }
    if (loaded->ops().empty()) {  // --records named a file of op profiles: it prices nothing
        std::cerr << "oprec " << command << ": " << loaded->source() << " states no op records\n";
        return std::nullopt;
    }
    if (!loaded->has_profiles()) {  // --profiles named a file with none
        std::cerr << fmt::format("oprec {}: `{}` states no op profiles: --profiles names them (default: the "
                                 "standard library's profiles.rec)\n", command, options.profiles);
        return std::nullopt;
    }
    return loaded;
}

}  // namespace oprec::cli
