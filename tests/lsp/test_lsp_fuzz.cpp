// Random edit sequences through the server: whatever the text becomes
// mid-edit, every request is answered (a result, or an error that is not
// the server's own failure) and diagnostics come for every change.
// Deterministic (a fixed seed) and bounded: a few thousand edits.
#include <chrono>
#include <random>

#include <catch2/catch.hpp>

#include "lsp_support.h"

using namespace oprec::testing;
using oprec::lsp::json;

namespace {

const char* const kSnippets[] = {"(", ")", "{", "}", "\n", " ", "#", "# rec: allow W0101", "# rec: layer x.json", "=", "*",
                                 "/", "0", "1.5e3", "h", "bytes", "total", "slot", "op", "part", "fn", "default", "field",
                                 "import \"fields.rec\"", "import \"nope.rec\"", "if", "else", "and", "not", "when", "needs",
                                 "switch", ",", ":", "\"", "é", "𝜆", "\t", "\r\n", "slot s in attention {\n    bytes = total\n}\n",
                                 "max(", "ffn_elements(", "switches", "opvector", "layerparts", "99999999999999999999999", "**"};

}  // namespace

TEST_CASE("lsp fuzz: random edits never crash, hang or fail the server", "[lsp][fuzz]") {
    Session s;
    s.initialize();
    const std::string uri = records_uri();
    s.open(uri, records_with_layer());
    std::mt19937 rng(19);
    auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
    auto pos = [&](int lines) { return json{{"line", pick(lines + 3)}, {"character", pick(90)}}; };
    const char* const requests[] = {"textDocument/hover", "textDocument/definition", "textDocument/references",
                                    "textDocument/completion", "textDocument/prepareRename", "textDocument/rename",
                                    "textDocument/documentSymbol", "textDocument/semanticTokens/full", "textDocument/formatting",
                                    "textDocument/codeAction", "textDocument/inlayHint", "textDocument/codeLens"};
    constexpr int kRounds = 1500;
    int lines = 130, version = 1, answered = 0, diagnostics = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int round = 0; round < kRounds; ++round) {
        std::vector<json> batch;
        const int edits = 1 + pick(4);
        for (int e = 0; e < edits; ++e) {
            std::string text;
            if (pick(3) != 0)  // else a deletion
                for (int k = pick(3); k >= 0; --k) text += kSnippets[pick(static_cast<int>(std::size(kSnippets)))];
            json change = {{"text", text}};
            // Now and then the clean records again, so that most edits are a
            // few keystrokes from text that loads (and is priced live).
            if (round % 20 == 0 && e == 0) {
                change["text"] = records_with_layer();
                lines = 130;
            } else {
                const json start = pos(lines);
                json end = start;
                end["character"] = start["character"].get<int>() + pick(6);
                if (pick(10) == 0) end = pos(lines);  // any range, even a reversed one
                change["range"] = {{"start", start}, {"end", end}};
            }
            lines += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
            batch.push_back({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
                             {"params", {{"textDocument", {{"uri", uri}, {"version", ++version}}}, {"contentChanges", json::array({change})}}}});
        }
        const std::string method = requests[pick(static_cast<int>(std::size(requests)))];
        const json range = {{"start", pos(lines)}, {"end", pos(lines)}};
        batch.push_back({{"jsonrpc", "2.0"}, {"id", round}, {"method", method},
                         {"params", {{"textDocument", {{"uri", uri}}}, {"position", pos(lines)}, {"range", range}, {"newName", "renamed"},
                                     {"context", {{"includeDeclaration", true}, {"diagnostics", json::array()}}}, {"options", json::object()}}}});
        for (const json& m : s.server().handle_batch(batch)) {
            if (m.value("method", "") == "textDocument/publishDiagnostics") ++diagnostics;
            if (!m.contains("id")) continue;
            INFO(method << " " << m.dump());
            const bool ok = m.contains("result") || (m.contains("error") && m["error"]["code"] != -32603);
            CHECK(ok);
            ++answered;
        }
    }
    // Malformed notifications and requests: logged or refused, never fatal.
    for (const json& bad : {json{{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"}, {"params", {{"textDocument", {{"uri", uri}, {"version", "x"}}}, {"contentChanges", json::array({{{"range", 3}, {"text", 1}}})}}}},
                            json{{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"}, {"params", {{"textDocument", {{"uri", 5}}}}}},
                            json{{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"}, {"params", nullptr}},
                            json{{"jsonrpc", "2.0"}, {"id", "s"}, {"method", "textDocument/hover"}, {"params", {{"textDocument", {{"uri", uri}}}, {"position", {{"line", -5}, {"character", "x"}}}}}},
                            json(42), json::array(), json{{"id", 7}}}) {
        for (const json& m : s.server().handle(bad)) {
            INFO(bad.dump() << " -> " << m.dump());
            CHECK((!m.contains("error") || m["error"]["code"] != -32603));
        }
    }
    // A very long line (a paste): completion, hover and the rest on it.
    const std::string long_line(200000, 'x');
    s.change(uri, ++version, {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", 0}}}}, "# rec: layer " + long_line + "\n" + long_line + " = (");
    for (const char* method : requests) {
        const json r = s.call(method, {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 1}, {"character", 199999}}},
                                       {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 9}, {"character", 0}}}}},
                                       {"newName", std::string(100000, 'y')}, {"context", {{"includeDeclaration", true}}}, {"options", json::object()}});
        INFO(method << " " << r.dump().substr(0, 300));
        CHECK((r.contains("result") || r["error"]["code"] != -32603));
    }
    CHECK(answered == kRounds);
    CHECK(diagnostics == kRounds);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    WARN("about 3,700 edits and " << kRounds << " requests in " << seconds << " s");
}
