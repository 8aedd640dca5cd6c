// The language server: LSP 3.17's lifecycle, the open documents, and the
// dispatch of each message to its feature (features.h, live_bytes.h). No
// I/O: messages in, messages out, so tests drive it directly; transport.h
// runs it over stdio.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "check/loader.h"
#include "lsp/analysis.h"
#include "lsp/live_bytes.h"
#include "lsp/protocol.h"
#include "lsp/text.h"
#include "oprec/records.h"

namespace oprec::lsp {

// What the transport's reader tells the server while it works (it reads on
// its own thread): requests cancelled, and that the session is ending
// (`exit` read without `shutdown` before it, or the end of input). Long
// work polls it between its stages and gives up: a cancelled request is
// answered "cancelled"; once the session ends, what is left gets a short
// grace and is then dropped. (An orderly `shutdown`, `exit` ends nothing
// early: the client waited, and everything it sent is answered.)
class Interrupts {
public:
    // A message as the reader took it off the stream.
    void notice(const nlohmann::json& message);
    void end_of_input();
    void cancel(const std::string& id);  // the id as JSON text
    void end();
    bool cancelled(const std::string& id) const;
    void forget(const std::string& id);
    // The session ended more than the grace ago: drop the rest.
    bool ending() const;

    // Work still pending when the session ends may finish within this.
    static constexpr std::chrono::milliseconds kGrace{2000};

private:
    bool shutdown_read_ = false;  // the reader's thread alone
    bool orderly_ = false;
    mutable std::mutex mutex_;
    std::set<std::string> cancelled_;
    std::atomic<std::int64_t> ended_at_{0};  // steady_clock ticks; 0: not ended
};

// Thrown by long work when an interrupt stops it.
struct Interrupted {
    bool cancelled = false;  // the request was cancelled (else the session ended)
};

struct ServerOptions {
    LoadOptions load;         // the import search path (the standard library first)
    RecordsOptions records;   // the same for live bytes' pricing
};

class Server {
public:
    explicit Server(ServerOptions options);

    // Messages read together: a `$/cancelRequest` among them cancels a
    // request of the batch not yet answered. Changes are applied in order;
    // diagnostics are published once per changed document, after the batch.
    std::vector<json> handle_batch(const std::vector<json>& messages);
    std::vector<json> handle(const json& message) { return handle_batch({message}); }

    // After `exit`: the process's exit code (0 after `shutdown`, else 1).
    std::optional<int> exit_code() const { return exit_code_; }

    // The transport's interrupts (none: nothing interrupts the work).
    void set_interrupts(std::shared_ptr<Interrupts> interrupts) { interrupts_ = std::move(interrupts); }

private:
    struct Document {
        Text text;
        std::string path;
        std::int64_t version = 0;
        std::shared_ptr<const Analysis> analysis;  // none: changed since the last one
        // The last analysis of a text that parsed: completion's names while
        // the text mid-edit does not.
        std::shared_ptr<const Analysis> parsed;
        LiveBytes live;
        bool publish = false;  // diagnostics to send after the batch
    };

    void dispatch(const json& message, std::vector<json>& out);
    json request(const std::string& method, const json& params);
    void notification(const std::string& method, const json& params, std::vector<json>& out);
    json initialize(const json& params);
    Document& document(const json& params);  // throws std::out_of_range for a document not open
    const Analysis& analysis(Document& doc);
    // Documents that import `path` (it changed, opened or closed): analysed again.
    // Every open document analysed again, its diagnostics published.
    void reanalyse_all();
    void invalidate_importers(const std::string& path);
    void publish(std::vector<json>& out);  // the diagnostics of changed documents
    // Throws Interrupted when the request being answered was cancelled or
    // the session is ending; called between the stages of long work.
    void poll() const;

    ServerOptions options_;
    std::map<std::string, Document> documents_;
    std::set<std::string> cancelled_;  // ids (as JSON text) cancelled before they were answered
    std::shared_ptr<Interrupts> interrupts_;
    std::optional<std::string> answering_;  // the id (as JSON text) of the request being answered
    bool initialized_ = false;
    bool shutdown_ = false;
    std::optional<int> exit_code_;
    std::optional<std::string> layer_setting_;
    std::string root_dir_;
    bool client_refreshes_hints_ = false;
    int next_request_id_ = 1;
};

}  // namespace oprec::lsp
