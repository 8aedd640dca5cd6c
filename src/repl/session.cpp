#include "repl/session.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "diag/read_file.h"
#include "eval/expression.h"
#include "oprec/errors.h"
#include "repl/commands.h"
#include "repl/expr_eval.h"
#include "repl/fit_command.h"
#include "repl/fit_report.h"
#include "repl/layer_edit.h"
#include "model/layer_json.h"
#include "repl/reports.h"
#include "repl/table.h"
#include "value/format.h"
#include "value/json_writer.h"

namespace oprec::repl {

namespace fs = std::filesystem;

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> words;
    std::istringstream in{std::string(s)};
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// The records and the stamps of the files they came from, the stamps taken
// before reading where the files were known, so an edit made meanwhile shows.
struct Loaded {
    LoadResult result;
    FileWatch watch;
};

Loaded load(const SessionOptions& options, const FileWatch& previous) {
    std::vector<fs::path> known = previous.files();
    known.push_back(options.records);
    FileWatch before;
    before.watch(known);
    Loaded out{load_file(options.records, options.load), {}};
    std::vector<fs::path> files = out.result.files;
    files.push_back(options.records);  // watched also when it could not be read
    out.watch.watch(files, &before);
    return out;
}

void print_warnings(const LoadResult& r, const Output& out) {
    if (!r.diagnostics.empty()) out.err << render_all(r.diagnostics, r.sources, out.color);
}

}  // namespace

Session::Session(SessionOptions options, const Output& out) : options_(std::move(options)) {
    Loaded loaded = load(options_, watch_);
    if (!loaded.result.program) throw LoadError(std::move(loaded.result.diagnostics), std::move(loaded.result.sources));
    print_warnings(loaded.result, out);
    adopt(std::move(*loaded.result.program));
    watch_ = std::move(loaded.watch);
}

void Session::adopt(Program program) {
    auto next = std::make_unique<const Program>(std::move(program));
    engine_ = std::make_unique<const RecordsEvaluator>(*next);
    program_ = std::move(next);
}

bool Session::reload(const Output& out, const std::string& why) {
    Loaded loaded = load(options_, watch_);
    watch_ = std::move(loaded.watch);  // a failed load is not tried again until a file changes again
    if (!loaded.result.program) {
        out.err << render_all(loaded.result.diagnostics, loaded.result.sources, out.color);
        out.error(fmt::format("the records do not load ({}); keeping the records that last loaded", why));
        return false;
    }
    print_warnings(loaded.result, out);
    adopt(std::move(*loaded.result.program));
    out.note(fmt::format("reloaded the records ({})", why));
    return true;
}

bool Session::reload_if_changed(const Output& out) {
    auto changed = watch_.changed();
    if (!changed) return true;
    return reload(out, fmt::format("`{}` changed", changed->string()));
}

bool Session::handle(std::string_view line, const Output& out) {
    line = trim(line);
    if (line.empty() || line.front() == '#') return true;
    const bool reloaded = reload_if_changed(out);
    return execute(line, out) && reloaded;
}

Completion Session::complete(std::string_view before_cursor) const {
    return repl::complete(*program_, layer_, before_cursor);
}

bool Session::execute(std::string_view line, const Output& out) {
    line = trim(line);
    if (line.empty() || line.front() == '#') return true;
    std::size_t end = 0;
    while (end < line.size() && !is_space(line[end])) ++end;
    const std::string_view word = line.substr(0, end);
    const std::string_view rest = trim(line.substr(end));
    try {
        return run(word, rest, out);
    } catch (const CommandError& e) {
        out.error(e.what());
        if (!e.note().empty()) out.note(e.note());
    } catch (const EvalError& e) {
        out.error(error_line(e, &program_->sources));
        if (e.kind() == ErrorKind::MissingField) out.note("`set NAME=VALUE` states a field, `context NAME=VALUE` a context value; `show` prints the layer");
    }
    return false;
}

