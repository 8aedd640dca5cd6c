// oprec eval: price one layer (or a stream of them) through the public API:
// the records loaded once, each layer bound once and priced from there.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/debug.h"
#include "cli/commands.h"
#include "cli/eval_hf.h"
#include "cli/file_io.h"
#include "cli/layer_options.h"
#include "cli/layer_table.h"
#include "cli/paths.h"
#include "diag/read_file.h"
#include "diag/suggest.h"
#include "oprec/oprec.h"
#include "value/numbers.h"
#include "value/json_writer.h"

namespace oprec::cli {

namespace {

using nlohmann::ordered_json;

struct EvalArgs {
    std::string layer_path = "-";
    LayerEdits edits;
    std::string records;
    std::string slot;
    std::string only;
    std::string format = "table";
    bool jsonl = false;
    bool dump = false;  // --dump: the layer's compiled run instead of its bytes
    std::string tier = "auto";  // --tier: which run prices it (api/debug.h)
    HfEvalOptions hf;  // --hf: the layer derived from a Hugging Face config (cli/eval_hf.h)
    std::vector<std::string> given;  // the options stated, by name
};

bool given(const EvalArgs& args, std::string_view option) {
    return std::find(args.given.begin(), args.given.end(), option) != args.given.end();
}

// An option stated where it does nothing (a strategy option without --hf,
// --dump with --jsonl, ...): refused, naming it, rather than ignored.
std::optional<std::string> misplaced(const EvalArgs& args) {
    if (args.hf.config.empty())
        for (const char* o : {"--tp", "--cp", "--cp-algo", "--sp", "--no-sp", "--ep", "--etp", "--mbs", "--seq", "--dtype",
                              "--flash-attention", "--no-flash-attention", "--param-casts", "--micro-factor", "--family",
                              "--profiles", "--recompute", "--layer", "--kind", "--show-layer"})
            if (given(args, o)) return fmt::format("{} goes with --hf (a layer derived from a config)", o);
    if (args.jsonl) {
        if (args.layer_path != "-") return "--jsonl reads the layer documents from standard input: give no layer file";
        if (given(args, "--format") && args.format != "json") return "--jsonl writes JSON lines: --format table does not go with it";
        if (args.dump) return "--dump prints one layer's run: not with --jsonl";
    }
    if (given(args, "--slot") && args.slot.empty()) return "--slot needs a slot's name";
    if (!args.slot.empty() && !args.only.empty())
        return "--slot and --only: give one (the REPL prices a slot with one op alone: `qkv only attMM`)";
    return std::nullopt;
}

// Whether --slot names a slot of the records (an empty one does); where
// not, says so on standard error.
bool slot_is_known(const Records& records, const std::string& slot) {
    const std::vector<std::string>& slots = records.slots();
    if (slot.empty() || std::find(slots.begin(), slots.end(), slot) != slots.end()) return true;
    const std::optional<std::string> near = closest_name(slot, slots);
    std::cerr << fmt::format("oprec eval: --slot {}: the records state no slot `{}`{}\n", slot, slot,
                             near ? fmt::format(" (did you mean `{}`?)", *near) : "");
    return false;
}

// One slot alone (--slot): its part, whether held, its bytes, from the report.
// (run() has checked that the records have the slot.)
ordered_json slot_only(const ordered_json& report, const std::string& slot) {
    ordered_json out;
    out["slot"] = slot;
    const ordered_json& s = report["slots"][slot];
    out["part"] = s["part"];
    out["held"] = s["held"];
    out["bytes"] = s["bytes"];
    return out;
}

// Where the key a dotted path names ("fields.epp", "context.switches.x")
// stands in a JSON document, as {line, column} from 1; nullopt where an
// escape spells a name otherwise. Strings are skipped whole, and a key is
// matched with the keys of the objects around it, so a switch or a value
// of the same name is not taken for a field.
std::optional<std::pair<std::size_t, std::size_t>> key_place(std::string_view text, std::string_view path) {
    std::vector<std::string_view> want;
    for (std::size_t at = 0;;) {
        const std::size_t dot = path.find('.', at);
        want.push_back(path.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at));
        if (dot == std::string_view::npos) break;
        at = dot + 1;
    }
    std::vector<std::string_view> keys;  // the key at each depth down to here
    std::size_t line = 1, line_start = 0, depth = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            line_start = i + 1;
        } else if (c == '{' || c == '[') {
            ++depth;
        } else if ((c == '}' || c == ']') && depth > 0) {
            --depth;
        }
        if (c != '"') continue;
        const std::size_t open = i;
        for (++i; i < text.size() && text[i] != '"'; ++i)
            if (text[i] == '\\') ++i;
        if (i >= text.size()) break;
        const std::size_t after = text.find_first_not_of(" \t\r\n", i + 1);
        if (after == std::string_view::npos || text[after] != ':' || depth == 0) continue;  // a value, not a key
        keys.resize(depth - 1);
        keys.push_back(text.substr(open + 1, i - open - 1));
        if (keys == want) return std::pair{line, open - line_start + 1};
    }
    return std::nullopt;
}

