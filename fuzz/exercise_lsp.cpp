#include <sstream>
#include <stdexcept>
#include <string>

#include "exercise_doors.h"
#include "lsp/server.h"
#include "lsp/transport.h"

namespace oprec::fuzz {

namespace {

using lsp::json;

void check_replies(const std::vector<json>& replies, const std::string& after) {
    for (const json& r : replies) {
        if (!r.is_object() || r.value("jsonrpc", json()) != "2.0")
            throw std::logic_error("a reply that is not a JSON-RPC message: " + r.dump().substr(0, 200));
        if (r.contains("error") && r["error"].value("code", 0) == lsp::error::kInternalError)
            throw std::logic_error("an internal error after " + after + ": " + r.dump().substr(0, 300));
        // Every reply must be writable as the transport writes it.
        (void)r.dump(-1, ' ', false, json::error_handler_t::replace);
    }
}

}  // namespace

void exercise_lsp_messages(std::string_view bytes) {
    lsp::ServerOptions options;
    options.load.search_path = {std::string(OPREC_SOURCE_DIR) + "/stdlib"};
    options.records.data_dir = OPREC_SOURCE_DIR;
    lsp::Server server(options);
    const std::string uri = "file:///fuzz/doc.rec";  // a path of no file: imports come from the search path
    server.handle({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
    server.handle({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                   {"params", {{"textDocument", {{"uri", uri}, {"languageId", "rec"}, {"version", 1},
                                                 {"text", "import \"fields.rec\"\nfn f(x) = x * h\n"}}}}}});
    // The bytes as frames on the server's input; where none frames, the
    // bytes as one message's body.
    std::istringstream in{std::string(bytes)};
    std::vector<json> batch;
    int frames = 0;
    while (auto frame = lsp::read_frame(in)) {
        ++frames;
        if (frame->error_code != 0) continue;
        lsp::Parsed parsed = lsp::parse_message(frame->body);
        if (parsed.error_code == 0) batch.push_back(std::move(parsed.message));
        if (batch.size() >= 64) break;
    }
    if (frames == 0) {
        lsp::Parsed parsed = lsp::parse_message(std::string(bytes));
        if (parsed.error_code == 0) batch.push_back(std::move(parsed.message));
    }
    for (const json& m : batch) {
        lsp::Interrupts interrupts;  // the reader's view of it: must not throw either
        interrupts.notice(m);
    }
    check_replies(server.handle_batch(batch), "a batch");
    for (const json& m : batch) check_replies(server.handle(m), m.dump().substr(0, 200));
}

}  // namespace oprec::fuzz