bool Session::run(std::string_view word, std::string_view rest, const Output& out) {
    const Program& p = *program_;
    auto no_arguments = [&] {
        if (!rest.empty()) throw CommandError(fmt::format("`{}` takes no arguments", word), std::string(find_command(word)->usage));
    };
    const CommandInfo* command = find_command(word);
    const std::string_view name = command != nullptr ? command->name : "";

    if (name == "help") {
        const auto words = split_words(rest);
        if (words.size() > 1) throw CommandError("`help` takes one command's name");
        out.out << (words.empty() ? help_text() : help_text(words[0]));
        return true;
    }
    if (name == "set") {
        if (rest.empty()) {
            const auto doc = layer_doc_json(layer_);
            Table fields({false, false});
            for (const auto& [field, v] : doc["fields"].items()) fields.row({field, json_text(v)});
            out.out << (layer_.fields.empty() ? "the layer states no fields\n" : fields.render());
            return true;
        }
        LayerDoc edited = layer_;
        for (const auto& [field, value] : parse_assignments(rest)) set_field(edited, p, field, value);
        layer_ = std::move(edited);
        return true;
    }
    if (name == "unset") {
        const auto words = split_words(rest);
        if (words.empty()) throw CommandError("`unset` needs a field's name", "unset NAME ...");
        LayerDoc edited = layer_;
        for (const std::string& field : words) unset_field(edited, field);
        layer_ = std::move(edited);
        return true;
    }
    if (name == "switch") return switch_command(rest, out);
    if (name == "node") {
        const auto words = split_words(rest);
        if (words.size() > 1) throw CommandError("`node` takes one kind", "node plain|selective|full");
        if (words.empty()) {
            out.out << fmt::format("{} ({})\n", node_word(layer_.context.node), node_kind_name(layer_.context.node));
            return true;
        }
        set_node(layer_, words[0]);
        return true;
    }
    if (name == "context") {
        if (rest.empty()) {
            const EvalContext& c = layer_.context;
            out.out << fmt::format("micro_factor={} dropless_tok_factor={}\n",
                                   c.micro_factor ? repr(*c.micro_factor) : "none",
                                   c.dropless_tok_factor ? repr(*c.dropless_tok_factor) : "none");
            return true;
        }
        LayerDoc edited = layer_;
        for (const auto& [key, value] : parse_assignments(rest)) set_context(edited, key, value);
        layer_ = std::move(edited);
        return true;
    }
    if (name == "show") {
        no_arguments();
        out.out << json_text(layer_doc_json(layer_), 2) << '\n';
        return true;
    }
    if (name == "load") {
        if (rest.empty()) throw CommandError("`load` needs a file", "load LAYER.json");
        load_layer(rest);
        return true;
    }
    if (name == "layer" || name == "ops" || name == "params") {
        no_arguments();
        const Report r = name == "layer" ? layer_report(*engine_, layer_)
                         : name == "ops" ? ops_report(*engine_, layer_)
                                         : params_report(layer_);
        out.out << r.text;
        return r.ok;
    }
    if (name == "explain") {
        const auto words = split_words(rest);
        if (words.size() != 1) throw CommandError("`explain` takes one slot's name", "explain SLOT");
        check_slot(words[0]);
        const Report r = explain_report(*engine_, layer_, words[0]);
        out.out << r.text;
        return r.ok;
    }
    if (name == "diff") return diff_command(rest, out);
    if (name == "fit") return fit_command(rest, out);
    if (name == ":reload") {
        no_arguments();
        fit_records_.clear();
        return reload(out, "on request");
    }
    if (name == ":quit") {
        done_ = true;
        return true;
    }
    if (p.find_slot(word)) {
        // `qkv`, `qkv only attMM`; an operator after a slot's name makes an expression (`qkv + score`).
        const auto words = split_words(rest);
        const bool keyword = !words.empty() && (words[0] == "if" || words[0] == "and" || words[0] == "or");
        if (words.empty() || (is_name_char(rest.front()) && !keyword)) return slot_command(word, rest, out);
    }
    // A name no field, slot or value has, alone or before another word: a
    // command, misspelt or unknown.
    const bool name_like = std::all_of(word.begin(), word.end(), is_name_char) || word.front() == ':';
    const bool known_name = p.find_name(word) || p.find_field(word) || p.find_slot(word) ||
                            layer_.fields.contains(word) || is_context_value(word) || word == "kv_shards";
    if (name_like && !known_name && (rest.empty() || is_name_char(rest.front()) || word.front() == ':')) {
        std::vector<std::string> known = command_names();
        for (const SlotInfo& s : p.slots) known.push_back(s.name);
        if (rest.empty()) {
            const std::vector<std::string> fields = field_names(p, layer_);
            known.insert(known.end(), fields.begin(), fields.end());
        }
        const std::string note = did_you_mean(word, known);
        throw CommandError(fmt::format("unknown command{} `{}`", rest.empty() ? ", slot or field" : "", word),
                           note.empty() ? "`help` lists the commands" : note);
    }
    const std::string_view text = rest.empty() ? word : std::string_view(word.data(), rest.data() + rest.size() - word.data());
    return expression(text, out);
}