// A warning on standard error for each field the layer states that the
// schema does not declare and no formula reads, and each switch the records
// do not have: a misspelt one would otherwise change the answer silently.
// `name` names the document; `line` is its first line's number in what was read.
void warn_unread(const Layer& layer, std::string_view text, std::string_view name, std::size_t line = 1) {
    const auto warn = [&](const std::string& path, const std::string& why, std::string_view effect) {
        const auto place = key_place(text, path);
        const std::string where = place ? fmt::format("{}:{}:{}", name, line + place->first - 1, place->second)
                                        : std::string(name);
        std::cerr << fmt::format("{}: warning: {}{}{}\n", where, why, effect.empty() ? "" : ": ", effect);
    };
    for (const auto& [field, why] : layer.unread_fields()) warn("fields." + field, why, "the layer is priced without it");
    for (const auto& [path, why] : layer.unread_switches()) warn(path, why, "it changes nothing");
    for (const auto& [field, why] : layer.doubtful_fields()) warn("fields." + field, why, "");
}

Report report_of(const Layer& layer, const EvalArgs& args, int indent = -1) {
    ReportOptions options;
    if (!args.only.empty()) options.only = args.only;
    options.indent = indent;
    return layer.report(options);
}


// One result per input line, each answered as it arrives (its answer
// leaves before the next line is waited for), in constant memory. A blank,
// oversized or bad line gets an error result naming its line.
int run_jsonl(const Records& records, const EvalArgs& args) {
    bool failed = false;
    bool write_failed = false;
    LineReader lines(STDIN_FILENO, kMaxDocumentBytes, [&] { write_failed = write_failed || std::fflush(stdout) != 0; });
    std::string line;
    std::size_t number = 0;
    std::string out;
    const auto invalid = [&](const std::string& message) {
        failed = true;
        return json_text(ordered_json{{"error", {{"kind", "invalid-input"}, {"message", message}, {"line", number}}}});
    };
    for (;;) {
        const LineReader::Got got = lines.next(line);
        if (got == LineReader::Got::End) break;
        if (got == LineReader::Got::Error) {
            std::cerr << "oprec eval: cannot read standard input: " << std::strerror(lines.error()) << '\n';
            return kCannotRun;
        }
        ++number;
        if (got == LineReader::Got::TooLong) {
            out = invalid(fmt::format("<stdin>:{}: a line longer than {} MiB", number, kMaxDocumentBytes >> 20));
        } else if (line.find_first_not_of(" \t\r") == std::string::npos) {
            out = invalid(fmt::format("<stdin>:{}: a blank line: each line is one layer document", number));
        } else {
            try {
                Layer layer = records.layer(line, fmt::format("<stdin>:{}", number));
                warn_unread(layer, line, "<stdin>", number);
                apply_edits(layer, records, args.edits);
                if (args.slot.empty()) {
                    Report report = report_of(layer, args);
                    failed = failed || !report.complete;
                    out = std::move(report.json);
                } else {
                    const ordered_json doc =
                        slot_only(ordered_json::parse(report_of(layer, args).json), args.slot);
                    failed = failed || has_error(doc);
                    out = json_text(doc);
                }
                if (warn_non_finite(layer, fmt::format("<stdin>:{}", number), args.slot)) failed = true;
            } catch (const LayerError& e) {  // a bad document or edit: this line only
                // The document is this one line: "<stdin>:5:1:285:" is line 5, column 285.
                std::string message = e.what();
                const std::string prefix = fmt::format("<stdin>:{}:1:", number);
                if (message.rfind(prefix, 0) == 0) message.erase(prefix.size() - 2, 2);
                out = invalid(message);
            }
        }
        out += '\n';
        write_failed = write_failed || std::fwrite(out.data(), 1, out.size(), stdout) != out.size();
    }
    if (std::fflush(stdout) != 0 || write_failed || std::ferror(stdout)) {
        std::cerr << "oprec eval: cannot write the results: " << std::strerror(errno) << '\n';
        return kCannotRun;
    }
    return failed ? kProblems : kOk;
}

