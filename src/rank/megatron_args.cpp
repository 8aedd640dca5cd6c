#include "rank/megatron_args.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "rank/megatron_flags.h"
#include "rank/megatron_derive.h"
#include "rank/shell_words.h"

namespace oprec::rank {

namespace {

bool is_flag(const std::string& w) { return w.size() > 2 && w[0] == '-' && w[1] == '-'; }

bool is_assignment(const std::string& w) {
    const auto eq = w.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    if (std::isdigit(static_cast<unsigned char>(w[0]))) return false;
    return std::all_of(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(eq),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// `>file`, `2>&1`, `>>`: the shell's, not the program's.
bool is_redirection(const std::string& w) {
    std::size_t i = 0;
    while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
    return i < w.size() && (w[i] == '>' || w[i] == '<');
}

bool ends_with(const std::string& s, std::string_view tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::optional<int> small_number(const std::string& s) {
    int v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 1) return std::nullopt;
    return v;
}

// nproc_per_node * nnodes from torchrun's flags, where both are numbers
// (and the product an int); `stated`: whether the launcher names either.
std::optional<int> launcher_gpus(const std::vector<std::string>& words, bool& stated) {
    std::optional<int> per_node, nodes = 1;
    stated = false;
    for (std::size_t i = 0; i < words.size(); ++i) {
        std::string name = words[i], value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
        } else if (i + 1 < words.size()) {
            value = words[i + 1];
        }
        if (name == "--nproc_per_node" || name == "--nproc-per-node") per_node = small_number(value), stated = true;
        if (name == "--nnodes") nodes = small_number(value), stated = true;
    }
    int gpus = 0;
    if (!per_node || !nodes || __builtin_mul_overflow(*per_node, *nodes, &gpus)) return std::nullopt;
    return gpus;
}

class Reader {
public:
    Reader(std::string source, std::optional<int> gpus) : gpus_(gpus) { out_.source = std::move(source); }

    ParsedArgs run(std::string_view text) {
        const std::vector<Command> commands = split_commands(text, out_.source);
        // The command that runs a Python script holds the flags; without
        // one, every command's words are flags (a flags-only file).
        const Command* main = nullptr;
        std::size_t script = 0;
        std::vector<std::string> scripts;  // every command's script, where it is
        for (const Command& c : commands) {
            for (std::size_t i = 0; i < c.size(); ++i)
                if (ends_with(c[i].text, ".py") && !is_flag(c[i].text)) {
                    main = &c, script = i;
                    scripts.push_back(fmt::format("{} at {}", c[i].text, at(c[i])));
                    break;
                }
        }
        // Several (a data step before the training, two runs): the last is the one read.
        if (scripts.size() > 1)
            out_.notes.push_back(fmt::format("{} commands run a script ({}): the last one's flags are read",
                                             scripts.size(), fmt::join(scripts, ", ")));
        std::vector<Word> flags;
        for (const Command& c : commands) {
            std::size_t i = 0;
            if (!c.empty() && c[0].text == "export") i = 1;
            for (; i < c.size() && is_assignment(c[i].text); ++i) {
                const auto eq = c[i].text.find('=');
                out_.env[c[i].text.substr(0, eq)] = c[i].text.substr(eq + 1);
            }
            if (main) {
                // Flags that begin a command of their own on the line after the
                // script's were meant for it: that line lost its `\`, and the
                // shell would not pass them on. Read as written, they would go
                // unpriced. (Further on, a heredoc or a block may hold such lines.)
                if (&c != main && i < c.size() && is_flag(c[i].text) && !main->empty() &&
                    c[i].line == main->back().line + 1)
                    throw MegatronArgsError(fmt::format(
                        "{}: `{}` begins a command of its own, so {} never sees it: does the line before lack "
                        "its closing `\\`?",
                        at(c[i]), c[i].text, (*main)[script].text));
                if (&c != main) continue;
                for (std::size_t j = i; j < script; ++j) out_.launcher.push_back(c[j].text);
                flags.insert(flags.end(), c.begin() + static_cast<std::ptrdiff_t>(script + 1), c.end());
            } else {
                // Words before the first flag name the program (`python -m ...`).
                std::size_t first = i;
                while (first < c.size() && !is_flag(c[first].text)) ++first;
                if (first == c.size()) continue;  // an assignment or a command without flags
                for (std::size_t j = i; j < first; ++j) out_.launcher.push_back(c[j].text);
                flags.insert(flags.end(), c.begin() + static_cast<std::ptrdiff_t>(first), c.end());
            }
        }
        bool launcher_counts = false;  // the launcher names a count, a number or not
        out_.launcher_gpus = launcher_gpus(out_.launcher, launcher_counts);
        out_.args.gpus = gpus_.value_or(out_.launcher_gpus.value_or(8));
        if (!gpus_ && !out_.launcher_gpus && launcher_counts)  // $GPUS_PER_NODE, `--nnodes 2:4`
            out_.notes.push_back("the launcher's GPU count is not one oprec can read (a variable, a range, or past "
                                 "2^31): priced on 8 GPUs (--gpus gives the count)");
        if (gpus_ && out_.launcher_gpus && *out_.launcher_gpus != *gpus_)
            out_.notes.push_back(fmt::format("the launcher runs {} GPUs; priced on --gpus {}, as asked",
                                             *out_.launcher_gpus, *gpus_));
        read_flags(flags);
        detail::derive(out_, stated_);
        return std::move(out_);
    }

private:
    std::string at(const Word& w) const { return fmt::format("{}:{}:{}", out_.source, w.line, w.col); }

    void read_flags(const std::vector<Word>& words) {
        for (std::size_t i = 0; i < words.size(); ++i) {
            const Word& w = words[i];
            if (is_redirection(w.text)) {
                if (ends_with(w.text, ">") || ends_with(w.text, "<")) ++i;  // its target is the next word
                continue;
            }
            if (!is_flag(w.text))
                throw MegatronArgsError(fmt::format("{}: `{}` is not a flag{}", at(w), w.text,
                                                    i > 0 ? fmt::format(" (after {})", words[i - 1].text) : ""));
            StatedFlag stated{w.text, {}, w.line, w.col};
            std::optional<Word> inline_value;
            if (auto eq = w.text.find('='); eq != std::string::npos) {
                stated.name = w.text.substr(0, eq);
                inline_value = Word{w.text.substr(eq + 1), w.line, w.col + static_cast<int>(eq) + 1};
            }
            const detail::FlagSpec* spec = detail::find_flag(stated.name);
            // Values: the inline one, else the words up to the next flag.
            std::vector<Word> values;
            if (inline_value) {
                values.push_back(*inline_value);
            } else {
                const bool takes_any = !spec || spec->arity != detail::Arity::none;
                const bool takes_many = !spec || spec->arity == detail::Arity::many;
                while (takes_any && i + 1 < words.size() && !is_flag(words[i + 1].text) &&
                       !is_redirection(words[i + 1].text) && (takes_many || values.empty()))
                    values.push_back(words[++i]);
            }
            for (const Word& v : values) stated.values.push_back(v.text);
            if (!spec) {
                (detail::is_ignored_flag(stated.name) ? out_.ignored : out_.unknown).push_back(std::move(stated));
                continue;
            }
            if (spec->arity == detail::Arity::none && !values.empty())
                throw MegatronArgsError(
                    fmt::format("{}: {} takes no value, got `{}`", at(values[0]), stated.name, values[0].text));
            if (spec->arity == detail::Arity::one && values.empty())
                throw MegatronArgsError(fmt::format("{}: {} needs a value", at(w), stated.name));
            const detail::ValueReader reader{stated.name, values.empty() ? at(w) : at(values[0])};
            spec->set(out_.args, stated_, stated.values, reader);
            out_.used.push_back(std::move(stated));
        }
    }

    std::optional<int> gpus_;  // the caller's count, if it gave one
    ParsedArgs out_;
    detail::Stated stated_;
};

}  // namespace

ParsedArgs parse_megatron_args(std::string_view text, std::string source_name, std::optional<int> gpus) {
    if (gpus && *gpus < 1)
        throw MegatronArgsError(fmt::format("{}: --gpus must be at least 1, got {}", source_name, *gpus));
    return Reader(std::move(source_name), gpus).run(text);
}

}  // namespace oprec::rank