void Session::check_slot(std::string_view name) const {
    if (program_->find_slot(name)) return;
    std::vector<std::string> slots;
    for (const SlotInfo& s : program_->slots) slots.push_back(s.name);
    std::string note = did_you_mean(name, slots);
    throw CommandError(fmt::format("no slot `{}` in the records", name),
                       note.empty() ? fmt::format("the slots: {}", fmt::join(slots, ", ")) : note);
}

bool Session::switch_command(std::string_view rest, const Output& out) {
    const Program& p = *program_;
    const auto words = split_words(rest);
    if (words.empty()) {
        Table t({false, false, false});
        t.row({"switch", "state", "ops it drops"});
        for (const std::string& s : p.switches) {
            std::vector<std::string> ops;
            for (const RecordInfo& r : p.records)
                if (r.switch_id && p.switches[*r.switch_id] == s) ops.push_back(r.name);
            t.row({s, switch_state(layer_, s), ops.empty() ? "(no op)" : fmt::format("{}", fmt::join(ops, ", "))});
        }
        out.out << t.render();
    } else {
        LayerDoc edited = layer_;
        for (std::size_t i = 0; i < words.size(); ++i) {
            const std::string& w = words[i];
            const auto eq = w.find('=');
            if (eq != std::string::npos) {
                set_switch(edited, p, w.substr(0, eq), w.substr(eq + 1));
            } else if (i + 1 < words.size()) {
                set_switch(edited, p, w, words[i + 1]);
                ++i;
            } else {
                throw CommandError(fmt::format("`switch {}` needs on or off", w), "switch NAME on|off");
            }
        }
        layer_ = std::move(edited);
    }
    if (layer_.context.node != NodeKind::SelRec)
        out.note(fmt::format("switches take effect on a selective layer (`node selective`); this one is {}",
                             node_word(layer_.context.node)));
    return true;
}

bool Session::diff_command(std::string_view rest, const Output& out) {
    const Program& p = *program_;
    const auto sides = split_words(rest);
    if (sides.empty() || sides.size() > 2)
        throw CommandError("`diff` takes one or two settings", "diff softmax=0 softmax=1, diff t=4 t=8, diff cp=4");
    auto apply = [&](LayerDoc layer, const std::string& side) {
        std::stringstream parts(side);
        for (std::string setting; std::getline(parts, setting, ',');) {
            const auto eq = setting.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == setting.size())
                throw CommandError(fmt::format("expected NAME=VALUE in `{}`", side), "diff softmax=0 softmax=1");
            apply_setting(layer, p, setting.substr(0, eq), setting.substr(eq + 1));
        }
        return layer;
    };
    const bool one = sides.size() == 1;
    const LayerDoc a = one ? layer_ : apply(layer_, sides[0]);
    const LayerDoc b = apply(layer_, sides[one ? 0 : 1]);
    const Report r = diff_report(*engine_, a, one ? "the layer as it is" : sides[0], b, sides[one ? 0 : 1]);
    out.out << r.text;
    const bool switches_named = std::any_of(p.switches.begin(), p.switches.end(), [&](const std::string& s) {
        return rest.find(s + "=") != std::string_view::npos || rest.find("all=") != std::string_view::npos;
    });
    if (switches_named && (a.context.node != NodeKind::SelRec || b.context.node != NodeKind::SelRec))
        out.note("switches take effect on a selective layer (`node selective`, or `node=selective` in a setting)");
    return r.ok;
}

