// Driving the language server in-process as a client would: requests with
// ids, notifications, and what the server sent back, kept in order.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "lsp/protocol.h"
#include "lsp/server.h"

namespace oprec::testing {

using lsp::json;

inline std::string source_text(const std::string& relative) {
    std::ifstream in(std::filesystem::path(OPREC_SOURCE_DIR) / relative, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline lsp::ServerOptions test_server_options() {
    lsp::ServerOptions o;
    o.load.search_path = {std::filesystem::path(OPREC_SOURCE_DIR) / "stdlib"};
    o.records.data_dir = OPREC_SOURCE_DIR;
    return o;
}

// The LSP position of the `nth` occurrence of `needle` (plus `shift`
// characters) in an ASCII text.
inline json position_of(const std::string& text, const std::string& needle, int shift = 0, int nth = 0) {
    std::size_t at = text.find(needle);
    for (int i = 0; i < nth && at != std::string::npos; ++i) at = text.find(needle, at + 1);
    REQUIRE(at != std::string::npos);
    at += static_cast<std::size_t>(shift);
    const std::size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t col = line_start == std::string::npos ? at : at - line_start - 1;
    const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    return {{"line", line}, {"character", col}};
}

class Session {
public:
    explicit Session(lsp::ServerOptions options = test_server_options()) : server_(std::move(options)) {}

    // A request's whole response (result or error); what else came is kept.
    json call(const std::string& method, const json& params = json::object()) {
        const int id = next_id_++;
        json response;
        for (json& m : server_.handle({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}})) {
            if (m.contains("id") && m["id"] == id && !m.contains("method"))
                response = std::move(m);
            else
                pushed_.push_back(std::move(m));
        }
        return response;
    }
    json result(const std::string& method, const json& params = json::object()) {
        const json r = call(method, params);
        INFO(r.dump());
        REQUIRE(r.contains("result"));
        return r["result"];
    }
    void notify(const std::string& method, const json& params = json::object()) {
        for (json& m : server_.handle({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}})) pushed_.push_back(std::move(m));
    }
    void initialize(const json& options = json::object()) {
        result("initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", json::object()}, {"initializationOptions", options}});
        notify("initialized");
    }
    // The diagnostics last published for a document.
    json diagnostics(const std::string& uri) const {
        for (auto it = pushed_.rbegin(); it != pushed_.rend(); ++it)
            if (it->value("method", "") == "textDocument/publishDiagnostics" && (*it)["params"]["uri"] == uri)
                return (*it)["params"]["diagnostics"];
        return nullptr;
    }
    void open(const std::string& uri, const std::string& text, int version = 1) {
        notify("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"languageId", "rec"}, {"version", version}, {"text", text}}}});
    }
    void change(const std::string& uri, int version, const json& range, const std::string& text) {
        notify("textDocument/didChange",
               {{"textDocument", {{"uri", uri}, {"version", version}}}, {"contentChanges", json::array({{{"range", range}, {"text", text}}})}});
    }
    lsp::Server& server() { return server_; }
    std::vector<json>& pushed() { return pushed_; }

private:
    lsp::Server server_;
    std::vector<json> pushed_;
    int next_id_ = 1;
};

// The shipped records, pricing examples/llama2-7b.json live, as a document
// of the records folder (its imports resolve as on disk).
inline std::string records_uri() { return lsp::uri_of_path(std::string(OPREC_SOURCE_DIR) + "/records/op_records.rec"); }
inline std::string records_with_layer() {
    return "# rec: layer ../examples/llama2-7b.json\n" + source_text("records/op_records.rec");
}

}  // namespace oprec::testing
