// oprec fit: will a training job fit on each GPU? Every byte a rank holds,
// per pipeline stage, from a Hugging Face config and a strategy or from a
// Megatron-LM launch command, priced by the whole-rank records.
#include <cctype>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cli/commands.h"
#include "cli/file_io.h"
#include "cli/option_checks.h"
#include "cli/paths.h"
#include "oprec/fit.h"
#include "repl/fit_report.h"
#include "serve/plot.h"
#include "value/byte_size.h"
#include "value/bytes_text.h"

namespace oprec::cli {

namespace {

struct FitArgs {
    std::string config;
    std::string megatron_args;
    std::string records = "calibrated";
    std::string format = "text";
    std::string family;
    std::string plot;  // --plot FILE.html
    std::string device = "80GiB";
    std::int64_t gpus = 8, tp = 1, pp = 1, vpp = 1, cp = 1, ep = 1, etp = 1, mbs = 1;
    std::optional<std::int64_t> gbs, seq, recompute_layers, first_stage_layers, last_stage_layers, vocab;
    std::vector<std::int64_t> stage_layers;
    std::string cp_algo = "ring", recompute = "none", recompute_method = "uniform", schedule, dtype, optimizer = "adam";
    int zero = 1;
    bool no_sp = false, no_flash = false, untie = false, tie = false;
    bool recompute_detail_given = false;  // --recompute-method or --recompute-layers
    bool gpus_given = false;              // else a launch command's launcher says, or 8
    std::vector<std::string> strategy_given;  // strategy options stated (a launch command states its own)
};

// What --megatron-args takes beside the launch command: the rest states the
// job, which the command does.
bool beside_launch_command(const std::string& option) {
    for (const char* o : {"--megatron-args", "--gpus", "--device-memory", "--records", "--family", "--format", "--plot"})
        if (option == o) return true;
    return false;
}

// Whether --megatron-args' value is the launch command's text itself, as a
// user pastes it (`--megatron-args '--num-layers 24 --hidden-size 1024 ...'`),
// rather than a file or `-`: it names no file and holds a flag (a `--` at its
// start or after white space). A file of that name is read, as before.
bool is_command_text(const std::string& value) {
    if (value == "-") return false;
    std::error_code ec;
    if (std::filesystem::exists(value, ec)) return false;
    for (std::size_t at = value.find("--"); at != std::string::npos; at = value.find("--", at + 1))
        if (at == 0 || std::isspace(static_cast<unsigned char>(value[at - 1]))) return true;
    return false;
}

// The records a name chooses: `calibrated` and `reference` are the shipped
// whole-rank sets; anything else a path (or a records/ name).
std::filesystem::path rank_records(const std::string& name) {
    if (name == "calibrated" || name == "reference") return resolve_records("rank_" + name);
    return resolve_records(name);
}

FitStrategy strategy_of(const FitArgs& a, double device) {
    FitStrategy s;
    s.layer.tp = a.tp;
    s.layer.cp = a.cp;
    s.layer.cp_algo = a.cp_algo;
    s.layer.sp = !a.no_sp;
    s.layer.ep = a.ep;
    s.layer.etp = a.etp;
    s.layer.mbs = a.mbs;
    s.layer.seq = a.seq;
    if (!a.dtype.empty()) s.layer.dtype = a.dtype;
    s.layer.flash_attention = !a.no_flash;
    s.layer.recompute = a.recompute;
    s.gpus = a.gpus;
    s.pp = a.pp;
    s.vpp = a.vpp;
    s.gbs = a.gbs;
    s.zero = a.zero;
    if (!a.schedule.empty()) s.schedule = a.schedule;
    s.optimizer = a.optimizer;
    s.recompute_method = a.recompute_method;
    s.recompute_layers = a.recompute_layers;
    s.first_stage_layers = a.first_stage_layers;
    s.last_stage_layers = a.last_stage_layers;
    s.virtual_stage_layers = a.stage_layers;
    if (a.untie) s.untied = true;
    if (a.tie) s.untied = false;
    s.vocab = a.vocab;
    s.device_bytes = device;
    return s;
}

int run(const FitArgs& args) {
    const auto device = parse_byte_size(args.device);
    if (!device || device_size_problem(*device)) {
        std::cerr << fmt::format("oprec fit: --device-memory {}: expected {}, e.g. 80GiB, 141GB or 1e11\n", args.device,
                                 device ? *device_size_problem(*device) : "bytes");
        return kCannotRun;
    }
    if (args.config.empty() == args.megatron_args.empty()) {
        std::cerr << "oprec fit: give a Hugging Face config.json, or --megatron-args FILE (a Megatron-LM launch command)\n";
        return kCannotRun;
    }
    if (!args.stage_layers.empty() && (args.first_stage_layers || args.last_stage_layers)) {
        std::cerr << "oprec fit: --stage-layers states every stage's layers: give it without --first-stage-layers "
                     "and --last-stage-layers\n";
        return kCannotRun;
    }
    if (args.tie && args.untie) {
        std::cerr << "oprec fit: --tie-embeddings and --untie-embeddings: give one\n";
        return kCannotRun;
    }
    if (args.recompute_detail_given && args.recompute != "full" && args.megatron_args.empty()) {
        std::cerr << "oprec fit: --recompute-method and --recompute-layers go with --recompute full\n";
        return kCannotRun;
    }
    if (!args.megatron_args.empty() && !args.strategy_given.empty()) {
        std::cerr << fmt::format("oprec fit: {} with --megatron-args: the launch command states the job "
                                 "(its Megatron-LM flags set it)\n",
                                 fmt::join(args.strategy_given, ", "));
        return kCannotRun;
    }
    std::optional<Records> records;
    const std::filesystem::path records_path = rank_records(args.records);
    try {
        RecordsOptions options = records_options();
        options.profiles = "profiles.rec";
        records = Records::load(records_path, options);
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0) << records_hint(records_path, "calibrated, reference");
        return kCannotRun;
    }
    const auto family = args.family.empty() ? std::nullopt : std::optional(args.family);
    std::string source = args.config;
    try {
        FitResult result;
        if (!args.megatron_args.empty()) {
            const bool inline_text = is_command_text(args.megatron_args);
            source = inline_text ? "--megatron-args" : args.megatron_args == "-" ? "<stdin>" : args.megatron_args;
            std::string why;
            const std::optional<std::string> text =
                inline_text ? std::optional(args.megatron_args) : read_text(args.megatron_args, why);
            if (!text) {
                std::cerr << "oprec fit: " << source << ": " << why << '\n';
                return kCannotRun;
            }
            MegatronJob job = megatron_job(*text, source, args.gpus_given ? std::optional(args.gpus) : std::nullopt);
            if (!job.unknown.empty()) {
                std::string list;
                for (const std::string& f : job.unknown) list += (list.empty() ? "" : " ") + f;
                std::cerr << "oprec fit: warning: flags oprec does not know, ignored: " << list << '\n';
            }
            job.strategy.device_bytes = *device;
            result = fit_megatron(*records, job, source, family);
        } else {
            const FitStrategy strategy = strategy_of(args, *device);
            const FitModel model(*records, args.config, family);
            result = model.fit(strategy);
            result.parameters = model.parameters(strategy);
        }
        if (!args.plot.empty()) {
            std::string why;
            const auto html = serve::fit_plot_html(fmt::format("oprec fit: {}", result.model), result.to_json(-1),
                                                   web_dir(), chart_library_dir(), why);
            if (!html || !write_file(args.plot, *html, why)) {
                std::cerr << "oprec fit: --plot " << args.plot << ": " << why << '\n';
                return kCannotRun;
            }
        }
        if (args.format == "json") std::cout << result.to_json(2);
        else std::cout << repl::fit_text(result, source, records->source(), "--format json lists every one");
        return result.fits ? kOk : kProblems;  // (a failed write: main says so, as for every command)
    } catch (const PricingError& e) {  // the records cannot price this job (an overflow): no answer
        std::cerr << "oprec fit: " << e.what() << '\n';
        // The place is the records' formula; the cause is the job's sizes.
        if (e.kind() == PricingError::Kind::Overflow)
            std::cerr << "note: the job's sizes (its sequence, widths, batch or vocabulary) pass the 64-bit "
                         "integers the records compute in\n";
        return kCannotRun;
    } catch (const std::exception& e) {  // LayerError, unreadable files
        std::cerr << "oprec fit: " << e.what() << '\n';
        return kCannotRun;
    }
}

}  // namespace

