// Shared by the REPL's tests: a session over the shipped records (or a copy),
// its output captured, and the example layers.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>
#include <algorithm>

#include "oprec/oprec.h"
#include "repl/session.h"

namespace oprec::testing {

inline std::filesystem::path source_dir() { return std::filesystem::path(OPREC_TEST_DATA).parent_path(); }

inline std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

inline void write_text(const std::filesystem::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

// An example layer bound to the session's records.
inline Layer example_layer(const repl::Session& s, const std::string& name) {
    return s.records().layer_file(source_dir() / "examples" / name);
}

// What a session printed, to standard output and to standard error.
struct Captured {
    std::ostringstream out, err;
    repl::Output output{out, err, false};
    std::string take_out() {
        std::string s = out.str();
        out.str({});
        return s;
    }
    std::string take_err() {
        std::string s = err.str();
        err.str({});
        return s;
    }
};

inline repl::SessionOptions shipped_session(std::filesystem::path records = source_dir() / "records" / "op_records.rec") {
    RecordsOptions options;
    options.data_dir = source_dir();
    return {std::move(records), options};
}

// The cells of the first row of a table whose first cells are `first`
// (cells stand two or more spaces apart); empty when there is none.
inline std::vector<std::string> table_row(const std::string& text, const std::vector<std::string>& first) {
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> cells;
        std::size_t i = line.find_first_not_of(' ');
        while (i != std::string::npos && i < line.size()) {
            std::size_t end = line.find("  ", i);
            if (end == std::string::npos) end = line.size();
            cells.push_back(line.substr(i, end - i));
            i = line.find_first_not_of(' ', end);
        }
        if (cells.size() >= first.size() && std::equal(first.begin(), first.end(), cells.begin())) return cells;
    }
    return {};
}

// A folder of its own, removed with everything in it.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        std::string pattern = (std::filesystem::temp_directory_path() / "oprec-repl-XXXXXX").string();
        path = mkdtemp(pattern.data());
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

}  // namespace oprec::testing
