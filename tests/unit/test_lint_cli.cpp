// `oprec lint` as a command: its forms (text, JSON, SARIF validated against
// the SARIF 2.1.0 schema), its exit codes and its options.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "test_lint_support.h"

using namespace oprec;
using namespace oprec::lint_test;
namespace fs = std::filesystem;

namespace {

struct Run {
    int status = -1;
    std::string out;
};

// Runs a shell command, standard output captured, standard error dropped.
Run run(const std::string& command) {
    Run r;
    FILE* pipe = ::popen((command + " 2>/dev/null").c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.out.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::string lint_cmd(const std::string& args) { return std::string(OPREC_BINARY) + " lint " + args; }

const std::string kData = std::string(OPREC_TEST_DATA) + "/lint";

struct TempFile {
    fs::path path;
    explicit TempFile(const std::string& name, const std::string& text)
        : path(fs::temp_directory_path() / (std::to_string(::getpid()) + "-" + name)) {
        std::ofstream(path, std::ios::binary) << text;
    }
    ~TempFile() {
        std::error_code ec;
        fs::remove(path, ec);
    }
};

std::string read(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

}  // namespace

TEST_CASE("oprec lint: the text form, as the README shows it", "[lint][cli]") {
    const Run r = run("cd " + kData + " && " + lint_cmd("mistakes.rec"));
    CHECK(r.status == 1);
    CHECK(r.out.find('\x1b') == std::string::npos);  // no colour off a terminal
    CHECK(replace_all(r.out, OPREC_SOURCE_DIR, "<oprec>") == read(kData + "/mistakes.txt"));
}

TEST_CASE("oprec lint: exit codes", "[lint][cli]") {
    TempFile clean("clean.rec", kClean);
    CHECK(run(lint_cmd(clean.path.string())).status == 0);
    CHECK(run(lint_cmd(clean.path.string())).out.empty());
    CHECK(run(lint_cmd(kData + "/mistakes.rec")).status == 1);
    CHECK(run(lint_cmd(clean.path.string() + " " + kData + "/mistakes.rec")).status == 1);
    // Could not run: an unreadable file, a bad option or code.
    CHECK(run(lint_cmd(clean.path.string() + " /nonexistent/records.rec")).status == 2);
    CHECK(run(lint_cmd("")).status == 2);
    CHECK(run(lint_cmd("--format xml " + clean.path.string())).status == 2);
    CHECK(run(lint_cmd("--allow W9999 " + clean.path.string())).status == 2);
    CHECK(run(lint_cmd("--allow E0101 " + clean.path.string())).status == 2);
}

TEST_CASE("oprec lint: --allow and --warn", "[lint][cli]") {
    const std::string file = kData + "/mistakes.rec";
    const Run all = run(lint_cmd("--format json " + file));
    const auto count = [](const Run& r, const std::string& code) {
        const auto j = nlohmann::json::parse(r.out);
        return std::count_if(j.begin(), j.end(), [&](const nlohmann::json& d) { return d["code"] == code; });
    };
    REQUIRE(count(all, "W0101") == 1);
    REQUIRE(count(all, "W0109") == 1);
    const Run no_names = run(lint_cmd("--format json --allow W0101 " + file));
    CHECK(count(no_names, "W0101") == 0);
    CHECK(count(no_names, "W0109") == 1);
    const Run only_names = run(lint_cmd("--format json --allow all --warn W0101 " + file));
    CHECK(count(only_names, "W0101") == 1);
    CHECK(count(only_names, "W0109") == 0);
    CHECK(count(only_names, "E0108") == 1);  // errors are never turned off
    // Nothing left to report: clean.
    TempFile warn_only("warn-only.rec", edit(kClean, "ffMM = hff\n", "ffMM = hff_ex\n"));
    CHECK(run(lint_cmd("--allow W0101 " + warn_only.path.string())).status == 0);
}

TEST_CASE("oprec lint --format json: one object per diagnostic", "[lint][cli]") {
    const Run r = run("cd " + kData + " && " + lint_cmd("--format json mistakes.rec"));
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(r.out);
    REQUIRE(j.is_array());
    REQUIRE_FALSE(j.empty());
    for (const auto& d : j) {
        for (const char* key : {"code", "severity", "message", "file", "line", "column", "end_line", "end_column",
                                "notes", "fixes"})
            CHECK(d.contains(key));
    }
    const auto unknown = std::find_if(j.begin(), j.end(), [](const auto& d) { return d["code"] == "W0101"; });
    REQUIRE(unknown != j.end());
    CHECK((*unknown)["severity"] == "warning");
    CHECK((*unknown)["message"] == "unknown name `hff_ex`: no field, context value or default provides it");
    CHECK((*unknown)["file"] == "mistakes.rec");
    CHECK((*unknown)["line"] == 36);
    CHECK((*unknown)["column"] == 29);
    CHECK((*unknown)["end_line"] == 36);
    CHECK((*unknown)["end_column"] == 35);
    REQUIRE((*unknown)["fixes"].size() == 1);
    CHECK((*unknown)["fixes"][0]["replacement"] == "hff_exp");
    CHECK((*unknown)["fixes"][0]["column"] == 29);
}

TEST_CASE("oprec lint --format sarif: valid SARIF 2.1.0", "[lint][cli]") {
    TempFile out("lint.sarif", "");
    TempFile clean("clean.rec", kClean);
    const Run r = run("cd " + kData + " && " + lint_cmd("--format sarif mistakes.rec " + clean.path.string() +
                                                        " > " + out.path.string()));
    CHECK(r.status == 1);
    const auto j = nlohmann::json::parse(read(out.path.string()));
    CHECK(j["version"] == "2.1.0");
    const auto& results = j["runs"][0]["results"];
    REQUIRE_FALSE(results.empty());
    const auto fixable = std::find_if(results.begin(), results.end(), [](const auto& x) { return x["ruleId"] == "W0101"; });
    REQUIRE(fixable != results.end());
    CHECK((*fixable)["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "mistakes.rec");
    CHECK((*fixable)["locations"][0]["physicalLocation"]["region"]["startLine"] == 36);
    CHECK((*fixable)["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"] == "hff_exp");

    // The schema's verdict, by python3-jsonschema (scripts/install-deps installs it).
    const std::string validate =
        "python3 -c 'import json, sys, jsonschema; "
        "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' " +
        out.path.string() + " " + kData + "/sarif-2.1.0-rtm.5.json";
    CHECK(std::system((validate + " >/dev/null 2>&1").c_str()) == 0);
    // And it does reject: a result without a message is not SARIF.
    auto broken = j;
    broken["runs"][0]["results"][0].erase("message");
    TempFile bad("bad.sarif", broken.dump());
    const std::string reject = replace_all(validate, out.path.string(), bad.path.string());
    CHECK(std::system((reject + " >/dev/null 2>&1").c_str()) != 0);
}

TEST_CASE("oprec lint --format sarif: a file that cannot be read", "[lint][cli]") {
    const Run r = run(lint_cmd("--format sarif /nonexistent/records.rec"));
    CHECK(r.status == 2);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["runs"][0]["invocations"][0]["executionSuccessful"] == false);
    CHECK(j["runs"][0]["results"][0]["ruleId"] == "E0122");
}

TEST_CASE("lint cli: the shipped records lint clean", "[lint][cli]") {
    // Their known oddities (linrec in no slot, the divisions by n_exp) are
    // suppressed in the file, each with its reason.
    const Run r = run(lint_cmd(std::string(OPREC_TEST_DATA) + "/../records/op_records.rec"));
    CHECK(r.out == "");
    CHECK(r.status == 0);
}

TEST_CASE("lint cli: each module of the standard library lints clean on its own", "[lint][cli]") {
    // A file that declares no op, part, slot or profile is a library module:
    // no vocabulary, op records or field schema of its own to have, and its
    // fns and defaults are there for its importers.
    for (const char* module : {"vocabulary.rec", "fields.rec", "ffn.rec", "profiles.rec"}) {
        INFO(module);
        const Run r = run(lint_cmd(std::string(OPREC_TEST_DATA) + "/../stdlib/" + module));
        CHECK(r.out == "");
        CHECK(r.status == 0);
    }
}
