// A scripted session with the language server, one capability a section,
// on the shipped records as an editor would have them open.
#include <catch2/catch.hpp>

#include "lsp/transport.h"
#include "lsp_support.h"
#include "support/temp_dir.h"

using namespace oprec::testing;
using oprec::lsp::json;

namespace {

bool has_item(const json& items, const std::string& label) {
    return std::any_of(items.begin(), items.end(), [&](const json& i) { return i["label"] == label; });
}

std::string hover_text(Session& s, const std::string& text, const std::string& needle, int shift = 0, int nth = 0) {
    const json r = s.result("textDocument/hover", {{"textDocument", {{"uri", records_uri()}}}, {"position", position_of(text, needle, shift, nth)}});
    return r.is_null() ? "" : r["contents"]["value"].get<std::string>();
}

json at(const std::string& text, const std::string& needle, int shift = 0, int nth = 0) {
    return {{"textDocument", {{"uri", records_uri()}}}, {"position", position_of(text, needle, shift, nth)}};
}

}  // namespace

TEST_CASE("lsp lifecycle: initialize, requests before it, shutdown, exit", "[lsp]") {
    Session s;
    const json early = s.call("textDocument/hover", at("x", "x"));
    CHECK(early["error"]["code"] == -32002);
    const json init = s.result("initialize", {{"capabilities", json::object()}});
    const json caps = init["capabilities"];
    CHECK(caps["textDocumentSync"]["change"] == 2);
    for (const char* p : {"hoverProvider", "definitionProvider", "referencesProvider", "renameProvider", "documentSymbolProvider",
                          "completionProvider", "documentFormattingProvider", "semanticTokensProvider", "codeActionProvider",
                          "inlayHintProvider", "codeLensProvider"})
        CHECK(caps.contains(p));
    CHECK(s.call("initialize", {{"capabilities", json::object()}})["error"]["code"] == -32600);
    CHECK(s.call("no/such")["error"]["code"] == -32601);
    // A document method it does not serve, whatever the document: once -32602 "not an open document".
    CHECK(s.call("textDocument/typeDefinition", at("x", "x"))["error"]["code"] == -32601);
    CHECK(s.call("textDocument/typeDefinition")["error"]["code"] == -32601);
    CHECK(s.call("textDocument/hover", json::array())["error"]["code"] == -32602);  // params of the wrong shape
    CHECK(s.call("textDocument/hover", at("x", "x"))["error"]["code"] == -32602);  // not open
    CHECK(s.result("shutdown").is_null());
    CHECK(s.call("textDocument/hover", at("x", "x"))["error"]["code"] == -32600);
    CHECK_FALSE(s.server().exit_code());
    s.notify("exit");
    CHECK(s.server().exit_code() == 0);

    Session t;
    t.initialize();
    t.notify("exit");  // without shutdown
    CHECK(t.server().exit_code() == 1);
}

TEST_CASE("lsp cancel: a request cancelled in its batch is answered as cancelled", "[lsp]") {
    Session s;
    s.initialize();
    const std::string text = records_with_layer();
    s.open(records_uri(), text);
    const auto out = s.server().handle_batch({{{"jsonrpc", "2.0"}, {"id", 70}, {"method", "textDocument/hover"}, {"params", at(text, "bytes = micro_factor * (s * b * h", 33)}},
                                              {{"jsonrpc", "2.0"}, {"method", "$/cancelRequest"}, {"params", {{"id", 70}}}},
                                              {{"jsonrpc", "2.0"}, {"id", 71}, {"method", "textDocument/hover"}, {"params", at(text, "bytes = micro_factor * (s * b * h", 33)}}});
    REQUIRE(out.size() == 2);
    CHECK(out[0]["id"] == 70);
    CHECK(out[0]["error"]["code"] == -32800);
    CHECK(out[1]["id"] == 71);
    CHECK(out[1]["result"]["contents"]["value"].get<std::string>().find("hidden width") != std::string::npos);
    // A cancel for a request already answered does nothing.
    s.notify("$/cancelRequest", {{"id", 71}});
}

