#include "repl/session.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "diag/read_file.h"
#include "oprec/oprec.h"
#include "repl/commands.h"
#include "repl/expr_eval.h"
#include "repl/fit_command.h"
#include "repl/fit_report.h"
#include "repl/layer_edit.h"
#include "repl/reports.h"
#include "repl/table.h"
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

// Problems as the compiler writes them, coloured for a terminal.
std::string rendered(const std::vector<Problem>& problems, bool color) {
    std::string out;
    for (const Problem& p : problems) out += color ? p.rendered_color : p.rendered;
    return out;
}

// The records, or why they do not load, and the stamps of the files they
// came from, the stamps taken before reading where the files were known, so
// an edit made meanwhile shows.
struct Loaded {
    std::optional<Records> records;
    std::optional<RecordsError> error;
    FileWatch watch;
};

Loaded load(const SessionOptions& options, const FileWatch& previous) {
    std::vector<fs::path> known = previous.files();
    known.push_back(options.records);
    FileWatch before;
    before.watch(known);
    Loaded out;
    std::vector<fs::path> files;
    try {
        out.records = Records::load(options.records, options.load);
        files = out.records->files();
    } catch (const RecordsError& e) {
        out.error = e;
        files = e.files();
    }
    files.push_back(options.records);  // watched also when it could not be read
    out.watch.watch(files, &before);
    return out;
}

}  // namespace

Session::Session(SessionOptions options) : options_(std::move(options)) {
    Loaded loaded = load(options_, watch_);
    if (!loaded.records) throw *loaded.error;
    records_ = std::move(loaded.records);
    layer_ = records_->layer("{}", layer_name_);
    watch_ = std::move(loaded.watch);
}

bool Session::reload(const Output& out, const std::string& why) {
    Loaded loaded = load(options_, watch_);
    watch_ = std::move(loaded.watch);  // a failed load is not tried again until a file changes again
    if (!loaded.records) {
        out.err << rendered(loaded.error->problems(), out.color);
        out.error(fmt::format("the records do not load ({}); keeping the records that last loaded", why));
        return false;
    }
    std::optional<Layer> rebound;  // the layer as it is, bound to the new records
    try {
        rebound = loaded.records->layer(*layer_);
    } catch (const LayerError& e) {
        out.error(fmt::format("the layer does not fit the new records: {}; keeping the records that last loaded "
                              "(`:reload` after changing the layer)", e.what()));
        return false;
    }
    records_ = std::move(loaded.records);
    layer_ = std::move(rebound);
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
    return repl::complete(*records_, *layer_, before_cursor);
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
    } catch (const PricingError& e) {
        out.error(error_line(e));
        if (e.kind() == PricingError::Kind::MissingField) out.note("`set NAME=VALUE` states a field, `context NAME=VALUE` a context value; `show` prints the layer");
    }
    return false;
}

