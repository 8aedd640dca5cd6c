// oprec calc: evaluate one expression of the records' language, or a stream
// of them as JSON lines.
#include <algorithm>
#include <functional>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/debug.h"
#include "cli/commands.h"
#include "cli/file_io.h"
#include "value/numbers.h"
#include "cli/paths.h"
#include "diag/read_file.h"
#include "oprec/expression.h"
#include "value/format.h"
#include "value/text.h"
#include "value/json_writer.h"

namespace oprec::cli {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

struct CalcArgs {
    std::string expr;
    std::vector<std::string> sets;
    bool jsonl = false;
    std::string tier = "auto";  // --tier: tree walks the expression's tree
    bool dump = false;          // --dump: its straight-line code instead of its value
};

ordered_json result_json(const Number& n, const std::vector<std::string>& reads) {
    const Value v = value_of(n);
    ordered_json out;
    out["type"] = type_name(v.type);
    out["value"] = to_json(v);
    out["reads"] = reads;
    return out;
}

using Bindings = std::map<std::string, Number, std::less<>>;

// The bindings as Expression::evaluate looks names up.
Expression::Lookup lookup(const Bindings& bindings) {
    return [&bindings](std::string_view name) -> std::optional<Number> {
        const auto it = bindings.find(name);
        if (it == bindings.end()) return std::nullopt;
        return it->second;
    };
}

// A refused expression's first problem, as a one-line message: "<expr>:1:4: syntax error: ...".
std::string first_problem(const RecordsError& e) {
    if (e.problems().empty()) return e.what();
    const Problem& p = e.problems().front();
    return fmt::format("{}:{}:{}: {}", p.where.file, p.where.line, p.where.col, p.message);
}

ordered_json error_line(const char* kind, const std::string& message) {
    return {{"error", {{"kind", kind}, {"message", message}}}};
}

// One line of --jsonl: {"expr": ..., "bindings": {...}} -> one result line.
ordered_json calc_line(const std::string& line, std::size_t number, bool& failed) {
    if (oversized_json_integer(line)) {
        failed = true;
        return error_line("overflow", fmt::format("line {}: an integer beyond 64 bits", number));
    }
    json doc;
    RepeatedKeys repeated(line);  // a repeated key would be kept silently (the last one)
    try {
        doc = json::parse(line, std::ref(repeated));
    } catch (const json::parse_error& e) {
        failed = true;
        // json_syntax_error's words, after its source:line:col (one line here).
        const std::string what = json_syntax_error("", line, e);
        return error_line("invalid-input", fmt::format("line {}, column {}: {}", number, line_col(line, e.byte).second,
                                                       what.substr(what.find("invalid JSON"))));
    } catch (const json::out_of_range& e) {  // "number overflow parsing '1e400'"
        failed = true;
        const std::string what = e.what();
        const auto open = what.find('\''), close = what.rfind('\'');
        const std::string literal = open < close ? what.substr(open + 1, close - open - 1) : "a number";
        return error_line("invalid-input", fmt::format("line {}: number {} is beyond a float's range", number, literal));
    }
    if (const auto& key = repeated.first()) {
        failed = true;
        return error_line("invalid-input", fmt::format("line {}, column {}: duplicate key {}", number,
                                                       line_col(line, key->second + 1).second, str_repr(key->first)));
    }
    if (!doc.is_object() || !doc.contains("expr")) {
        failed = true;
        return error_line("invalid-input", fmt::format("line {}: expected a JSON object with \"expr\"", number));
    }
    for (const auto& [key, value] : doc.items())
        if (key != "expr" && key != "bindings") {
            failed = true;
            return error_line("invalid-input", fmt::format("line {}: unknown key {} (expected expr and bindings)",
                                                           number, str_repr(key)));
        }
    const json& source = doc["expr"];
    // A YAML number stood for itself in the reference's records; any other
    // non-string is not an expression.
    std::string text;
    if (source.is_string()) {
        text = source.get<std::string>();
    } else if (source.is_number()) {
        text = source.dump();
    } else {
        failed = true;
        return {{"refused", {{"message", fmt::format("expr must be an expression, got {}", source.dump())}}}};
    }
    Bindings bindings;
    try {
        if (doc.contains("bindings")) {
            if (!doc["bindings"].is_object()) throw std::invalid_argument("\"bindings\" must be an object");
            for (const auto& [name, value] : doc["bindings"].items()) {
                auto v = value_from_json(value);
                if (!v) throw std::invalid_argument(fmt::format("binding `{}` is not a number or a bool", name));
                bindings[name] = number_of(*v);
            }
        }
    } catch (const EvalError& e) {
        failed = true;
        return error_line(error_kind_name(e.kind()), fmt::format("line {}: {}", number, e.what()));
    } catch (const std::invalid_argument& e) {
        failed = true;
        return error_line("invalid-input", fmt::format("line {}: {}", number, e.what()));
    }
    std::optional<Expression> expr;
    try {
        expr = Expression::parse(text);
    } catch (const RecordsError& e) {
        failed = true;
        return {{"refused", {{"message", first_problem(e)}}}};
    }
    std::vector<std::string> reads;
    try {
        return result_json(expr->evaluate(lookup(bindings), &reads), reads);
    } catch (const PricingError& e) {
        failed = true;
        return error_line(e.kind_name().c_str(), e.reason());
    }
}

// One result per input line, each answered as it arrives, in constant
// memory; a blank or oversized line gets an error result, and every error
// result names its line.
int run_jsonl() {
    bool failed = false;
    bool write_failed = false;
    LineReader lines(STDIN_FILENO, kMaxDocumentBytes, [&] { write_failed = write_failed || std::fflush(stdout) != 0; });
    std::string line;
    std::size_t number = 0;
    for (;;) {
        const LineReader::Got got = lines.next(line);
        if (got == LineReader::Got::End) break;
        if (got == LineReader::Got::Error) {
            std::cerr << "oprec calc: cannot read standard input: " << std::strerror(lines.error()) << '\n';
            return kCannotRun;
        }
        ++number;
        ordered_json result;
        if (got == LineReader::Got::TooLong) {
            failed = true;
            result = error_line("invalid-input", fmt::format("line {}: longer than {} MiB", number, kMaxDocumentBytes >> 20));
        } else if (line.find_first_not_of(" \t\r") == std::string::npos) {
            failed = true;
            result = error_line("invalid-input", fmt::format("line {}: a blank line: each line is one JSON object", number));
        } else {
            result = calc_line(line, number, failed);
        }
        for (const char* key : {"error", "refused"})
            if (result.contains(key)) result[key]["line"] = number;
        std::string out = json_text(result);
        out += '\n';
        write_failed = write_failed || std::fwrite(out.data(), 1, out.size(), stdout) != out.size();
    }
    if (std::fflush(stdout) != 0 || write_failed || std::ferror(stdout)) {
        std::cerr << "oprec calc: cannot write the results: " << std::strerror(errno) << '\n';
        return kCannotRun;
    }
    return failed ? kProblems : kOk;
}

int run_one(const CalcArgs& args) {
    Bindings bindings;
    for (const std::string& set : args.sets) {
        const auto eq = set.find('=');
        const std::string name = set.substr(0, eq);
        const bool named = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                           std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_'; });
        if (eq != std::string::npos && !named) {
            std::cerr << fmt::format("oprec calc: --set {}: `{}` is not a name\n", set, name);
            return kCannotRun;
        }
        std::optional<Value> v;
        try {
            if (eq != std::string::npos) v = parse_value_text(set.substr(eq + 1));
        } catch (const EvalError& e) {
            std::cerr << fmt::format("oprec calc: --set {}: {}\n", set, e.what());
            return kCannotRun;
        }
        if (!v) {
            std::cerr << fmt::format("oprec calc: --set {}: expected NAME=NUMBER (an int, a float, true or false)\n", set);
            return kCannotRun;
        }
        bindings[set.substr(0, eq)] = number_of(*v);
    }
    std::optional<Expression> expr;
    try {
        expr = Expression::parse(args.expr, "<expr>");
    } catch (const RecordsError& e) {
        std::cerr << render_problems(e, isatty(2) != 0);
        return kProblems;
    }
    if (args.dump) {
        std::cout << debug::dump_code(*expr);
        return kOk;
    }
    try {
        const Number n = args.tier == "tree" ? debug::evaluate_tree(*expr, lookup(bindings))
                                             : expr->evaluate(lookup(bindings));
        std::cout << n.repr() << '\n';
        return kOk;
    } catch (const PricingError& e) {
        const Position& at = e.where();
        std::cerr << fmt::format("{}:{}:{}: error: {} [{}]\n", at.file, at.line, at.col, e.reason(), e.kind_name());
        return kProblems;
    }
}

}  // namespace

