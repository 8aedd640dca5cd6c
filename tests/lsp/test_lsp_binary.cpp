// The real `oprec lsp` binary, fed a whole session on stdin as an editor
// would send it: framed JSON-RPC in, framed JSON-RPC out, exit code 0.
#include <sstream>

#include <catch2/catch.hpp>

#include "lsp/transport.h"
#include "lsp_support.h"
#include "support/process.h"

using namespace oprec::testing;
using oprec::lsp::json;

TEST_CASE("lsp binary: a session over stdio", "[lsp][cli]") {
    const std::string uri = records_uri();
    std::string text = records_with_layer();
    const std::string misspelt = "bytes_compute * hff_exp";
    text.replace(text.find(misspelt), misspelt.size(), "bytes_compute * hff_ex");
    std::string input;
    auto send = [&](const json& m) {
        const std::string body = m.dump();
        input += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    };
    send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"processId", nullptr}, {"capabilities", json::object()}}}});
    send({{"jsonrpc", "2.0"}, {"method", "initialized"}, {"params", json::object()}});
    send({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
          {"params", {{"textDocument", {{"uri", uri}, {"languageId", "rec"}, {"version", 1}, {"text", text}}}}}});
    send({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/hover"},
          {"params", {{"textDocument", {{"uri", uri}}}, {"position", position_of(text, "hff_ex", 0, 1)}}}});
    send({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "shutdown"}});
    send({{"jsonrpc", "2.0"}, {"method", "exit"}});

    const RunResult r = run_oprec({"lsp", "--stdio"}, input);
    INFO(r.err);
    CHECK(r.exit_code == 0);
    std::stringstream out(r.out);
    std::vector<json> messages;
    while (auto body = oprec::lsp::read_message(out)) messages.push_back(json::parse(*body));
    // How the reader batched the input decides the order: find each by id.
    REQUIRE(messages.size() == 4);
    auto find = [&](const json& id, const std::string& method) {
        for (const json& m : messages)
            if ((!id.is_null() && m.value("id", json()) == id && !m.contains("method")) || (!method.empty() && m.value("method", "") == method)) return m;
        FAIL("no reply " << id << " " << method);
        return json();
    };
    CHECK(find(1, "")["result"]["capabilities"]["hoverProvider"] == true);
    const json diags = find(nullptr, "textDocument/publishDiagnostics")["params"]["diagnostics"];
    REQUIRE(diags.size() == 1);
    CHECK(diags[0]["code"] == "W0101");
    CHECK(diags[0]["range"]["start"] == position_of(text, "hff_ex", 0, 1));
    CHECK(find(2, "")["result"]["contents"]["value"].get<std::string>().find("not in the field schema") != std::string::npos);
    CHECK(find(3, "")["result"].is_null());
}