int run(const EvalArgs& args) {
    if (const auto why = misplaced(args)) {
        std::cerr << "oprec eval: " << *why << '\n';
        return kCannotRun;
    }
    if (!args.hf.config.empty()) {
        if (args.layer_path != "-" || args.jsonl || !args.slot.empty()) {
            std::cerr << "oprec eval: --hf derives the layer from the config: give no layer document, --jsonl or --slot\n";
            return kCannotRun;
        }
        return run_hf_eval(args.hf, {args.records, args.edits, args.format, args.only});
    }
    std::optional<Records> records;
    try {
        const debug::Tier tier = debug::parse_tier(args.tier).value_or(debug::Tier::Auto);  // checked by the option
        records = debug::load(resolve_records(args.records), records_options(), tier);
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0);
        return kCannotRun;
    }
    if (records->ops().empty()) {  // a file of op profiles loads, but prices nothing
        std::cerr << "oprec eval: " << records->source() << " states no op records (op profiles go with --hf and --profiles)\n";
        return kCannotRun;
    }
    if (!only_is_known(*records, args.only) || !slot_is_known(*records, args.slot)) return kCannotRun;
    if (args.jsonl) return run_jsonl(*records, args);

    const std::string name = args.layer_path == "-" ? "<stdin>" : args.layer_path;
    std::string why;
    const std::optional<std::string> text = read_text(args.layer_path, why, kMaxDocumentBytes);
    if (!text) {
        std::cerr << fmt::format("oprec eval: cannot read `{}`: {}\n", args.layer_path, why);
        return kCannotRun;
    }
    std::optional<Layer> layer;
    try {
        layer = records->layer(*text, name);
        warn_unread(*layer, *text, name);
        const auto before = layer->doubtful_fields();
        apply_edits(*layer, *records, args.edits);
        for (const auto& doubt : layer->doubtful_fields())  // made doubtful by a --set
            if (std::find(before.begin(), before.end(), doubt) == before.end())
                std::cerr << fmt::format("oprec eval: warning: --set {}: {}\n", doubt.first, doubt.second);
    } catch (const LayerError& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    }
    if (args.dump) {
        std::cout << debug::dump_code(*layer);
        return kOk;
    }
    const bool as_written = args.format == "json" && args.slot.empty();  // printed as the API writes it
    const Report priced = report_of(*layer, args, as_written ? 2 : -1);
    const bool non_finite = warn_non_finite(*layer, name, args.slot);
    if (as_written) {
        std::cout << priced.json << '\n';
        return priced.complete && !non_finite ? kOk : kProblems;
    }
    const ordered_json report = ordered_json::parse(priced.json);  // the slot and the table read it
    if (!args.slot.empty()) {
        const ordered_json doc = slot_only(report, args.slot);
        if (args.format == "json") {
            std::cout << json_text(doc, 2) << '\n';
        } else {
            // The slot's bytes, or why it has none: the error's kind and message.
            const ordered_json& bytes = doc.contains("bytes") ? doc["bytes"] : doc;
            if (bytes.is_object() && bytes.contains("error"))
                std::cout << fmt::format("{}: error: {} [{}]\n", args.slot, bytes["error"].value("message", ""),
                                         bytes["error"].value("kind", ""));
            else if (const std::string human = human_cell(bytes); !human.empty())
                std::cout << fmt::format("{}: {} bytes ({})\n", args.slot, bytes_cell(bytes), human);
            else
                std::cout << fmt::format("{}: {} bytes\n", args.slot, bytes_cell(bytes));
        }
        return has_error(doc) || non_finite ? kProblems : kOk;
    }
    const std::optional<Field> micro = layer->field("micro_factor");
    const Number* factor = micro ? std::get_if<Number>(&*micro) : nullptr;
    const TableHeader header{name, std::string(recompute_name(layer->recompute())),
                             factor != nullptr ? factor->repr() : "?"};
    // A fully recomputed layer keeps only its input (its total), as eval --hf says.
    if (layer->recompute() == Recompute::Full) {
        try {
            std::cout << full_recompute_table(report, header, value_of(layer->total()));
        } catch (const PricingError& e) {
            std::cerr << fmt::format("oprec eval: {}: the layer's input (micro_factor * bytes_compute * s * b * h): "
                                     "{}\n", name, e.what());
            return kProblems;
        }
        return priced.complete && !non_finite ? kOk : kProblems;  // as eval --hf's
    }
    std::cout << layer_table(report, header, *layer);
    return priced.complete && !non_finite ? kOk : kProblems;
}

}  // namespace

void add_eval_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<EvalArgs>();
    CLI::App* cmd = app.add_subcommand("eval", "Price one layer: its activation bytes by slot and part, and its parameters");
    cmd->add_option("layer", args->layer_path, "A layer document (JSON); - or nothing reads standard input");
    add_layer_edit_options(*cmd, args->edits);
    add_hf_eval_options(*cmd, args->hf);
    cmd->add_option("--records", args->records, "The records: a file, or a name in records/ such as calibrated (default: the shipped records)");
    cmd->add_option("--slot", args->slot, "Price this slot alone");
    cmd->add_option("--only", args->only, "Also price every slot with this op (or part) alone");
    cmd->add_option("--format", args->format, "table or json")->check(CLI::IsMember({"table", "json"}));
    cmd->add_flag("--jsonl", args->jsonl, "Read one layer document per line from standard input, write one JSON result per line");
    cmd->add_option("--tier", args->tier,
                    "Which run prices the layer, to compare them: auto (the fastest that can), tree, registers")
        ->check(CLI::IsMember({"auto", "tree", "registers"}));
    cmd->add_flag("--dump", args->dump,
                  "Print the layer's compiled run (register code, and typed for this layer) instead of pricing it");
    cmd->callback([args, cmd, &exit_code] {
        for (const CLI::Option* o : cmd->get_options())
            if (o->count() > 0) args->given.push_back(o->get_name());
        exit_code = run(*args);
    });
}

}  // namespace oprec::cli
