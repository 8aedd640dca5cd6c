// The language server against malformed and hostile input (issue 25): every
// bad message answered with the JSON-RPC error it deserves in our words,
// records whose evaluation explodes not priced live, files that would block
// refused, cancellation and the end of the session honoured.
#include <sys/stat.h>

#include <sstream>

#include <catch2/catch.hpp>

#include "lsp/transport.h"
#include "lsp_support.h"
#include "support/process.h"
#include "support/temp_dir.h"

using namespace oprec::testing;
using oprec::lsp::json;

namespace {

// The only reply with this id (or with a null id, for id = null).
json reply(const std::vector<json>& out, const json& id) {
    for (const json& m : out)
        if (m.is_object() && !m.contains("method") && m.contains("id") && m["id"] == id) return m;
    return nullptr;
}

void check_error(const json& r, int code, const std::string& says) {
    INFO(r.dump());
    REQUIRE(r.is_object());
    REQUIRE(r.contains("error"));
    CHECK(r["error"]["code"] == code);
    const std::string message = r["error"]["message"];
    CHECK(message.find(says) != std::string::npos);
    // Never the JSON library's words.
    CHECK(message.find("json.exception") == std::string::npos);
    CHECK(message.find("type must be") == std::string::npos);
}

// The shipped records with one entry made to call the last of `fns` fns,
// each calling the one before twice (or once, `twice` false).
std::string exploding_records(int fns, bool twice) {
    std::string text = records_with_layer();
    text += "\nfn f0(x) = x + 1\n";
    for (int k = 1; k <= fns; ++k)
        text += "fn f" + std::to_string(k) + "(x) = " +
                (twice ? "f" + std::to_string(k - 1) + "(x) + f" + std::to_string(k - 1) + "(x)\n" : "f" + std::to_string(k - 1) + "(x) + 1\n");
    const std::string entry = "    softmax = n_softmax * bytes_softmax\n";
    const auto at = text.find(entry);
    REQUIRE(at != std::string::npos);
    text.replace(at, entry.size(), "    softmax = n_softmax * bytes_softmax * f" + std::to_string(fns) + "(1)\n");
    return text;
}

std::string frame(const std::string& body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body; }

std::vector<json> serve_text(const std::string& input) {
    std::stringstream in(input), out;
    oprec::lsp::Server server(test_server_options());
    oprec::lsp::serve(server, in, out, false);
    std::vector<json> replies;
    while (auto body = oprec::lsp::read_message(out)) replies.push_back(json::parse(*body));
    return replies;
}

}  // namespace