TEST_CASE("lsp diagnostics: on open and on each incremental change, with fixes as code actions", "[lsp]") {
    Session s;
    s.initialize();
    std::string text = records_with_layer();
    s.open(records_uri(), text);
    CHECK(s.diagnostics(records_uri()) == json::array());

    // Misspell a field in the ffn slot: `hff` -> `hfff`.
    const json where = position_of(text, "ffn_elements(hff)", 13);
    s.change(records_uri(), 2, {{"start", where}, {"end", where}}, "f");
    const json diags = s.diagnostics(records_uri());
    REQUIRE(diags.size() == 1);
    CHECK(diags[0]["code"] == "W0101");
    CHECK(diags[0]["severity"] == 2);
    CHECK(diags[0]["range"]["start"] == where);
    CHECK(diags[0]["range"]["end"]["character"] == where["character"].get<int>() + 4);
    const json actions = s.result("textDocument/codeAction",
                                  {{"textDocument", {{"uri", records_uri()}}}, {"range", diags[0]["range"]}, {"context", {{"diagnostics", diags}}}});
    REQUIRE(actions.size() == 1);
    CHECK(actions[0]["kind"] == "quickfix");
    const json edit = actions[0]["edit"]["changes"][records_uri()][0];
    CHECK(edit["newText"] == "hff");

    // A syntax error in the middle of a formula, then its repair.
    const json mid = position_of(text, "bytes_softmax");
    s.change(records_uri(), 3, {{"start", mid}, {"end", mid}}, "* * ");
    const json broken = s.diagnostics(records_uri());
    REQUIRE_FALSE(broken.empty());
    CHECK(broken[0]["severity"] == 1);
    CHECK(broken[0]["range"]["start"]["line"] == mid["line"]);
    json after = mid;
    after["character"] = mid["character"].get<int>() + 4;
    s.change(records_uri(), 4, {{"start", mid}, {"end", after}}, "");
    CHECK(s.diagnostics(records_uri()).size() == 1);  // only the misspelt field again

    // An error in an imported file shows at the import.
    oprec::testing::Session t;
    t.initialize();
    const std::string importer = "import \"no_such_file.rec\"\n";
    t.open(oprec::lsp::uri_of_path("/tmp/lsp-importer.rec"), importer);
    const json missing = t.diagnostics(oprec::lsp::uri_of_path("/tmp/lsp-importer.rec"));
    REQUIRE_FALSE(missing.empty());
    CHECK(missing[0]["range"]["start"]["line"] == 0);
}

TEST_CASE("lsp hover: fields, ops, slots, fns, defaults, switches", "[lsp]") {
    Session s;
    s.initialize();
    const std::string text = records_with_layer();
    s.open(records_uri(), text);
    const std::string field = hover_text(s, text, "bytes = micro_factor * (s * b * h", 33);
    CHECK(field.find("field h : int | float") != std::string::npos);
    CHECK(field.find("hidden width (unit: elements)") != std::string::npos);
    const std::string op = hover_text(s, text, "op dropout", 3);
    CHECK(op.find("dropped by switch `dropout`") != std::string::npos);
    CHECK(op.find("recomputing it needs `softmax`") != std::string::npos);
    CHECK(op.find("kept in `score`, `proj`") != std::string::npos);
    const std::string slot = hover_text(s, text, "slot qkv", 5);
    CHECK(slot.find("slot qkv in attention") != std::string::npos);
    CHECK(slot.find("bytes = micro_factor") != std::string::npos);
    const std::string fn = hover_text(s, text, "ffn_elements(hff)", 2);
    CHECK(fn.find("fn ffn_elements(width)") != std::string::npos);
    const std::string def = hover_text(s, text, "n_qknorm * (a", 2);
    CHECK(def.find("default: `0`") != std::string::npos);
    CHECK(def.find("QK-norms per layer") != std::string::npos);
    const std::string sw = hover_text(s, text, "switch softmax", 8);
    CHECK(sw.find("recomputes `softmax`") != std::string::npos);
    const std::string part = hover_text(s, text, "slot qkv in attention", 13);
    CHECK(part.find("the sum of slots `qkv`, `score`, `proj`") != std::string::npos);
    CHECK(hover_text(s, text, "# The op records") == "");  // a comment
}

