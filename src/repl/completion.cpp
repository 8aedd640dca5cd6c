#include "repl/completion.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "repl/commands.h"
#include "repl/fit_command.h"
#include "repl/layer_edit.h"
#include "repl/output.h"

namespace oprec::repl {

namespace {

using Names = std::vector<std::string>;

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':'; }

// The names an expression may read.
Names expression_names(const Records& r, const Layer& layer) {
    Names out = layer.field_names();
    out.insert(out.end(), r.slots().begin(), r.slots().end());
    out.insert(out.end(), context_names().begin(), context_names().end());
    out.emplace_back("kv_shards");
    return out;
}

// The values a NAME= may take, where they are few.
Names values_of(const Records& r, std::string_view name, bool switch_as_digit) {
    if (name == "node") return {"plain", "selective", "full"};
    if (name == "all" || contains(r.switches(), name)) return switch_as_digit ? Names{"0", "1"} : Names{"on", "off"};
    if (name == "cp_algo") return {"colossalai_cp", "hybrid_cp", "ulysses_cp"};
    for (const FieldDecl& f : r.schema()) {
        if (f.name != name) continue;
        Names out;
        if (contains(f.types, "bool")) out.insert(out.end(), {"true", "false"});
        if (f.optional) out.push_back("none");
        return out;
    }
    return {};
}

Names file_names(std::string_view partial) {
    namespace fs = std::filesystem;
    const auto slash = partial.rfind('/');
    const std::string dir(slash == std::string_view::npos ? "" : partial.substr(0, slash + 1));
    Names out;
    std::error_code ec;
    for (fs::directory_iterator it(dir.empty() ? fs::path(".") : fs::path(dir), ec), end; !ec && it != end;
         it.increment(ec)) {
        std::string name = dir;
        name += it->path().filename().string();
        if (it->is_directory(ec)) name += '/';
        out.push_back(std::move(name));
    }
    return out;
}

Completion finish(Names names, std::size_t start, std::string_view word, std::string suffix) {
    Completion c;
    c.start = start;
    c.suffix = std::move(suffix);
    for (std::string& n : names)
        if (n.size() >= word.size() && n.compare(0, word.size(), word) == 0) c.candidates.push_back(std::move(n));
    std::sort(c.candidates.begin(), c.candidates.end());
    c.candidates.erase(std::unique(c.candidates.begin(), c.candidates.end()), c.candidates.end());
    // A folder completes to itself and waits for more.
    if (c.candidates.size() == 1 && !c.candidates[0].empty() && c.candidates[0].back() == '/') c.suffix.clear();
    return c;
}

}  // namespace

std::string common_prefix(const std::vector<std::string>& candidates) {
    if (candidates.empty()) return {};
    std::string prefix = candidates[0];
    for (const std::string& c : candidates) {
        std::size_t n = 0;
        while (n < prefix.size() && n < c.size() && prefix[n] == c[n]) ++n;
        prefix.resize(n);
    }
    return prefix;
}

Completion complete(const Records& p, const Layer& layer, std::string_view text) {
    // The whole words before the cursor, then the one it is in.
    std::vector<std::string> words;
    std::size_t i = 0, word_start = text.size();
    while (true) {
        while (i < text.size() && is_space(text[i])) ++i;
        if (i >= text.size()) break;  // the cursor is after a space: a new word
        const std::size_t s = i;
        while (i < text.size() && !is_space(text[i])) ++i;
        if (i >= text.size()) {
            word_start = s;
            break;
        }
        words.emplace_back(text.substr(s, i - s));
    }
    const std::string_view partial = text.substr(word_start);

    // Within the word: after the last `=` or `,` (assignments), or the last
    // character no name holds (expressions).
    auto after_last = [&](std::string_view chars) {
        const auto at = partial.find_last_of(chars);
        return at == std::string_view::npos ? word_start : word_start + at + 1;
    };
    auto name_start = [&] {
        std::size_t s = text.size();
        while (s > word_start && is_name_char(text[s - 1])) --s;
        return s;
    };

    if (words.empty()) {
        if (std::any_of(partial.begin(), partial.end(), [](char c) { return !is_name_char(c); })) {
            const std::size_t s = name_start();
            return finish(expression_names(p, layer), s, text.substr(s), " ");
        }
        Names names = command_names();
        names.insert(names.end(), {"quit", "exit"});
        Names more = expression_names(p, layer);
        names.insert(names.end(), more.begin(), more.end());
        return finish(std::move(names), word_start, partial, " ");
    }

    const std::string& command = words[0];
    const std::size_t args = words.size() - 1;  // whole arguments before this one
    auto assignment = [&](Names names, bool switch_as_digit, std::string_view separators) {
        const std::size_t s = after_last(separators);
        const std::string_view word = text.substr(s);
        if (s > word_start && text[s - 1] == '=') {
            // NAME=VALUE: the name is what stands between the separator before it and `=`.
            const std::string_view before = text.substr(word_start, s - 1 - word_start);
            const auto sep = before.find_last_of(",");
            const std::string_view name = sep == std::string_view::npos ? before : before.substr(sep + 1);
            return finish(values_of(p, name, switch_as_digit), s, word, " ");
        }
        return finish(std::move(names), s, word, "=");
    };

    if (command == "set") {
        Names names = layer.field_names();
        names.insert(names.end(), context_names().begin(), context_names().end());
        return assignment(std::move(names), false, "=");
    }
    if (command == "context") return assignment(context_names(), false, "=");
    if (command == "diff") {
        Names names = layer.field_names();
        names.insert(names.end(), p.switches().begin(), p.switches().end());
        names.emplace_back("node");
        names.insert(names.end(), context_names().begin(), context_names().end());
        return assignment(std::move(names), true, "=,");
    }
    if (command == "unset") {
        Names stated;
        for (const auto& [name, v] : layer.fields()) stated.push_back(name);
        return finish(std::move(stated), word_start, partial, " ");
    }
    if (command == "switch") {
        if (partial.find('=') != std::string_view::npos) return assignment({}, false, "=");
        const std::string& previous = words.back();
        if (args > 0 && (previous == "all" || contains(p.switches(), previous)))
            return finish({"on", "off"}, word_start, partial, " ");
        Names names = p.switches();
        names.push_back("all");
        return finish(std::move(names), word_start, partial, " ");
    }
    if (command == "node" && args == 0) return finish({"plain", "selective", "full"}, word_start, partial, " ");
    if (command == "explain" && args == 0) return finish(p.slots(), word_start, partial, " ");
    if (command == "help" && args == 0) {
        Names names = command_names();
        names.insert(names.end(), {"SLOT", "EXPR"});
        return finish(std::move(names), word_start, partial, " ");
    }
    if (command == "load" && args == 0) {
        return finish(file_names(partial), word_start, partial, " ");
    }
    if (command == "fit") {  // the config's file, then the options (`tp=`)
        if (args == 0) return finish(file_names(partial), word_start, partial, " ");
        if (partial.find('=') == std::string_view::npos) return finish(fit_option_names(), word_start, partial, "=");
    }
    if (find_command(command) != nullptr) return finish({}, word_start, partial, " ");
    if (contains(p.slots(), command) && (args == 0 || words[1] == "only")) {
        if (args == 0) return finish({"only"}, word_start, partial, " ");
        if (args == 1) return finish(p.ops(), word_start, partial, " ");
        return finish({}, word_start, partial, " ");
    }
    const std::size_t s = name_start();
    return finish(expression_names(p, layer), s, text.substr(s), " ");
}

}  // namespace oprec::repl