TEST_CASE("lsp hardening: a method that is not a string is an invalid request, not a crash", "[lsp][hardening]") {
    Session s;
    s.initialize();
    // A request: answered with its id.
    std::vector<json> out;
    REQUIRE_NOTHROW(out = s.server().handle({{"jsonrpc", "2.0"}, {"id", 7}, {"method", 5}}));
    check_error(reply(out, 7), -32600, "`method` must be a string");
    // A notification (no id), and one whose method is an object: the id is null.
    REQUIRE_NOTHROW(out = s.server().handle({{"jsonrpc", "2.0"}, {"method", {{"a", 1}}}, {"params", json::object()}}));
    check_error(reply(out, nullptr), -32600, "`method` must be a string, not an object");
    // In a batch with a cancel (the batch's own pre-scan read `method` too).
    REQUIRE_NOTHROW(out = s.server().handle_batch({json{{"jsonrpc", "2.0"}, {"method", true}},
                                                   json{{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", 3}}}));
    check_error(reply(out, nullptr), -32600, "not a boolean");
    // The server still answers.
    CHECK(s.call("shutdown").contains("result"));
}

TEST_CASE("lsp hardening: ids and messages of the wrong shape are invalid requests", "[lsp][hardening]") {
    Session s;
    s.initialize();
    check_error(reply(s.server().handle({{"jsonrpc", "2.0"}, {"id", {{"x", 1}}}, {"method", "shutdown"}}), nullptr), -32600,
                "`id` is a number or a string, not an object");
    check_error(reply(s.server().handle(json::array({1, 2})), nullptr), -32600, "a message is a JSON object, not an array");
    check_error(reply(s.server().handle({{"jsonrpc", "2.0"}, {"id", 3}}), 3), -32600, "needs a `method`");
}

TEST_CASE("lsp hardening: params of the wrong type are invalid params, said in our words", "[lsp][hardening]") {
    Session s;
    s.initialize();
    const std::string uri = records_uri();
    s.open(uri, records_with_layer());
    const json td = {{"uri", uri}};
    struct Case {
        std::string method;
        json params;
        std::string says;
    };
    const std::vector<Case> cases = {
        {"textDocument/hover", "x", "params: needs an object, got a string"},
        {"textDocument/hover", json::array({1}), "params: needs an object, got an array"},
        {"textDocument/hover", {{"textDocument", 5}, {"position", {{"line", 0}, {"character", 0}}}}, "textDocument: needs an object, got an integer"},
        {"textDocument/hover", {{"textDocument", {{"uri", 5}}}, {"position", {{"line", 0}, {"character", 0}}}}, "textDocument.uri: needs a string, got an integer"},
        {"textDocument/hover", {{"textDocument", td}, {"position", {{"line", "a"}, {"character", 0}}}}, "position.line: needs a whole number from 0, got a string"},
        {"textDocument/hover", {{"textDocument", td}, {"position", {{"line", 0}}}}, "position.character: needs a whole number from 0, it is missing"},
        {"textDocument/hover", {{"textDocument", td}, {"position", {{"line", -1}, {"character", 0}}}}, "position.line: needs a whole number from 0 to 2147483647, got -1"},
        {"textDocument/hover", {{"textDocument", td}, {"position", {{"line", 1.5}, {"character", 0}}}}, "position.line: needs a whole number from 0, got a number with a fraction"},
        {"textDocument/hover", {{"textDocument", td}}, "position: needs an object with `line` and `character`, it is missing"},
        {"textDocument/hover", {{"textDocument", td}, {"position", "here"}}, "position: needs an object with `line` and `character`, got a string"},
        {"textDocument/references", {{"textDocument", td}, {"position", {{"line", 3}, {"character", 0}}}, {"context", {{"includeDeclaration", "yes"}}}}, "context.includeDeclaration: needs true or false, got a string"},
        {"textDocument/rename", {{"textDocument", td}, {"position", {{"line", 3}, {"character", 0}}}, {"newName", 3}}, "newName: needs a string, got an integer"},
        {"textDocument/inlayHint", {{"textDocument", td}, {"range", {{"start", {{"line", 0}, {"character", 0}}}}}}, "range.end: needs a position, it is missing"},
        {"textDocument/inlayHint", {{"textDocument", td}, {"range", {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 0}, {"character", "z"}}}}}}, "range.end.character: needs a whole number from 0, got a string"},
        {"textDocument/codeAction", {{"textDocument", td}, {"range", 1}}, "range: needs an object with `start` and `end`, got an integer"},
    };
    for (const Case& c : cases) {
        INFO(c.method << " " << c.params.dump());
        check_error(s.call(c.method, c.params), -32602, c.says);
    }
    // A malformed notification is logged in the same words, never fatal.
    s.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", json::array({{{"range", 3}, {"text", "x"}}})}});
    auto logged = [&] {
        for (auto it = s.pushed().rbegin(); it != s.pushed().rend(); ++it)
            if (it->value("method", "") == "window/logMessage") return (*it)["params"]["message"].get<std::string>();
        return std::string();
    };
    CHECK(logged() == "textDocument/didChange: contentChanges[0].range: needs an object with `start` and `end`, got an integer");
    s.notify("textDocument/didOpen", {{"textDocument", {{"uri", 5}}}});
    CHECK(logged() == "textDocument/didOpen: textDocument.uri: needs a string, got an integer");
    // Capabilities of the wrong shape are read as absent.
    Session t;
    CHECK(t.call("initialize", {{"capabilities", {{"workspace", 3}}}}).contains("result"));
}

TEST_CASE("lsp hardening: bad frames and bad JSON are answered over the stream", "[lsp][hardening]") {
    const std::string init = frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
    const std::string end = frame(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") + frame(R"({"jsonrpc":"2.0","method":"exit"})");
    auto errors = [](const std::vector<json>& replies) {
        std::vector<json> out;
        for (const json& r : replies)
            if (r.contains("error")) out.push_back(r);
        return out;
    };
    struct Case {
        std::string input;
        int code;
        std::string says;
    };
    const std::vector<Case> cases = {
        {frame("{not json"), -32700, "the message is not JSON"},
        {"Content-Length: nonsense\r\n\r\n", -32700, "Content-Length is not a whole number (nonsense)"},
        // Bytes that are not UTF-8 echoed in the error: once a crash.
        {"Content-Length: \xff\r\n\r\n", -32700, "Content-Length is not a whole number"},
        {"bad \xff line\r\n\r\n", -32700, "a header line without `:`"},
        {std::string(39, 'x') + "\xc3\xa9\xc3\xa9\r\n\r\n", -32700, "a header line without `:`"},
        {"Content-Length: 1" + std::string(30, '1') + "junk\r\n\r\n", -32700, "Content-Length is not a whole number"},
        {"Content-Length: 2\r\nContent-Length: 3\r\n\r\n", -32700, "two Content-Length headers that disagree"},
        {"Content-Type: text\r\n\r\n", -32700, "no Content-Length header"},
        {"garbage without a colon\r\n\r\n", -32700, "a header line without `:`"},
        {"X-Long: " + std::string(100000, 'x') + "\r\n\r\n", -32700, "a header line longer than 4096 bytes"},
        {frame(std::string(100000, '[') + std::string(100000, ']')), -32600, "nested deeper than 512"},
        {"Content-Length: " + std::to_string((64 << 20) + 1) + "\r\n\r\n" + std::string((64 << 20) + 1, ' '), -32600,
         "a message of 67108865 bytes: the limit is 67108864 bytes"},
    };
    for (const Case& c : cases) {
        INFO(c.says);
        const std::vector<json> replies = serve_text(init + c.input + end);
        const std::vector<json> bad = errors(replies);
        REQUIRE(bad.size() == 1);
        check_error(bad[0], c.code, c.says);
        CHECK(bad[0]["id"].is_null());
        // The frames after it are read: shutdown is answered.
        CHECK(reply(replies, 2).contains("result"));
    }
}

TEST_CASE("lsp hardening: records whose evaluation explodes are not priced live", "[lsp][hardening]") {
    Session s;
    s.initialize();
    const std::string uri = records_uri();
    // 60 fns each calling the one before twice: 2^60 calls, forever.
    s.open(uri, exploding_records(60, true));
    const json lens = s.result("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}});
    const std::string title = lens[0]["command"]["title"];
    INFO(title);
    // The checker refuses it (E0117: more than 2^20 operations a call), so
    // the server never prices it; its own budget (L0001) backs that up.
    CHECK(title.find("operations per call") != std::string::npos);
    CHECK(title.find("[E0117]") != std::string::npos);
    CHECK(title.find("layer ") == std::string::npos);
    const json diags = s.diagnostics(uri);
    REQUIRE(diags.is_array());
    bool refused = false;
    for (const json& d : diags)
        if (d["code"] == "E0117") {
            refused = true;
            CHECK(d["severity"] == 1);
        }
    CHECK(refused);
    // The text fixed: priced again.
    s.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}}, {"contentChanges", json::array({{{"text", records_with_layer()}}})}});
    const std::string again = s.result("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}})[0]["command"]["title"];
    CHECK(again.find("layer 92.50 MiB") != std::string::npos);
}

TEST_CASE("lsp hardening: a chain of thousands of fns is refused, not a stack overflow", "[lsp][hardening]") {
    Session s;
    s.initialize();
    const std::string uri = records_uri();
    s.open(uri, exploding_records(4000, false));
    const std::string title = s.result("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}})[0]["command"]["title"];
    INFO(title);
    // The checker refuses the chain where it passes 1000 levels (E0117).
    CHECK(title.find("nests 1002 levels deep with the fns it calls: at most 1000") != std::string::npos);
    CHECK(title.find("[E0117]") != std::string::npos);
    // A chain within the limit is priced.
    Session t;
    t.initialize();
    t.open(uri, exploding_records(50, false));
    const std::string priced = t.result("textDocument/codeLens", {{"textDocument", {{"uri", uri}}}})[0]["command"]["title"];
    CHECK(priced.find("not priced live") == std::string::npos);
    CHECK(priced.find("layer ") != std::string::npos);
}

TEST_CASE("lsp hardening: a layer that is a FIFO, a device or a directory is refused unopened", "[lsp][hardening]") {
    TempDir dir;
    const std::string fifo = (dir / "layer.fifo").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::filesystem::create_directories(dir / "folder");
    const std::string records = source_text("records/op_records.rec");
    struct Case {
        std::string layer;
        std::string says;
    };
    for (const Case& c : {Case{fifo, "is not a regular file"}, Case{"/dev/zero", "is not a regular file"},
                          Case{(dir / "folder").string(), "is a directory"}, Case{(dir / "none.json").string(), "cannot read"}}) {
        Session s;
        s.initialize();
        s.open(records_uri(), "# rec: layer " + c.layer + "\n" + records);
        const std::string title = s.result("textDocument/codeLens", {{"textDocument", {{"uri", records_uri()}}}})[0]["command"]["title"];
        INFO(title);
        CHECK(title.find(c.says) != std::string::npos);
    }
    // An import of a FIFO: a diagnostic at the import, no wait.
    Session s;
    s.initialize();
    const std::string main = (dir / "main.rec").string();
    s.open(oprec::lsp::uri_of_path(main), "import \"layer.fifo\"\n");
    const json diags = s.diagnostics(oprec::lsp::uri_of_path(main));
    REQUIRE(diags.is_array());
    bool refused = false;
    for (const json& d : diags) refused = refused || d["message"].get<std::string>().find("not a regular file") != std::string::npos;
    CHECK(refused);
}

TEST_CASE("lsp hardening: a request cancelled while the server works is answered cancelled", "[lsp][hardening]") {
    Session s;
    s.initialize();
    s.open(records_uri(), records_with_layer());
    auto interrupts = std::make_shared<oprec::lsp::Interrupts>();
    s.server().set_interrupts(interrupts);
    // The reader saw the cancel after the request, while the batch before it was worked on.
    interrupts->notice({{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 42}}}});
    const auto out = s.server().handle({{"jsonrpc", "2.0"}, {"id", 42}, {"method", "textDocument/codeLens"},
                                        {"params", {{"textDocument", {{"uri", records_uri()}}}}}});
    check_error(reply(out, 42), -32800, "cancelled");
    // The id is forgotten once answered: a later request reusing it is served.
    CHECK(!interrupts->cancelled("42"));
    CHECK(!interrupts->ending());
    interrupts->notice({{"jsonrpc", "2.0"}, {"method", "exit"}});
    CHECK(!interrupts->ending());  // within the grace: work already read is still done
}