TEST_CASE("lsp navigation: definition, references, rename, symbols", "[lsp]") {
    Session s;
    s.initialize();
    const std::string text = records_with_layer();
    s.open(records_uri(), text);

    const json fn = s.result("textDocument/definition", at(text, "ffn_elements(hff)", 1));
    REQUIRE(fn.size() == 1);
    CHECK(fn[0]["uri"].get<std::string>().find("stdlib/ffn.rec") != std::string::npos);
    const json field = s.result("textDocument/definition", at(text, "n_qknorm * (a"));
    REQUIRE(field.size() == 2);  // the schema's field and the records' default
    const json op = s.result("textDocument/definition", at(text, "needs softmax", 7));
    REQUIRE(op.size() == 1);
    CHECK(op[0]["uri"] == records_uri());
    CHECK(op[0]["range"]["start"] == position_of(text, "op softmax", 3));
    const json import = s.result("textDocument/definition", at(text, "import \"ffn.rec\"", 9));
    CHECK(import[0]["uri"].get<std::string>().find("stdlib/ffn.rec") != std::string::npos);

    const json refs = s.result("textDocument/references", {{"textDocument", {{"uri", records_uri()}}},
                                                            {"position", position_of(text, "op dropout", 3)},
                                                            {"context", {{"includeDeclaration", true}}}});
    // op dropout, the two entries, the op vector's mention, and the profiles do not load here.
    CHECK(refs.size() == 4);

    const json prepared = s.result("textDocument/prepareRename", at(text, "op dropout", 3));
    CHECK(prepared["placeholder"] == "dropout");
    // The op vector that names it is the standard library's (stdlib/vocabulary.rec): a rename
    // would edit every project's file, so it is refused; a name of this file's alone is renamed.
    const json op_rename = s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                          {"position", position_of(text, "op dropout", 3)}, {"newName", "drop"}});
    CHECK(op_rename["error"]["code"] == -32803);
    CHECK(op_rename["error"]["message"].get<std::string>().find("`dropout` is also in the standard library") !=
          std::string::npos);
    const json edit = s.result("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                       {"position", position_of(text, "slot qkv", 5)}, {"newName", "qkv2"}});
    REQUIRE(edit["changes"].size() == 1);
    CHECK(edit["changes"].begin().key() == records_uri());
    const json bad = s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                    {"position", position_of(text, "op dropout", 3)}, {"newName", "2x"}});
    CHECK(bad["error"]["code"] == -32803);
    // Onto another op's name: two ops of one name, refused.
    const json taken = s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                      {"position", position_of(text, "op dropout", 3)}, {"newName", "softmax"}});
    CHECK(taken["error"]["code"] == -32803);
    CHECK(taken["error"]["message"].get<std::string>().find("`softmax` is taken: the op declared at ") != std::string::npos);
    // A keyword or a built-in name would break the text or change its meaning.
    for (const char* name : {"if", "None", "slot", "max", "total", "bytes"}) {
        INFO(name);
        const json reserved = s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                             {"position", position_of(text, "op dropout", 3)}, {"newName", name}});
        CHECK(reserved["error"]["code"] == -32803);
    }
    // A field the standard library reads too would be renamed in every project's files.
    const json shared = s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                                       {"position", position_of(text, "n_qknorm * (a")}, {"newName", "nq"}});
    CHECK(shared["error"]["code"] == -32803);
    CHECK(shared["error"]["message"].get<std::string>().find("is also in the standard library") != std::string::npos);

    const json symbols = s.result("textDocument/documentSymbol", {{"textDocument", {{"uri", records_uri()}}}});
    const auto qkv = std::find_if(symbols.begin(), symbols.end(), [](const json& x) { return x["name"] == "qkv"; });
    REQUIRE(qkv != symbols.end());
    CHECK((*qkv)["detail"] == "slot in attention");
    CHECK((*qkv)["children"].size() == 4);  // bytes, attMM, attUp, attBMM
    // From `slot` to its closing brace.
    const std::size_t brace = text.find("\n}", text.find("slot qkv")) + 1;
    CHECK((*qkv)["range"]["start"] == position_of(text, "slot qkv"));
    CHECK((*qkv)["range"]["end"]["line"] == std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(brace), '\n'));
}