bool Session::run(std::string_view word, std::string_view rest, const Output& out) {
    const Records& r = *records_;
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
            const auto doc = nlohmann::ordered_json::parse(layer_->document_json(-1));
            Table fields({false, false});
            for (const auto& [field, v] : doc["fields"].items()) fields.row({field, json_text(v)});
            out.out << (layer_->fields().empty() ? "the layer states no fields\n" : fields.render());
            return true;
        }
        Layer edited = *layer_;
        for (const auto& [field, value] : parse_assignments(rest)) set_field(edited, r, field, value);
        layer_ = std::move(edited);
        for (const auto& [field, why] : layer_->doubtful_fields())
            if (rest.find(field) != std::string_view::npos) out.warning(why);  // said when set, not at every set
        return true;
    }
    if (name == "unset") {
        const auto words = split_words(rest);
        if (words.empty()) throw CommandError("`unset` needs a field's name", "unset NAME ...");
        Layer edited = *layer_;
        for (const std::string& field : words) unset_field(edited, field);
        layer_ = std::move(edited);
        return true;
    }
    if (name == "switch") return switch_command(rest, out);
    if (name == "node") {
        const auto words = split_words(rest);
        if (words.size() > 1) throw CommandError("`node` takes one kind", "node plain|selective|full");
        if (words.empty()) {
            out.out << fmt::format("{} ({})\n", node_word(layer_->recompute()), recompute_name(layer_->recompute()));
            return true;
        }
        set_node(*layer_, words[0]);
        return true;
    }
    if (name == "context") {
        if (rest.empty()) {
            auto value = [&](std::string_view name) {
                const std::optional<Field> v = layer_->field(name);
                const Number* n = v ? std::get_if<Number>(&*v) : nullptr;
                return n != nullptr ? n->repr() : std::string("none");
            };
            out.out << fmt::format("micro_factor={} dropless_tok_factor={}\n", value("micro_factor"),
                                   value("dropless_tok_factor"));
            return true;
        }
        Layer edited = *layer_;
        for (const auto& [key, value] : parse_assignments(rest)) set_context(edited, key, value);
        layer_ = std::move(edited);
        return true;
    }
    if (name == "show") {
        no_arguments();
        out.out << layer_->document_json(2) << '\n';
        return true;
    }
    if (name == "load") {
        if (rest.empty()) throw CommandError("`load` needs a file", "load LAYER.json");
        for (const std::string& w : load_layer(rest)) out.warning(w);
        return true;
    }
    if (name == "layer" || name == "ops" || name == "params") {
        no_arguments();
        const Report report = name == "layer" ? layer_report(r, *layer_)
                              : name == "ops" ? ops_report(r, *layer_)
                                              : params_report(*layer_);
        out.out << report.text;
        return report.ok;
    }
    if (name == "explain") {
        const auto words = split_words(rest);
        if (words.size() != 1) throw CommandError("`explain` takes one slot's name", "explain SLOT");
        check_slot(words[0]);
        const Report report = explain_report(r, *layer_, words[0]);
        out.out << report.text;
        return report.ok;
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
    if (contains(r.slots(), word)) {
        // `qkv`, `qkv only attMM`; an operator after a slot's name makes an expression (`qkv + score`).
        const auto words = split_words(rest);
        const bool keyword = !words.empty() && (words[0] == "if" || words[0] == "and" || words[0] == "or");
        if (words.empty() || (is_name_char(rest.front()) && !keyword)) return slot_command(word, rest, out);
    }
    // A name no field, slot or value has, alone or before another word: a
    // command, misspelt or unknown.
    // What an expression starts with is no command: a number, True,
    // False, None, `not` (`1 if h else 2`, `not 0` were refused as commands).
    const bool literal = std::isdigit(static_cast<unsigned char>(word.front())) || word == "True" || word == "False" ||
                         word == "None" || word == "not";
    const bool name_like = (!literal && std::all_of(word.begin(), word.end(), is_name_char)) || word.front() == ':';
    const bool in_schema = std::any_of(r.schema().begin(), r.schema().end(),
                                       [&](const FieldDecl& f) { return f.name == word; });
    const bool known_name = contains(r.names(), word) || in_schema || contains(r.slots(), word) ||
                            (!is_context_name(word) && layer_->field(word)) || is_context_name(word) ||
                            word == "kv_shards";
    if (name_like && !known_name && (rest.empty() || is_name_char(rest.front()) || word.front() == ':')) {
        std::vector<std::string> known = command_names();
        known.insert(known.end(), r.slots().begin(), r.slots().end());
        if (rest.empty()) {
            const std::vector<std::string> fields = layer_->field_names();
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
    const std::vector<std::string>& slots = records_->slots();
    if (contains(slots, name)) return;
    std::string note = did_you_mean(name, slots);
    throw CommandError(fmt::format("no slot `{}` in the records", name),
                       note.empty() ? fmt::format("the slots: {}", fmt::join(slots, ", ")) : note);
}

bool Session::switch_command(std::string_view rest, const Output& out) {
    const Records& r = *records_;
    const auto words = split_words(rest);
    if (words.empty()) {
        Table t({false, false, false});
        t.row({"switch", "state", "ops it drops"});
        for (const std::string& s : r.switches()) {
            std::vector<std::string> ops;
            for (const std::string& op : r.ops())
                if (r.op_decl(op).switch_name == s) ops.push_back(op);
            t.row({s, switch_state(*layer_, s), ops.empty() ? "(no op)" : fmt::format("{}", fmt::join(ops, ", "))});
        }
        out.out << t.render();
    } else {
        Layer edited = *layer_;
        for (std::size_t i = 0; i < words.size(); ++i) {
            const std::string& w = words[i];
            const auto eq = w.find('=');
            if (eq != std::string::npos) {
                set_switch(edited, r, w.substr(0, eq), w.substr(eq + 1));
            } else if (i + 1 < words.size()) {
                set_switch(edited, r, w, words[i + 1]);
                ++i;
            } else {
                throw CommandError(fmt::format("`switch {}` needs on or off", w), "switch NAME on|off");
            }
        }
        layer_ = std::move(edited);
    }
    if (layer_->recompute() != Recompute::Selective)
        out.note(fmt::format("switches take effect on a selective layer (`node selective`); this one is {}",
                             node_word(layer_->recompute())));
    return true;
}

bool Session::diff_command(std::string_view rest, const Output& out) {
    const Records& r = *records_;
    const auto sides = split_words(rest);
    if (sides.empty() || sides.size() > 2)
        throw CommandError("`diff` takes one or two settings", "diff softmax=0 softmax=1, diff t=4 t=8, diff cp=4");
    auto apply = [&](Layer layer, const std::string& side) {
        std::stringstream parts(side);
        for (std::string setting; std::getline(parts, setting, ',');) {
            const auto eq = setting.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == setting.size())
                throw CommandError(fmt::format("expected NAME=VALUE in `{}`", side), "diff softmax=0 softmax=1");
            apply_setting(layer, r, setting.substr(0, eq), setting.substr(eq + 1));
        }
        return layer;
    };
    const bool one = sides.size() == 1;
    const Layer a = one ? *layer_ : apply(*layer_, sides[0]);
    const Layer b = apply(*layer_, sides[one ? 0 : 1]);
    const Report report = diff_report(r, a, one ? "the layer as it is" : sides[0], b, sides[one ? 0 : 1]);
    out.out << report.text;
    const bool switches_named = std::any_of(r.switches().begin(), r.switches().end(), [&](const std::string& s) {
        return rest.find(s + "=") != std::string_view::npos || rest.find("all=") != std::string_view::npos;
    });
    if (switches_named && (a.recompute() != Recompute::Selective || b.recompute() != Recompute::Selective))
        out.note("switches take effect on a selective layer (`node selective`, or `node=selective` in a setting)");
    return report.ok;
}

bool Session::fit_command(std::string_view rest, const Output& out) {
    const FitRequest request = parse_fit(rest);
    try {
        auto loaded = fit_records_.find(request.records);
        if (loaded == fit_records_.end()) {
            RecordsOptions options = options_.load;
            options.profiles = "profiles.rec";
            const bool shipped = request.records == "calibrated" || request.records == "reference";
            loaded = fit_records_.emplace(request.records,
                                          Records::load(shipped ? "rank_" + request.records : request.records, options))
                         .first;
        }
        const Records& records = loaded->second;
        const FitModel model(records, fs::path(request.config), request.family);
        FitResult r = model.fit(request.strategy);
        r.parameters = model.parameters(request.strategy);
        out.out << fit_text(r, request.config, records.source(), "`oprec fit --format json` lists every one");
        return true;
    } catch (const RecordsError& e) {
        out.err << rendered(e.problems(), out.color);
        out.error(fmt::format("the records `{}` do not load", request.records));
    } catch (const LayerError& e) {
        out.error(e.what());
    } catch (const PricingError& e) {
        out.error(e.what());
    }
    return false;
}

bool Session::slot_command(std::string_view slot, std::string_view rest, const Output& out) {
    const std::vector<std::string>& records = records_->ops();
    const auto words = split_words(rest);
    std::optional<std::string> only;
    if (!words.empty()) {
        if (words.size() != 2 || words[0] != "only")
            throw CommandError(fmt::format("expected `only OP` after the slot `{}`", slot), fmt::format("{} only attMM", slot));
        if (!contains(records, words[1])) {
            std::string note = did_you_mean(words[1], records);
            throw CommandError(fmt::format("no op or part `{}` in the records", words[1]),
                               note.empty() ? fmt::format("the ops and parts: {}", fmt::join(records, ", ")) : note);
        }
        only = words[1];
    }
    const Report report = slot_report(*records_, *layer_, slot, only);
    out.out << report.text;
    return report.ok;
}

bool Session::expression(std::string_view text, const Output& out) {
    std::optional<Expression> expr;
    try {
        expr = Expression::parse(std::string(text), "<input>");
    } catch (const RecordsError& e) {
        out.err << rendered(e.problems(), out.color);
        return false;
    }
    try {
        out.out << evaluate_on_layer(*expr, *records_, *layer_).repr() << '\n';
        return true;
    } catch (const PricingError& e) {
        out.error(fmt::format("{} [{}]", e.reason(), e.kind_name()));
        const Position& w = e.where();
        if (w.line == 1) {
            const std::uint32_t width = w.end_line == w.line && w.end_col > w.col ? w.end_col - w.col : 1;
            out.err << "  " << text << "\n  " << std::string(w.col - 1, ' ') << std::string(width, '^') << '\n';
        }
        return false;
    }
}

std::vector<std::string> Session::start(const std::string& layer_file, const std::vector<std::string>& sets,
                                        const std::vector<std::string>& switches) {
    std::vector<std::string> warnings;
    const Layer before = *layer_;  // all of it or none: a failed edit leaves the layer as it was
    const std::string before_name = layer_name_;
    try {
        if (!layer_file.empty()) warnings = load_layer(layer_file);
        apply_start_edits(*layer_, *records_, sets, switches);
    } catch (...) {
        layer_ = before;
        layer_name_ = before_name;
        throw;
    }
    return warnings;
}

std::vector<std::string> Session::load_layer(std::string_view file) {
    std::string why;
    const std::optional<std::string> text = read_file_capped(std::string(file), kMaxDocumentBytes, why);
    if (!text) throw CommandError(fmt::format("cannot read `{}`: {}", file, why));
    try {
        layer_ = records_->layer(*text, file);
        layer_name_ = std::string(file);
    } catch (const LayerError& e) {
        throw CommandError(e.what());
    }
    std::vector<std::string> warnings;  // a misspelt field would be priced as if absent, silently
    for (const auto& [field, message] : layer_->unread_fields())
        warnings.push_back(fmt::format("{}: {}: the layer is priced without it", file, message));
    for (const auto& [path, message] : layer_->unread_switches())
        warnings.push_back(fmt::format("{}: {}: it changes nothing", file, message));
    for (const auto& [field, message] : layer_->doubtful_fields())
        warnings.push_back(fmt::format("{}: {}", file, message));
    return warnings;
}

}  // namespace oprec::repl