void add_calc_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<CalcArgs>();
    CLI::App* cmd = app.add_subcommand("calc", "Evaluate an expression of the records' language");
    cmd->add_option("expr", args->expr, "The expression, e.g. 'h * s / t'");
    cmd->add_option("--set", args->sets, "Bind a name: NAME=VALUE (repeatable)")->allow_extra_args(false);  // not the expression
    cmd->add_option("--tier", args->tier,
                    "Which run evaluates it, to compare them: auto (its straight-line code where it has one), tree, straight-line")
        ->check(CLI::IsMember({"auto", "tree", "straight-line"}));
    cmd->add_flag("--dump", args->dump, "Print the expression's straight-line code instead of its value");
    cmd->add_flag("--jsonl", args->jsonl,
                  "Read {\"expr\", \"bindings\"} objects, one per line, and write one result per line");
    cmd->callback([args, &exit_code, cmd] {
        if (args->jsonl && cmd->count("expr") + cmd->count("--set") + cmd->count("--dump") + cmd->count("--tier") > 0) {
            // Each line states its expression and bindings: these would be ignored.
            std::cerr << "oprec calc: --jsonl reads each expression and its bindings from a line: give no expression, "
                         "--set, --dump or --tier\n";
            exit_code = kCannotRun;
        } else if (args->jsonl) {
            exit_code = run_jsonl();
        } else if (cmd->count("expr") == 0) {
            std::cerr << "oprec calc: give an expression, or --jsonl\n";
            exit_code = kCannotRun;
        } else {
            exit_code = run_one(*args);
        }
    });
}

}  // namespace oprec::cli