TEST_CASE("lsp rename: a parameter and a field never capture each other", "[lsp]") {
    Session s;
    s.initialize();
    const std::string text = records_with_layer() + "\nfn f(x) = x + h\nfn g(z) = z * 2\nfn m(w) = w + n_qknorm\n";
    s.open(records_uri(), text);
    const auto rename = [&](const std::string& at_text, std::size_t offset, const std::string& to) {
        return s.call("textDocument/rename", {{"textDocument", {{"uri", records_uri()}}},
                                              {"position", position_of(text, at_text, offset)}, {"newName", to}});
    };
    // x renamed h: `fn f(h) = h + h` would read the parameter twice.
    const json param = rename("fn f(x)", 5, "h");
    CHECK(param["error"]["code"] == -32803);
    CHECK(param["error"]["message"].get<std::string>().find("let one capture the other") != std::string::npos);
    // A default renamed as some fn's parameter: m's w would capture it.
    const json global = rename("default n_qknorm", 8, "w");
    CHECK(global["error"]["code"] == -32803);
    // A parameter renamed as another fn's parameter: each has its own scope.
    const json other = rename("fn f(x)", 5, "z");
    REQUIRE(other.contains("result"));
    std::size_t edits = 0;
    for (const auto& [uri, list] : other["result"]["changes"].items()) edits += list.size();
    CHECK(edits == 2);  // f's x, declared and read
}

TEST_CASE("lsp completion: keywords, parts, switches, ops and names in context", "[lsp]") {
    Session s;
    s.initialize();
    std::string text = records_with_layer() + "\n";
    s.open(records_uri(), text);
    auto complete_after = [&](const std::string& typed) {
        const json end = position_of(text + "\n", "\n", 0, static_cast<int>(std::count(text.begin(), text.end(), '\n')) - 1);
        const int version = 10;
        s.change(records_uri(), version, {{"start", end}, {"end", end}}, typed);
        json p = end;
        p["character"] = end["character"].get<int>() + static_cast<int>(typed.size());
        const json items = s.result("textDocument/completion", {{"textDocument", {{"uri", records_uri()}}}, {"position", p}});
        json after = p;
        s.change(records_uri(), version + 1, {{"start", end}, {"end", after}}, "");
        return items;
    };
    CHECK(has_item(complete_after(""), "slot"));
    CHECK(has_item(complete_after("slot extra in "), "attention"));
    CHECK(has_item(complete_after("op newOp switch "), "softmax"));
    CHECK(has_item(complete_after("op newOp needs "), "attMM"));
    const json expr = complete_after("default n_x = ");
    CHECK(has_item(expr, "bytes_compute"));
    CHECK(has_item(expr, "ffn_elements"));
    CHECK(has_item(expr, "max"));
}