void add_fit_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<FitArgs>();
    CLI::App* cmd = app.add_subcommand(
        "fit", "Will a training job fit? Every byte a rank holds per pipeline stage, from a Hugging Face config "
               "or a Megatron-LM launch command (exit 1 when it does not fit)");
    cmd->add_option("config", args->config, "A Hugging Face config.json");
    cmd->add_option("--megatron-args", args->megatron_args,
                    "A Megatron-LM launch command or its flags, shell-quoted: a file, - (standard input), "
                    "or the text itself in one argument");
    cmd->add_option("--gpus", args->gpus, "GPUs of the job; dp = gpus / (tp * pp * cp) (default 8; with --megatron-args, its launcher's count)")->check(whole_number(1));
    cmd->add_option("--tp", args->tp, "Tensor-parallel degree (default 1)")->check(whole_number(1));
    cmd->add_option("--pp", args->pp, "Pipeline stages (default 1)")->check(whole_number(1));
    cmd->add_option("--vpp", args->vpp, "Model chunks per stage, interleaved (default 1)")->check(whole_number(1));
    cmd->add_option("--cp", args->cp, "Context-parallel degree (default 1)")->check(whole_number(1));
    cmd->add_option("--cp-algo", args->cp_algo, "Context-parallel algorithm: ring, ulysses or hybrid (default ring)");
    cmd->add_flag("--no-sp", args->no_sp, "Sequence parallelism off (on by default)");
    cmd->add_option("--ep", args->ep, "Expert-parallel degree (default 1)")->check(whole_number(1));
    cmd->add_option("--etp", args->etp, "Expert tensor-parallel degree (default 1)")->check(whole_number(1));
    cmd->add_option("--mbs", args->mbs, "Micro-batch size, sequences (default 1)")->check(whole_number(1));
    cmd->add_option("--gbs", args->gbs, "Global batch size, sequences (default: one micro-batch per data-parallel rank; "
                                     "interleaved, the pp micro-batches it runs on each chunk in turn)")
        ->check(whole_number(1));
    cmd->add_option("--seq", args->seq, "Sequence length (default: the model's max_position_embeddings)")
        ->check(whole_number(1));
    cmd->add_option("--recompute", args->recompute, "Activation recompute: none, selective or full (default none)")
        ->check(CLI::IsMember({"none", "selective", "full"}));
    cmd->add_option("--recompute-method", args->recompute_method,
                    "With --recompute full: uniform (groups of --recompute-layers) or block (the first "
                    "--recompute-layers of each chunk); default uniform")
        ->check(CLI::IsMember({"uniform", "block"}));
    cmd->add_option("--recompute-layers", args->recompute_layers, "Layers per recompute group or block (default 1)")
        ->check(whole_number(1));
    cmd->add_option("--zero", args->zero,
                    "ZeRO stage: 0 none, 1 distributed optimizer (the default), 2 gradients too, 3 weights too (FSDP)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return text == "0" || text == "1" || text == "2" || text == "3"
                           ? std::string()
                           : "`" + text + "`: a ZeRO stage is 0, 1, 2 or 3";
            },
            "0|1|2|3"));
    cmd->add_option("--schedule", args->schedule,
                    "Pipeline schedule: 1f1b, interleaved, gpipe, dualpipev or zero-bubble (default 1f1b; "
                    "interleaved with --vpp)")
        ->check(CLI::IsMember({"1f1b", "interleaved", "gpipe", "dualpipev", "zero-bubble"}));
    cmd->add_option("--dtype", args->dtype, "Compute dtype: bf16, fp16 or fp32 (default: the model's torch_dtype)");
    cmd->add_option("--optimizer", args->optimizer, "Optimizer: adam or sgd (default adam)")
        ->check(CLI::IsMember({"adam", "sgd"}));
    cmd->add_flag("--no-flash-attention", args->no_flash, "Attention materialises its scores (unfused)");
    cmd->add_option("--first-stage-layers", args->first_stage_layers, "Layers on the first stage (uneven pipeline)")
        ->check(whole_number(1));
    cmd->add_option("--last-stage-layers", args->last_stage_layers, "Layers on the last stage (uneven pipeline)")
        ->check(whole_number(1));
    cmd->add_option("--stage-layers", args->stage_layers,
                    "Layers of each virtual stage v = chunk * pp + stage, comma-separated (pp * vpp counts; "
                    "what a sweep row states where the layers do not split evenly)")
        ->delimiter(',')
        ->check(whole_number(0));
    cmd->add_flag("--untie-embeddings", args->untie, "The output layer has its own table");
    cmd->add_flag("--tie-embeddings", args->tie, "The output layer shares the embedding's table");
    cmd->add_option("--vocab", args->vocab, "Vocabulary size, padded (default: the config's vocab_size)")
        ->check(whole_number(1));
    cmd->add_option("--device-memory", args->device, "The device's memory (default 80GiB)");
    cmd->add_option("--records", args->records,
                    "The whole-rank records: calibrated (the default), reference, or a .rec file");
    cmd->add_option("--family", args->family, "Price with this op profile, not the one the model's name chooses");
    cmd->add_option("--format", args->format, "text (the default) or json")->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("--plot", args->plot, "Also write the stages' chart as a self-contained HTML file")->check(not_empty());
    cmd->callback([args, cmd, &exit_code] {
        for (const CLI::Option* o : cmd->get_options())
            if (o->count() > 0 && o->get_name().rfind("--", 0) == 0 && !beside_launch_command(o->get_name()) &&
                o->get_name() != "--help")
                args->strategy_given.push_back(o->get_name());
        args->recompute_detail_given = cmd->count("--recompute-method") + cmd->count("--recompute-layers") > 0;
        args->gpus_given = cmd->count("--gpus") > 0;
        exit_code = run(*args);
    });
}

}  // namespace oprec::cli
