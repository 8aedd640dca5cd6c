// The REPL's scripted sessions: each tests/repl/NAME.repl is piped to
// `oprec repl --echo` (from the source folder) and what it prints, standard
// output and error together, must be tests/repl/NAME.out; its exit code the
// script's `#! exit: N`. `#! args: ...` gives the command's options.
//
// After a deliberate change of output, regenerate the .out files and review
// their diff: in the source folder, for each script f, run
//   build/oprec repl --echo $(sed -n 's/^#! args://p' f) < f > f.out 2>&1
// and take the source folder's path out of what it wrote.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = fs::path(OPREC_TEST_DATA).parent_path();

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string header(const std::string& script, const std::string& key) {
    std::istringstream in(script);
    for (std::string line; std::getline(in, line);) {
        const std::string prefix = "#! " + key + ":";
        if (line.rfind(prefix, 0) == 0) return line.substr(prefix.size());
    }
    return {};
}

struct Run {
    std::string output;
    int exit_code = -1;
};

Run run_script(const fs::path& script, const std::string& args) {
    const std::string command = "cd '" + kSource.string() + "' && '" + OPREC_BINARY + "' repl --echo" + args +
                                " < '" + script.string() + "' 2>&1";
    Run run;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[4096];
    for (std::size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    // Paths as the source folder names them, wherever it is.
    const std::string root = kSource.string() + "/";
    for (std::size_t at; (at = run.output.find(root)) != std::string::npos;) run.output.erase(at, root.size());
    return run;
}

std::vector<fs::path> scripts() {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(kSource / "tests" / "repl"))
        if (entry.path().extension() == ".repl") out.push_back(entry.path());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST_CASE("repl: every scripted session prints what it should", "[repl][cli]") {
    const std::vector<fs::path> all = scripts();
    REQUIRE(all.size() >= 6);
    for (const fs::path& script : all) {
        DYNAMIC_SECTION(script.filename().string()) {
            const std::string text = read_text(script);
            const fs::path expected_path = fs::path(script).replace_extension(".out");
            REQUIRE(fs::exists(expected_path));
            const Run run = run_script(script, header(text, "args"));
            // Keep what it printed, to diff by hand when it differs.
            const fs::path actual_path = fs::temp_directory_path() / ("oprec-repl-" + script.stem().string() + ".actual");
            std::ofstream(actual_path, std::ios::binary) << run.output;
            INFO("expected: " << expected_path.string() << "\nactual:   " << actual_path.string());
            CHECK(run.output == read_text(expected_path));
            CHECK(run.exit_code == std::stoi(header(text, "exit")));
        }
    }
}

TEST_CASE("repl: the scripted sessions use every command", "[repl][cli]") {
    std::string all;
    for (const fs::path& script : scripts()) all += read_text(script);
    for (const char* command : {"\nset ", "\nunset ", "\nswitch ", "\nnode ", "\ncontext ", "\nshow\n", "\nload ",
                                "\nlayer\n", "\nops\n", "\nparams\n", "\nexplain ", "\ndiff ", "\nhelp\n",
                                "\nhelp ", "\n:reload\n", "\n:quit\n", "\nqkv\n", "\nqkv only ", "\ns * b"}) {
        INFO(command);
        CHECK(all.find(command) != std::string::npos);
    }
}