TEST_CASE("lsp formatting and semantic tokens", "[lsp]") {
    Session s;
    s.initialize();
    const std::string text = records_with_layer();
    s.open(records_uri(), text);
    CHECK(s.result("textDocument/formatting", {{"textDocument", {{"uri", records_uri()}}}, {"options", json::object()}}) == json::array());
    const std::string uri = oprec::lsp::uri_of_path("/tmp/lsp-messy.rec");
    s.open(uri, "default  x=1+2\n");
    const json edits = s.result("textDocument/formatting", {{"textDocument", {{"uri", uri}}}, {"options", json::object()}});
    REQUIRE(edits.size() == 1);
    CHECK(edits[0]["newText"] == "default x = 1 + 2\n");
    s.open(uri, "default x = (\n");  // does not parse: left alone
    CHECK(s.result("textDocument/formatting", {{"textDocument", {{"uri", uri}}}, {"options", json::object()}}) == json::array());

    const json tokens = s.result("textDocument/semanticTokens/full", {{"textDocument", {{"uri", records_uri()}}}});
    const json data = tokens["data"];
    REQUIRE(data.size() % 5 == 0);
    REQUIRE(data.size() > 100);
    // The first token is `n_qknorm` of `default n_qknorm = 0`: a declared property.
    const json first = position_of(text, "n_qknorm");
    CHECK(data[0] == first["line"]);
    CHECK(data[1] == first["character"]);
    CHECK(data[2] == 8);
    CHECK(data[3] == 0);
    CHECK(data[4] == 1);
}

TEST_CASE("lsp live bytes: inlay hints and a code lens, kept while the text does not load", "[lsp]") {
    Session s;
    s.initialize();
    std::string text = records_with_layer();
    s.open(records_uri(), text);
    const json whole = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 400}, {"character", 0}}}};
    auto hints = [&] { return s.result("textDocument/inlayHint", {{"textDocument", {{"uri", records_uri()}}}, {"range", whole}}); };
    auto lens = [&] {
        return s.result("textDocument/codeLens", {{"textDocument", {{"uri", records_uri()}}}})[0]["command"]["title"].get<std::string>();
    };
    auto hint_on = [&](const json& hs, const json& line) {
        for (const json& h : hs)
            if (h["position"]["line"] == line) return h["label"].get<std::string>();
        return std::string();
    };
    const json h = hints();
    CHECK(hint_on(h, position_of(text, "slot qkv")["line"]) == "  20.25 MiB = 20736 elements");
    CHECK(hint_on(h, position_of(text, "    attBMM = n_attBMM")["line"]) == "  256.00 KiB = 256 elements");
    CHECK(lens() == "llama2-7b.json: attention 40.25 MiB, ffn 36.25 MiB, norm 16.00 MiB, layer 92.50 MiB");

    // Double the score slot's softmax bytes: the numbers follow the edit.
    const json p = position_of(text, "n_softmax * bytes_softmax");
    s.change(records_uri(), 2, {{"start", p}, {"end", p}}, "2 * ");
    CHECK(lens() == "llama2-7b.json: attention 48.25 MiB, ffn 36.25 MiB, norm 16.00 MiB, layer 100.50 MiB");

    // A change that does not load keeps the last numbers and says why.
    s.change(records_uri(), 3, {{"start", p}, {"end", p}}, "(");
    const std::string stale = lens();
    CHECK(stale.find("layer 100.50 MiB") != std::string::npos);
    CHECK(stale.find("(stale: ") != std::string::npos);
    // The hints stay beside their lines, from the text's layout.
    const json kept = hints();
    CHECK(kept.size() == h.size());
    CHECK(hint_on(kept, position_of(text, "slot qkv")["line"]) == "  20.25 MiB = 20736 elements");
    CHECK(hint_on(kept, position_of(text, "    softmax = ")["line"]) == "  16.00 MiB = 8 elements");

    // The layer from the client's setting when the text names none.
    Session t;
    t.initialize({{"layer", std::string(OPREC_SOURCE_DIR) + "/examples/llama2-7b.json"}});
    t.open(records_uri(), source_text("records/op_records.rec"));
    CHECK(t.result("textDocument/codeLens", {{"textDocument", {{"uri", records_uri()}}}})[0]["command"]["title"]
              .get<std::string>()
              .find("layer 92.50 MiB") != std::string::npos);
    Session u;
    u.initialize();
    u.open(records_uri(), source_text("records/op_records.rec"));
    CHECK(u.result("textDocument/codeLens", {{"textDocument", {{"uri", records_uri()}}}})[0]["command"]["title"]
              .get<std::string>()
              .find("no layer chosen") != std::string::npos);
}

