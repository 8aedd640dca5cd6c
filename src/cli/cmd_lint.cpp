// oprec lint: every problem of records files in one run, as text, JSON or SARIF.
#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/load_options.h"
#include "cli/paths.h"
#include "diag/suggest.h"
#include "diag/codes.h"
#include "lint/lint.h"
#include "lint/output.h"

namespace oprec::cli {

namespace {

struct LintArgs {
    std::vector<std::string> files;
    std::string format = "text";
    std::vector<std::string> warn;
    std::vector<std::string> allow;
};

// The warning codes an option names (`all`: every one); an error says what is wrong.
std::vector<std::string> warning_codes(const std::string& option, const std::string& text) {
    std::vector<std::string> codes;
    if (text == "all") {
        for (const CodeInfo& c : all_codes())
            if (c.severity == Severity::Warning) codes.emplace_back(c.code);
        return codes;
    }
    const CodeInfo* info = find_code(text);
    if (info == nullptr) {
        std::vector<std::string> known{"all"};
        for (const CodeInfo& c : all_codes()) known.emplace_back(c.code);
        std::string hint;
        if (auto near = closest_name(text, known)) hint = fmt::format(" (did you mean `{}`?)", *near);
        throw std::invalid_argument(fmt::format("{} {}: no such code{}", option, text, hint));
    }
    if (info->severity == Severity::Error)
        throw std::invalid_argument(fmt::format("{} {}: {} is an error, and errors cannot be turned off", option,
                                                text, text));
    codes.push_back(text);
    return codes;
}

int run(const LintArgs& args) {
    lint::Options options;
    options.load = load_options();
    try {
        // --warn wins over --allow: `--allow all --warn W0101` reports W0101 alone.
        for (const std::string& a : args.allow)
            for (std::string& c : warning_codes("--allow", a)) options.disabled.insert(std::move(c));
        for (const std::string& w : args.warn)
            for (const std::string& c : warning_codes("--warn", w)) options.disabled.erase(c);
    } catch (const std::invalid_argument& e) {
        std::cerr << "oprec lint: " << e.what() << '\n';
        return kCannotRun;
    }
    std::vector<lint::Report> reports;
    for (const std::string& file : args.files) reports.push_back(lint::lint_file(file, options));

    if (args.format == "json") {
        std::cout << lint::json_output(reports).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else if (args.format == "sarif") {
        std::cout << lint::sarif_output(reports).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    } else {
        const bool color = isatty(1) != 0 && std::getenv("NO_COLOR") == nullptr;
        std::cout << lint::text_output(reports, color);
    }
    bool problems = false;
    for (const lint::Report& r : reports) {
        if (r.could_not_run) return kCannotRun;
        problems = problems || !r.diagnostics.empty();
    }
    return problems ? kProblems : kOk;
}

}  // namespace

void add_lint_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<LintArgs>();
    CLI::App* cmd = app.add_subcommand(
        "lint", "Check records files: every error the loader finds and the linter's warnings, in one run");
    cmd->add_option("files", args->files, "The records files")->required();
    cmd->add_option("--format", args->format, "text, json or sarif")->check(CLI::IsMember({"text", "json", "sarif"}));
    // One code per option (or a comma list), so `--allow W0101 file.rec` leaves the file a file.
    cmd->add_option("--warn", args->warn, "Report this warning code (or `all`), though --allow turned it off")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd->add_option("--allow", args->allow, "Do not report this warning code (or `all`)")
        ->allow_extra_args(false)
        ->delimiter(',');
    cmd->footer("Exit status: 0 clean, 1 problems found, 2 could not run. Codes: docs/diagnostics.md.");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