bool Session::fit_command(std::string_view rest, const Output& out) {
    const FitRequest request = parse_fit(rest);
    try {
        auto loaded = fit_records_.find(request.records);
        if (loaded == fit_records_.end()) {
            RecordsOptions options = options_.fit_records;
            options.profiles = "profiles.rec";
            const bool shipped = request.records == "calibrated" || request.records == "reference";
            loaded = fit_records_.emplace(request.records,
                                          Records::load(shipped ? "rank_" + request.records : request.records, options))
                         .first;
        }
        const Records& records = loaded->second;
        const FitResult r = FitModel(records, fs::path(request.config), request.family).fit(request.strategy);
        out.out << fit_text(r, request.config, records.source(), "`oprec fit --format json` lists every one");
        return true;
    } catch (const RecordsError& e) {
        for (const Problem& p : e.problems()) out.err << (out.color ? p.rendered_color : p.rendered);
        out.error(fmt::format("the records `{}` do not load", request.records));
    } catch (const LayerError& e) {
        out.error(e.what());
    } catch (const PricingError& e) {
        out.error(e.what());
    }
    return false;
}

bool Session::slot_command(std::string_view slot, std::string_view rest, const Output& out) {
    const Program& p = *program_;
    const auto words = split_words(rest);
    std::optional<std::string> only;
    if (!words.empty()) {
        if (words.size() != 2 || words[0] != "only")
            throw CommandError(fmt::format("expected `only OP` after the slot `{}`", slot), fmt::format("{} only attMM", slot));
        if (!p.find_record(words[1])) {
            std::vector<std::string> records;
            for (const RecordInfo& r : p.records) records.push_back(r.name);
            std::string note = did_you_mean(words[1], records);
            throw CommandError(fmt::format("no op or part `{}` in the records", words[1]),
                               note.empty() ? fmt::format("the ops and parts: {}", fmt::join(records, ", ")) : note);
        }
        only = words[1];
    }
    const Report r = slot_report(*engine_, layer_, slot, only);
    out.out << r.text;
    return r.ok;
}

bool Session::expression(std::string_view text, const Output& out) {
    CompiledExpr expr;
    try {
        expr = compile_expression(std::string(text), "<input>");
    } catch (const LoadError& e) {
        out.err << render_all(e.diagnostics(), e.sources(), out.color);
        return false;
    }
    try {
        out.out << repr(evaluate_on_layer(expr, *engine_, layer_)) << '\n';
        return true;
    } catch (const EvalError& e) {
        out.error(fmt::format("{} [{}]", e.what(), error_kind_name(e.kind())));
        const Span& s = e.span();
        if (s.known() && s.line == 1) {
            out.err << "  " << text << "\n  " << std::string(s.col - 1, ' ') << std::string(std::max<std::uint32_t>(s.len, 1), '^')
                    << '\n';
        }
        return false;
    }
}

void Session::start(const std::string& layer_file, const std::vector<std::string>& sets,
                    const std::vector<std::string>& switches) {
    const LayerDoc before = layer_;  // all of it or none: a failed edit leaves the layer as it was
    try {
        if (!layer_file.empty()) load_layer(layer_file);
        apply_start_edits(layer_, *program_, sets, switches);
    } catch (...) {
        layer_ = before;
        throw;
    }
}

void Session::load_layer(std::string_view file) {
    std::string why;
    const std::optional<std::string> text = read_file_capped(std::string(file), kMaxDocumentBytes, why);
    if (!text) throw CommandError(fmt::format("cannot read `{}`: {}", file, why));
    try {
        layer_ = parse_layer_doc_text(*text, file);
    } catch (const LayerDocError& e) {
        throw CommandError(e.what());
    }
}

}  // namespace oprec::repl