TEST_CASE("lsp transport: framed messages over streams, bad frames answered", "[lsp]") {
    auto frame = [](const std::string& body) { return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body; };
    std::stringstream in;
    in << frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})")
       << "Content-Length: nonsense\r\n\r\n"
       << frame("{not json")
       << frame(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})")
       << frame(R"({"jsonrpc":"2.0","method":"exit"})");
    std::stringstream out;
    oprec::lsp::Server server(test_server_options());
    CHECK(oprec::lsp::serve(server, in, out, false) == 0);
    std::vector<json> replies;
    while (auto body = oprec::lsp::read_message(out)) replies.push_back(json::parse(*body));
    // The frame with no readable length and the one that is not JSON are
    // each answered; the frames after them are read. (How the reader
    // batched the frames decides the order.)
    REQUIRE(replies.size() == 4);
    auto count = [&](auto&& pred) { return std::count_if(replies.begin(), replies.end(), pred); };
    CHECK(count([](const json& r) { return r["id"] == 1 && r.contains("result"); }) == 1);
    CHECK(count([](const json& r) { return r["id"].is_null() && r["error"]["code"] == -32700; }) == 2);
    CHECK(count([](const json& r) { return r["id"] == 2 && r["result"].is_null(); }) == 1);
}

TEST_CASE("lsp unsaved imports: an open, edited import is read as the editor has it", "[lsp]") {
    Session s;
    s.initialize();
    const std::string dir = "/tmp/oprec-lsp-unsaved";  // need not exist: both files are open
    const std::string main_uri = oprec::lsp::uri_of_path(dir + "/main.rec");
    const std::string lib_uri = oprec::lsp::uri_of_path(dir + "/lib.rec");
    s.open(lib_uri, "fn twice(x) = 2 * x\n");
    const std::string main_text = "import \"lib.rec\"\nimport \"fields.rec\"\ndefault n_x = twice(h)\n";
    s.open(main_uri, main_text);
    // (The file is no whole records file: it lacks a vocabulary, but it
    // finds `twice`.)
    auto about_twice = [&] {
        const json ds = s.diagnostics(main_uri);
        return std::count_if(ds.begin(), ds.end(), [](const json& d) { return d["message"].get<std::string>().find("twice") != std::string::npos; });
    };
    CHECK(about_twice() == 0);
    const json fn = s.result("textDocument/definition", {{"textDocument", {{"uri", main_uri}}}, {"position", position_of(main_text, "twice")}});
    REQUIRE(fn.size() == 1);
    CHECK(fn[0]["uri"] == lib_uri);
    CHECK(s.result("textDocument/hover", {{"textDocument", {{"uri", main_uri}}}, {"position", position_of(main_text, "twice")}})["contents"]["value"]
              .get<std::string>()
              .find("fn twice(x) = 2 * x") != std::string::npos);
    // Renaming the fn in the unsaved import: the importer is analysed again.
    s.change(lib_uri, 2, {{"start", {{"line", 0}, {"character", 3}}}, {"end", {{"line", 0}, {"character", 8}}}}, "double");
    CHECK(about_twice() == 1);
}

