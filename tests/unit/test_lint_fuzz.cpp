// Every input the fuzz target ever crashed or hung on (fuzz/regressions/),
// and its hand-written seeds, through the whole front end again.
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "exercise.h"

namespace fs = std::filesystem;

TEST_CASE("lint fuzz regressions: each saved input runs clean", "[lint][fuzz]") {
    int replayed = 0;
    for (const char* folder : {"fuzz/regressions", "fuzz/seeds"}) {
        for (const auto& entry : fs::directory_iterator(fs::path(OPREC_SOURCE_DIR) / folder)) {
            if (!entry.is_regular_file() || entry.path().filename() == "README.md") continue;
            std::ifstream in(entry.path(), std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            INFO(entry.path().string());
            CHECK_NOTHROW(oprec::lint::exercise_front_end(text.str()));
            ++replayed;
        }
    }
    CHECK(replayed >= 5);
}
