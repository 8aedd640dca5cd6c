// oprec eval: price one layer (or a stream of them) with the records.
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

#include <fmt/format.h>

#include "check/loader.h"
#include "cli/bytes_text.h"
#include "cli/commands.h"
#include "cli/layer_options.h"
#include "cli/layer_table.h"
#include "cli/eval_hf.h"
#include "cli/paths.h"
#include "diag/diagnostic.h"
#include "model/field_check.h"
#include "model/report.h"
#include "value/format.h"

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
    HfEvalOptions hf;  // --hf: the layer derived from a Hugging Face config (cli/eval_hf.h)
};

// One slot alone (--slot).
ordered_json slot_only(const RecordsEvaluator& records, const LayerDoc& layer, const std::string& slot) {
    const Program& p = records.program();
    ordered_json out;
    out["slot"] = slot;
    try {
        SlotId id = records.slot_id(slot);
        out["part"] = p.layer_parts[p.slots[id].layer_part];
        out["held"] = value_or_error([&] {
            for (const auto& [s, part] : records.layer_slots(layer))
                if (s == slot) return Value::boolean(true);
            return Value::boolean(false);
        }, &p.sources);
    } catch (const EvalError& e) {
        out["error"] = error_json(e)["error"];
        return out;
    }
    out["bytes"] = value_or_error([&] { return records.slot_bytes(layer, slot); }, &p.sources);
    return out;
}

bool has_error(const ordered_json& j) {
    if (j.is_object()) {
        if (j.contains("error")) return true;
        for (const auto& [k, v] : j.items())
            if (has_error(v)) return true;
    }
    return false;
}

ordered_json price(const RecordsEvaluator& records, const LayerDoc& layer, const EvalArgs& args) {
    if (!args.slot.empty()) return slot_only(records, layer, args.slot);
    ReportOptions options;
    if (!args.only.empty()) options.only = args.only;
    return layer_report(records, layer, options);
}

int run_jsonl(const RecordsEvaluator& records, const EvalArgs& args) {
    bool failed = false;
    std::string line;
    std::size_t number = 0;
    while (std::getline(std::cin, line)) {
        ++number;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        ordered_json out;
        try {
            const std::string source = fmt::format("<stdin>:{}", number);
            LayerDoc layer = parse_layer_doc_text(line, source);
            apply_edits(layer, args.edits, records.program());
            check_field_types(layer.fields, records.program(), source);
            out = price(records, layer, args);
        } catch (const std::exception& e) {  // a bad document or edit: this line only
            out = {{"error", {{"kind", "invalid-input"}, {"message", e.what()}}}};
        }
        failed = failed || has_error(out);
        std::cout << out.dump() << '\n';
    }
    return failed ? kProblems : kOk;
}

int run(const EvalArgs& args) {
    if (!args.hf.config.empty()) {
        if (args.layer_path != "-" || args.jsonl || !args.slot.empty()) {
            std::cerr << "oprec eval: --hf derives the layer from the config: give no layer document, --jsonl or --slot\n";
            return kCannotRun;
        }
        return run_hf_eval(args.hf, {args.records, args.edits, args.format, args.only});
    }
    std::optional<Program> program;
    try {
        program = load_records_file(resolve_records(args.records), load_options());
    } catch (const LoadError& e) {
        std::cerr << render_all(e.diagnostics(), e.sources(), isatty(2) != 0);
        return kCannotRun;
    }
    if (program->records.empty()) {  // a file of op profiles loads, but prices nothing
        std::cerr << "oprec eval: " << (args.records.empty() ? default_records().string() : args.records)
                  << " states no op records (op profiles go with --hf and --profiles)\n";
        return kCannotRun;
    }
    const RecordsEvaluator records(*program);
    if (args.jsonl) return run_jsonl(records, args);

    std::string text;
    const std::string name = args.layer_path == "-" ? "<stdin>" : args.layer_path;
    if (args.layer_path == "-") {
        std::ostringstream in;
        in << std::cin.rdbuf();
        text = std::move(in).str();
    } else {
        std::ifstream in(args.layer_path, std::ios::binary);
        if (!in) {
            std::cerr << fmt::format("oprec eval: cannot read `{}`\n", args.layer_path);
            return kCannotRun;
        }
        std::ostringstream buf;
        buf << in.rdbuf();
        text = std::move(buf).str();
    }
    LayerDoc layer;
    try {
        layer = parse_layer_doc_text(text, name);
        apply_edits(layer, args.edits, *program);
        check_field_types(layer.fields, *program, name);
    } catch (const std::exception& e) {
        std::cerr << "oprec eval: " << e.what() << '\n';
        return kCannotRun;
    }
    const ordered_json doc = price(records, layer, args);
    if (args.format == "json" || !args.slot.empty()) {
        if (args.format == "json") {
            std::cout << doc.dump(2) << '\n';
        } else {
            // The slot's bytes, or why it has none: the error's kind and message.
            const ordered_json& bytes = doc.contains("bytes") ? doc["bytes"] : doc;
            if (bytes.is_object() && bytes.contains("error"))
                std::cout << fmt::format("{}: error: {} [{}]\n", args.slot, bytes["error"].value("message", ""),
                                         bytes["error"].value("kind", ""));
            else
                std::cout << fmt::format("{}: {} bytes ({})\n", args.slot, bytes_cell(bytes), human_cell(bytes));
        }
    } else {
        std::cout << layer_table(doc, layer, name);
    }
    return has_error(doc) ? kProblems : kOk;
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
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
