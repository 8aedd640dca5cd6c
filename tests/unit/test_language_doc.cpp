// docs/language.md stays true: its example records file loads and prices as
// the text says, and every `$ oprec calc ...` session in it prints what the
// text shows.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "check/loader.h"
#include "model/evaluator.h"
#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec;

namespace {

const std::string& doc() {
    static const std::string text = testing::read_text(OPREC_TEST_DATA "/../docs/language.md");
    return text;
}

// The code blocks of the document, in order (their fences unindented).
std::vector<std::string> code_blocks() {
    std::vector<std::string> blocks;
    std::istringstream in(doc());
    std::string line, block;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            if (inside) blocks.push_back(block);
            inside = !inside;
            block.clear();
        } else if (inside) {
            block += line + "\n";
        }
    }
    return blocks;
}

}  // namespace

TEST_CASE("language.md: the example records file prices as the text says", "[doc]") {
    const auto blocks = code_blocks();
    REQUIRE(blocks.size() > 2);
    const std::string& records = blocks[0];
    REQUIRE(records.rfind("# mini.rec", 0) == 0);
    // The session after it: `$ cat mini.json`, the document, then `$ oprec eval ...`.
    const std::string& session = blocks[1];
    const auto start = session.find("{\n");
    const auto end = session.find("\n}\n");
    REQUIRE(start != std::string::npos);
    REQUIRE(end != std::string::npos);
    const std::string layer_text = session.substr(start, end + 3 - start);

    const LoadResult r = load_text(records, "mini.rec", {{OPREC_TEST_DATA "/../stdlib"}});
    REQUIRE(r.diagnostics.empty());
    const RecordsEvaluator evaluator(*r.program);
    const LayerDoc layer = parse_layer_doc_text(layer_text, "mini.json");
    CHECK(evaluator.slot_bytes(layer, "score").as_double() == 4194304.0);
    CHECK(evaluator.slot_bytes(layer, "ffn").as_double() == 34471936.0);
    CHECK(session.find("score                     4,194,304") != std::string::npos);
    CHECK(session.find("ffn                      34,471,936") != std::string::npos);
    CHECK(session.find("layer                               38,666,240") != std::string::npos);
}

TEST_CASE("language.md: every oprec calc session prints what the text shows", "[doc]") {
    int sessions = 0;
    for (const std::string& block : code_blocks()) {
        std::istringstream in(block);
        std::vector<std::string> lines;
        for (std::string line; std::getline(in, line);) lines.push_back(line);
        for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
            const std::string prefix = "$ oprec calc ";
            if (lines[i].rfind(prefix, 0) != 0 || lines[i + 1].rfind("$ ", 0) == 0) continue;
            // The command as the shell reads it, with this build's binary.
            testing::TempDir dir;
            const std::string command = testing::shell_quote(OPREC_BINARY) + " calc " +
                                        lines[i].substr(prefix.size()) + " > " +
                                        testing::shell_quote((dir / "out").string()) + " 2>&1";
            INFO(lines[i]);
            REQUIRE(std::system(command.c_str()) != -1);
            CHECK(testing::read_text(dir / "out") == lines[i + 1] + "\n");
            ++sessions;
        }
    }
    CHECK(sessions >= 3);
}
