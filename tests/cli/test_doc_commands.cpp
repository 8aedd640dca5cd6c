// The README's and docs/'s commands are tested as they are written: every
// `$ build/oprec ...` line of a ```sh block in README.md or docs/*.md is run
// by /bin/sh from the source folder (build/oprec standing for the binary
// under test, standard error with standard output, as a terminal shows
// them), and what it prints is compared line by line with the lines shown
// under it, up to the next `$ ` line or the fence. A shown line that is `...`
// (indented or not) stands for any number of lines left out. Trailing spaces
// and a sweep's measured seconds aside, the rest must be exact. A command
// with no output shown must exit 0.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec::testing;

namespace {

struct Example {
    std::string file;     // README.md, docs/hf.md
    int line = 0;         // of the `$ ` line
    std::string command;  // after `$ `
    std::vector<std::string> shown;
};

// The lines of `text`, trailing spaces removed, a run's seconds replaced.
std::vector<std::string> normalised_lines(const std::string& text) {
    static const std::regex seconds(R"(priced in [0-9]+\.[0-9]+ s)");
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        line.erase(line.find_last_not_of(' ') + 1);
        out.push_back(std::regex_replace(line, seconds, "priced in S s"));
    }
    while (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}

std::vector<Example> examples_in(const std::string& name) {
    const std::vector<std::string> lines = normalised_lines(read_text(std::string(OPREC_SOURCE_DIR) + "/" + name));
    std::vector<Example> out;
    bool in_sh = false;
    Example* current = nullptr;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.rfind("```", 0) == 0) {
            in_sh = !in_sh && line == "```sh";
            current = nullptr;
        } else if (in_sh && line.rfind("$ ", 0) == 0) {
            current = nullptr;
            if (line.find("build/oprec") == std::string::npos) continue;
            out.push_back({name, static_cast<int>(i + 1), line.substr(2), {}});
            current = &out.back();
        } else if (current != nullptr) {
            current->shown.push_back(line);
        }
    }
    for (Example& e : out)
        while (!e.shown.empty() && e.shown.back().empty()) e.shown.pop_back();
    return out;
}

bool is_gap(const std::string& line) { return line.find_first_not_of(' ') == line.size() - 3 && line.ends_with("..."); }

// Whether `actual` is `shown` with each `...` line standing for any lines.
bool matches(const std::vector<std::string>& shown, std::size_t s, const std::vector<std::string>& actual,
             std::size_t a) {
    if (s == shown.size()) return a == actual.size();
    if (is_gap(shown[s])) {
        for (std::size_t k = a; k <= actual.size(); ++k)
            if (matches(shown, s + 1, actual, k)) return true;
        return false;
    }
    return a < actual.size() && shown[s] == actual[a] && matches(shown, s + 1, actual, a + 1);
}

std::string with_binary(std::string command) {
    const std::string word = "build/oprec";
    for (auto at = command.find(word); at != std::string::npos; at = command.find(word, at)) {
        const std::string binary = shell_quote(OPREC_BINARY);
        command.replace(at, word.size(), binary);
        at += binary.size();
    }
    return command;
}

}  // namespace

TEST_CASE("the build/oprec commands in README.md and docs/ print what they show", "[cli][readme]") {
    std::vector<Example> all = examples_in("README.md");
    CHECK(all.size() >= 3);  // eval, --hf, lint at least
    for (const auto& entry : std::filesystem::directory_iterator(std::string(OPREC_SOURCE_DIR) + "/docs"))
        if (entry.path().extension() == ".md")
            for (Example& e : examples_in("docs/" + entry.path().filename().string())) all.push_back(std::move(e));

    for (const Example& e : all) {
        INFO(e.file << ":" << e.line << ": $ " << e.command);
        TempDir dir;
        const auto out = dir / "out";
        const int status = std::system(("cd " + shell_quote(OPREC_SOURCE_DIR) + " && ( " + with_binary(e.command) +
                                        " ) > " + shell_quote(out.string()) + " 2>&1")
                                           .c_str());
        const std::vector<std::string> actual = normalised_lines(read_text(out));
        if (e.shown.empty()) {
            CHECK(status == 0);
        } else {
            INFO("printed:\n" << read_text(out));
            CHECK(matches(e.shown, 0, actual, 0));
        }
    }
}
