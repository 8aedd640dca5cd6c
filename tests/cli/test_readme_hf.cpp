// The README's `oprec eval --hf` and `oprec sweep` examples are what the
// commands print: each `$ build/oprec ...` block of its Hugging Face section
// is run from the source folder and compared line by line (trailing spaces
// and the sweep's measured seconds aside).
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "support/process.h"

using namespace oprec::testing;

namespace {

std::string read_readme() {
    std::ifstream in(std::string(OPREC_SOURCE_DIR) + "/README.md", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The lines of `text`, trailing spaces removed, a run's seconds replaced.
std::vector<std::string> normalised(const std::string& text) {
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

// The output the README shows under `$ build/oprec ARGS` (up to the fence).
std::string shown_output(const std::string& readme, const std::string& args) {
    const std::string prompt = "$ build/oprec " + args + "\n";
    const auto at = readme.find(prompt);
    REQUIRE(at != std::string::npos);
    const auto start = at + prompt.size();
    const auto end = readme.find("```", start);
    REQUIRE(end != std::string::npos);
    return readme.substr(start, end - start);
}

std::vector<std::string> words(const std::string& args) {
    std::vector<std::string> out;
    std::istringstream in(args);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

}  // namespace

TEST_CASE("the README's --hf and sweep examples print what it shows", "[cli][hf][readme]") {
    const std::string readme = read_readme();
    for (const std::string args : {"eval --hf examples/hf/deepseek-v3.json --tp 4 --cp 2 --seq 4096 --recompute none",
                                   "sweep examples/hf/deepseek-v3.json --tp 4,8 --cp 1,2 --seq 4096 --budget 12GiB"}) {
        INFO(args);
        const std::string shown = shown_output(readme, args);
        CHECK(shown.find("...") == std::string::npos);  // the whole output, not an excerpt
        const RunResult r = run_oprec(words(args), "", "cd " + shell_quote(OPREC_SOURCE_DIR) + " &&");
        CHECK(r.exit_code == 0);
        CHECK(normalised(r.out) == normalised(shown));
    }
}