TEST_CASE("lsp hardening: exit and the end of input end the binary while work is pending", "[lsp][hardening][cli]") {
    // Before: the server priced 2^60 fn calls and outlived its editor.
    const json init = {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}};
    const json open = {{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                       {"params", {{"textDocument", {{"uri", records_uri()}, {"languageId", "rec"}, {"version", 1}, {"text", exploding_records(60, true)}}}}}};
    const json lens = {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "textDocument/codeLens"}, {"params", {{"textDocument", {{"uri", records_uri()}}}}}};
    const std::string session = frame(init.dump()) + frame(open.dump()) + frame(lens.dump());
    const RunResult with_exit = run_oprec({"lsp"}, session + frame(R"({"jsonrpc":"2.0","method":"exit"})"));
    CHECK(with_exit.exit_code == 1);  // exit without shutdown
    const RunResult at_end = run_oprec({"lsp"}, session);
    CHECK(at_end.exit_code == 1);
}

TEST_CASE("lsp hardening: a lone CR ends a line, for positions as for the lexer", "[lsp][hardening]") {
    for (const std::string eol : {"\n", "\r\n", "\r"}) {
        INFO(json(eol).dump());
        const std::string text = "import \"fields.rec\"" + eol + "op a" + eol + "op a $" + eol;
        const json open = {{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                           {"params", {{"textDocument", {{"uri", "file:///tmp/cr.rec"}, {"languageId", "rec"}, {"version", 1}, {"text", text}}}}}};
        const std::vector<json> out =
            serve_text(frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})") + frame(open.dump()) +
                       frame(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") + frame(R"({"jsonrpc":"2.0","method":"exit"})"));
        json syntax;
        for (const json& m : out)
            if (m.value("method", "") == "textDocument/publishDiagnostics")
                for (const json& d : m["params"]["diagnostics"])
                    if (d["code"] == "E0001") syntax = d;
        REQUIRE(syntax.is_object());
        CHECK(syntax["range"]["start"] == json{{"line", 2}, {"character", 5}});
        CHECK(syntax["range"]["end"] == json{{"line", 2}, {"character", 6}});
    }
}
