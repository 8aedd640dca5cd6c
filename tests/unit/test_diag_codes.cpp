// The catalogue of diagnostic codes (src/diag/codes.h) and its document
// (docs/diagnostics.md) name exactly the same codes, each with the same name
// under a heading `### CODE name`, so every doc_anchor leads somewhere.
#include <catch2/catch.hpp>

#include <regex>
#include <set>
#include <sstream>

#include "diag/codes.h"
#include "support/temp_dir.h"

TEST_CASE("docs/diagnostics.md documents exactly the codes that exist", "[diag]") {
    const std::string doc = oprec::testing::read_text(OPREC_SOURCE_DIR "/docs/diagnostics.md");
    std::set<std::string> documented;
    const std::regex heading(R"(^### ([EW]\d{4}) ([a-z0-9-]+)\s*$)");
    std::istringstream lines(doc);
    std::smatch m;
    for (std::string line; std::getline(lines, line);)
        if (std::regex_match(line, m, heading)) documented.insert(m[1].str() + " " + m[2].str());
    std::set<std::string> catalogued;
    for (const oprec::CodeInfo& c : oprec::all_codes()) {
        catalogued.insert(std::string(c.code) + " " + std::string(c.name));
        CHECK(oprec::find_code(c.code) == &c);
        CHECK(oprec::doc_anchor(c).rfind("docs/diagnostics.md#", 0) == 0);
    }
    CHECK(catalogued.size() == oprec::all_codes().size());  // no code twice
    CHECK(documented == catalogued);
}