TEST_CASE("lsp rename: an import renames its file and every import of it", "[lsp]") {
    Session s;
    s.initialize();
    const std::string dir = "/tmp/oprec-lsp-rename";
    const std::string main_uri = oprec::lsp::uri_of_path(dir + "/main.rec");
    const std::string lib_uri = oprec::lsp::uri_of_path(dir + "/lib.rec");
    s.open(lib_uri, "fn twice(x) = 2 * x\n");
    const std::string text = "import \"lib.rec\"\nimport \"fields.rec\"\ndefault n_x = twice(h)\n";
    s.open(main_uri, text);
    const json prepared = s.result("textDocument/prepareRename", {{"textDocument", {{"uri", main_uri}}}, {"position", position_of(text, "lib")}});
    CHECK(prepared["placeholder"] == "lib.rec");
    CHECK(prepared["range"]["start"] == position_of(text, "lib.rec"));
    const json edit = s.result("textDocument/rename", {{"textDocument", {{"uri", main_uri}}}, {"position", position_of(text, "lib")}, {"newName", "library.rec"}});
    const json changes = edit["documentChanges"];
    REQUIRE(changes.size() == 2);
    CHECK(changes[0]["textDocument"]["uri"] == main_uri);
    CHECK(changes[0]["edits"][0]["newText"] == "library.rec");
    CHECK(changes[1]["kind"] == "rename");
    CHECK(changes[1]["oldUri"] == lib_uri);
    CHECK(changes[1]["newUri"] == oprec::lsp::uri_of_path(dir + "/library.rec"));
    // The standard library's files are not renamed from here.
    const json refused = s.call("textDocument/rename", {{"textDocument", {{"uri", main_uri}}}, {"position", position_of(text, "fields")}, {"newName", "f.rec"}});
    CHECK(refused["error"]["code"] == -32803);
}

TEST_CASE("lsp hover: a fn's parameter", "[lsp]") {
    Session s;
    s.initialize();
    const std::string uri = oprec::lsp::uri_of_path("/tmp/oprec-lsp-param.rec");
    const std::string text = "fn twice(width) = 2 * width\n";
    s.open(uri, text);
    const json r = s.result("textDocument/hover", {{"textDocument", {{"uri", uri}}}, {"position", position_of(text, "width", 0, 1)}});
    CHECK(r["contents"]["value"] == "parameter `width` of `fn twice(width) `");
}

TEST_CASE("lsp: a file created or opened that an import lacked clears its error", "[lsp]") {
    // The E0120 of a missing import once stayed until the importing file was typed in.
    TempDir dir;
    Session s;
    s.initialize();
    const std::string main = oprec::lsp::uri_of_path((dir.path() / "a.rec").string());
    const auto codes = [&] {
        std::vector<std::string> out;
        for (const json& d : s.diagnostics(main)) out.push_back(d.value("code", ""));
        return out;
    };
    const auto has = [](const std::vector<std::string>& list, const char* code) {
        return std::find(list.begin(), list.end(), code) != list.end();
    };
    s.open(main, "import \"mylib.rec\"\n");
    CHECK(has(codes(), "E0120"));
    // Its note without a place (where the import was looked for) is in the message, as lint prints it.
    for (const json& d : s.diagnostics(main))
        if (d["code"] == "E0120") CHECK(d["message"].get<std::string>().find("\nsearched in: ") != std::string::npos);
    const auto lib = dir.write("mylib.rec", "default width = 4\n");
    s.notify("workspace/didChangeWatchedFiles",
             {{"changes", json::array({{{"uri", oprec::lsp::uri_of_path(lib.string())}, {"type", 1}}})}});
    CHECK_FALSE(has(codes(), "E0120"));
    // Broken on disk and saved: said without a keystroke in a.rec.
    dir.write("mylib.rec", "default width = (4\n");
    s.notify("textDocument/didSave", {{"textDocument", {{"uri", oprec::lsp::uri_of_path(lib.string())}}}});
    CHECK(has(codes(), "E0001"));
}
