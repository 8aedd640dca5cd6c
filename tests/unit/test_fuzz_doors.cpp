// Every input a front door's fuzz target crashed or hung on
// (fuzz/regressions/<door>/) and its seeds (fuzz/seeds/<door>/, examples/),
// through the door again: each runs clean.
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <catch2/catch.hpp>

#include "exercise_doors.h"

namespace fs = std::filesystem;

namespace {

int replay(const std::vector<fs::path>& folders, const std::function<void(std::string_view)>& door) {
    int replayed = 0;
    for (const fs::path& folder : folders) {
        if (!fs::is_directory(folder)) continue;
        for (const auto& entry : fs::directory_iterator(folder)) {
            const std::string name = entry.path().filename().string();
            if (!entry.is_regular_file() || name == "README.md" || name == ".keep") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            INFO(entry.path().string());
            CHECK_NOTHROW(door(text.str()));
            ++replayed;
        }
    }
    return replayed;
}

const fs::path kSource = OPREC_SOURCE_DIR;

}  // namespace

TEST_CASE("fuzz regressions: the YAML records reader", "[fuzz][yaml]") {
    CHECK(replay({kSource / "fuzz/regressions/yaml_records", kSource / "fuzz/seeds/yaml_records"}, oprec::fuzz::exercise_yaml_records) >= 1);
}

TEST_CASE("fuzz regressions: the layer document reader", "[fuzz]") {
    CHECK(replay({kSource / "fuzz/regressions/layer_document", kSource / "examples"}, oprec::fuzz::exercise_layer_document) >= 5);
}

TEST_CASE("fuzz regressions: the Hugging Face config reader", "[fuzz][hf]") {
    CHECK(replay({kSource / "fuzz/regressions/hf_config", kSource / "examples/hf"}, oprec::fuzz::exercise_hf_config) >= 5);
}

TEST_CASE("fuzz regressions: the language server's messages", "[fuzz][lsp]") {
    CHECK(replay({kSource / "fuzz/regressions/lsp_messages", kSource / "fuzz/seeds/lsp_messages"}, oprec::fuzz::exercise_lsp_messages) >= 6);
}
