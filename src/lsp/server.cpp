#include "lsp/server.h"

#include <filesystem>
#include <set>
#include <stdexcept>

#include "lsp/features.h"

namespace oprec::lsp {

namespace {

json error_response(const json& id, int code, const std::string& message) {
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

json capabilities() {
    return {
        {"positionEncoding", "utf-16"},
        {"textDocumentSync", {{"openClose", true}, {"change", 2}}},  // incremental
        {"hoverProvider", true},
        {"definitionProvider", true},
        {"referencesProvider", true},
        {"renameProvider", {{"prepareProvider", true}}},
        {"documentSymbolProvider", true},
        {"completionProvider", {{"triggerCharacters", json::array({" ", "(", ","})}}},
        {"documentFormattingProvider", true},
        {"semanticTokensProvider", {{"legend", semantic_token_legend()}, {"full", true}}},
        {"codeActionProvider", {{"codeActionKinds", json::array({"quickfix"})}}},
        {"inlayHintProvider", true},
        {"codeLensProvider", {{"resolveProvider", false}}},
    };
}

std::optional<std::string> layer_of(const json& settings) {
    if (!settings.is_object()) return std::nullopt;
    const json& s = settings.contains("oprec") ? settings["oprec"] : settings;
    if (s.is_object() && s.contains("layer") && s["layer"].is_string()) return s["layer"].get<std::string>();
    return std::nullopt;
}

// A message's method, when it has one that is a string.
std::optional<std::string> method_of(const json& m) {
    const json* method = member(m, "method");
    if (!method || !method->is_string()) return std::nullopt;
    return method->get<std::string>();
}

// JSON-RPC's ids: a string, a number or null.
bool valid_id(const json& id) { return id.is_string() || id.is_number() || id.is_null(); }

}  // namespace

void Interrupts::notice(const json& message) {
    const auto method = method_of(message);
    if (!method) return;
    if (*method == "shutdown") shutdown_read_ = true;
    // After `shutdown` a client waits for its answer before `exit`: what it
    // sent before is all answered. Without, the client is gone.
    if (*method == "exit") {
        if (shutdown_read_)
            orderly_ = true;
        else
            end();
    }
    if (*method == "$/cancelRequest") {
        const json* params = member(message, "params");
        if (const json* id = params ? member(*params, "id") : nullptr) cancel(id->dump());
    }
}

void Interrupts::end_of_input() {
    if (!orderly_) end();
}

void Interrupts::cancel(const std::string& id) {
    std::lock_guard lock(mutex_);
    if (cancelled_.size() < 4096) cancelled_.insert(id);  // (a flood of cancels for ids never sent: bounded)
}

void Interrupts::end() {
    std::int64_t none = 0;
    ended_at_.compare_exchange_strong(none, std::chrono::steady_clock::now().time_since_epoch().count());
}

bool Interrupts::cancelled(const std::string& id) const {
    std::lock_guard lock(mutex_);
    return cancelled_.count(id) > 0;
}

void Interrupts::forget(const std::string& id) {
    std::lock_guard lock(mutex_);
    cancelled_.erase(id);
}

bool Interrupts::ending() const {
    const std::int64_t at = ended_at_.load();
    if (at == 0) return false;
    const auto since = std::chrono::steady_clock::now() - std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(at));
    return since > kGrace;
}

void Server::poll() const {
    if (!interrupts_) return;
    if (answering_ && interrupts_->cancelled(*answering_)) throw Interrupted{true};
    if (interrupts_->ending()) throw Interrupted{false};
}

Server::Server(ServerOptions options) : options_(std::move(options)) {
    std::error_code ec;
    root_dir_ = std::filesystem::current_path(ec).string();
}

std::vector<json> Server::handle_batch(const std::vector<json>& messages) {
    std::vector<json> out;
    for (const json& m : messages)
        if (method_of(m) == "$/cancelRequest") {
            const json* params = member(m, "params");
            if (const json* id = params ? member(*params, "id") : nullptr) cancelled_.insert(id->dump());
        }
    for (const json& m : messages) {
        if (exit_code_) break;
        // Changes in a row are analysed once; a request (or exit) first
        // sees the diagnostics of the changes before it published.
        if (m.is_object() && (m.contains("id") || method_of(m) == "exit")) publish(out);
        dispatch(m, out);
    }
    cancelled_.clear();  // a cancel for a request answered earlier: nothing to do
    publish(out);
    return out;
}

void Server::publish(std::vector<json>& out) {
    bool any = false;
    for (auto& [uri, doc] : documents_) {
        if (!doc.publish || exit_code_) continue;
        doc.publish = false;
        any = true;
        try {
            out.push_back({{"jsonrpc", "2.0"},
                           {"method", "textDocument/publishDiagnostics"},
                           {"params", {{"uri", uri}, {"version", doc.version}, {"diagnostics", diagnostics(analysis(doc), doc.text)}}}});
        } catch (const Interrupted&) {
            doc.publish = true;  // the session is ending: nothing more is sent
            return;
        } catch (const std::exception& e) {
            out.push_back({{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", e.what()}}}});
        }
    }
    // A client that can be asked to pull inlay hints and code lenses again
    // is asked: their numbers changed.
    if (any && client_refreshes_hints_) {
        out.push_back({{"jsonrpc", "2.0"}, {"id", next_request_id_++}, {"method", "workspace/inlayHint/refresh"}});
        out.push_back({{"jsonrpc", "2.0"}, {"id", next_request_id_++}, {"method", "workspace/codeLens/refresh"}});
    }
}

void Server::dispatch(const json& message, std::vector<json>& out) {
    if (!message.is_object()) {
        out.push_back(error_response(nullptr, error::kInvalidRequest, "a message is a JSON object, not " + kind_of(message)));
        return;
    }
    const json* id = member(message, "id");
    if (id && !valid_id(*id)) {
        out.push_back(error_response(nullptr, error::kInvalidRequest, "a request's `id` is a number or a string, not " + kind_of(*id)));
        return;
    }
    const json* method_member = member(message, "method");
    if (!method_member) {
        // A response to one of our requests (workspace/*/refresh): nothing
        // to do. Anything else is told what it lacks.
        if (!message.contains("result") && !message.contains("error"))
            out.push_back(error_response(id ? *id : json(), error::kInvalidRequest, "a message needs a `method` (or is a response with `result` or `error`)"));
        return;
    }
    if (!method_member->is_string()) {
        out.push_back(error_response(id ? *id : json(), error::kInvalidRequest, "`method` must be a string, not " + kind_of(*method_member)));
        return;
    }
    const std::string method = method_member->get<std::string>();
    const json* params_member = member(message, "params");
    const json params = params_member && !params_member->is_null() ? *params_member : json::object();
    if (!id) {
        try {
            if (!params.is_object()) throw ProtocolError(error::kInvalidParams, "params: needs an object, got " + kind_of(params));
            notification(method, params, out);
        } catch (const ProtocolError& e) {
            out.push_back({{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", method + ": " + e.what()}}}});
        } catch (const json::exception&) {
            // A path through the params not yet read in our own words.
            out.push_back({{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", method + ": params not as the protocol says"}}}});
        } catch (const std::exception& e) {
            out.push_back({{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", method + ": " + e.what()}}}});
        }
        return;
    }
    if (cancelled_.count(id->dump()) || (interrupts_ && interrupts_->cancelled(id->dump()))) {
        if (interrupts_) interrupts_->forget(id->dump());
        out.push_back(error_response(*id, error::kRequestCancelled, "cancelled"));
        return;
    }
    if (!initialized_ && method != "initialize") {
        out.push_back(error_response(*id, error::kServerNotInitialized, "initialize first"));
        return;
    }
    if (shutdown_ || (initialized_ && method == "initialize")) {
        out.push_back(error_response(*id, error::kInvalidRequest, shutdown_ ? "the server is shut down" : "initialized already"));
        return;
    }
    struct Answering {  // the request being answered, for poll()
        Server& server;
        ~Answering() {
            if (server.interrupts_ && server.answering_) server.interrupts_->forget(*server.answering_);
            server.answering_.reset();
        }
    } answering{*this};
    answering_ = id->dump();
    try {
        if (!params.is_object()) throw ProtocolError(error::kInvalidParams, "params: needs an object, got " + kind_of(params));
        out.push_back({{"jsonrpc", "2.0"}, {"id", *id}, {"result", request(method, params)}});
    } catch (const Interrupted& e) {
        out.push_back(error_response(*id, error::kRequestCancelled, e.cancelled ? "cancelled" : "the session is ending"));
    } catch (const ProtocolError& e) {
        out.push_back(error_response(*id, e.code(), e.what()));
    } catch (const std::out_of_range& e) {
        out.push_back(error_response(*id, error::kInvalidParams, e.what()));
    } catch (const json::exception&) {
        out.push_back(error_response(*id, error::kInvalidParams, method + ": params not as the protocol says"));
    } catch (const std::invalid_argument& e) {
        out.push_back(error_response(*id, error::kRequestFailed, e.what()));
    } catch (const std::domain_error& e) {  // an unknown method
        out.push_back(error_response(*id, error::kMethodNotFound, e.what()));
    } catch (const std::exception& e) {
        out.push_back(error_response(*id, error::kInternalError, e.what()));
    }
}

json Server::initialize(const json& params) {
    initialized_ = true;
    if (params.contains("rootUri") && params["rootUri"].is_string())
        root_dir_ = path_of_uri(params["rootUri"].get<std::string>());
    else if (params.contains("rootPath") && params["rootPath"].is_string())
        root_dir_ = params["rootPath"].get<std::string>();
    if (params.contains("initializationOptions")) layer_setting_ = layer_of(params["initializationOptions"]);
    // Capabilities of the wrong shape are read as absent: they only ever
    // turn a feature on.
    const json* caps = member(params, "capabilities");
    const json* ws = caps ? member(*caps, "workspace") : nullptr;
    const json* hint = ws ? member(*ws, "inlayHint") : nullptr;
    const json* refresh = hint ? member(*hint, "refreshSupport") : nullptr;
    client_refreshes_hints_ = refresh && refresh->is_boolean() && refresh->get<bool>();
    return {{"capabilities", capabilities()}, {"serverInfo", {{"name", "oprec"}, {"version", "0.1.0"}}}};
}

void Server::reanalyse_all() {
    for (auto& [uri, doc] : documents_) {
        doc.analysis.reset();
        doc.publish = true;
    }
}

void Server::invalidate_importers(const std::string& path) {
    std::error_code ec;
    const auto key = std::filesystem::weakly_canonical(path, ec);
    for (auto& [uri, doc] : documents_) {
        if (!doc.analysis || doc.path == path) continue;
        for (const auto& file : doc.analysis->load.files) {
            std::error_code e;
            if (std::filesystem::weakly_canonical(file, e) == key) {
                doc.analysis.reset();
                doc.publish = true;
                break;
            }
        }
    }
}

Server::Document& Server::document(const json& params) {
    const std::string uri = string_at(object_at(params, "textDocument", ""), "uri", "textDocument");
    const auto it = documents_.find(uri);
    if (it == documents_.end()) throw std::out_of_range("not an open document: " + uri);
    return it->second;
}

const Analysis& Server::analysis(Document& doc) {
    if (!doc.analysis) {
        // The other open documents as the editor has them: an import of one
        // reads its unsaved text.
        LoadOptions load = options_.load;
        RecordsOptions records = options_.records;
        for (const auto& [uri, other] : documents_)
            if (&other != &doc) {
                load.unsaved[other.path] = other.text.str();
                records.unsaved[other.path] = other.text.str();
            }
        poll();
        auto fresh = std::make_shared<const Analysis>(analyze(doc.text.str(), doc.path, load));
        poll();
        // Kept only once priced: work interrupted here is done again next time.
        doc.live.update(*fresh, doc.text, layer_setting_, root_dir_, records, [this] { poll(); });
        doc.analysis = std::move(fresh);
        if (doc.analysis->parsed) doc.parsed = doc.analysis;
    }
    return *doc.analysis;
}

json Server::request(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "shutdown") {
        shutdown_ = true;
        return nullptr;
    }
    // A method it does not serve is said before the document is looked up or analysed.
    static const std::set<std::string, std::less<>> served{
        "textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/prepareRename",
        "textDocument/rename", "textDocument/documentSymbol", "textDocument/completion", "textDocument/formatting",
        "textDocument/semanticTokens/full", "textDocument/codeAction", "textDocument/inlayHint", "textDocument/codeLens"};
    if (!served.contains(method)) throw std::domain_error("no method " + method);
    Document& doc = document(params);
    const Analysis& a = analysis(doc);
    const Text& text = doc.text;
    auto at = [&] {
        const json* p = member(params, "position");
        if (!p) throw ProtocolError(error::kInvalidParams, "position: needs an object with `line` and `character`, it is missing");
        return pos_from_json(*p);
    };
    auto range = [&] {
        const json* r = member(params, "range");
        if (!r) throw ProtocolError(error::kInvalidParams, "range: needs an object with `start` and `end`, it is missing");
        return range_from_json(*r);
    };
    if (method == "textDocument/hover") return hover(a, text, at());
    if (method == "textDocument/definition") return definition(a, text, at());
    if (method == "textDocument/references")
        return references(a, text, at(), flag_at(member(params, "context") ? params["context"] : json(), "includeDeclaration", true, "context"));
    if (method == "textDocument/prepareRename") return prepare_rename(a, text, at());
    if (method == "textDocument/rename") return rename(a, text, at(), string_at(params, "newName", ""));
    if (method == "textDocument/documentSymbol") return document_symbols(a, text);
    if (method == "textDocument/completion") return completion(doc.parsed ? *doc.parsed : a, text, at());
    if (method == "textDocument/formatting") return formatting(text, doc.path);
    if (method == "textDocument/semanticTokens/full") return semantic_tokens(a, text);
    if (method == "textDocument/codeAction")
        return code_actions(a, text, string_at(params["textDocument"], "uri", "textDocument"), range());
    if (method == "textDocument/inlayHint") return doc.live.inlay_hints(a, text, range());
    if (method == "textDocument/codeLens") return doc.live.code_lenses();
    throw std::domain_error("no method " + method);
}

void Server::notification(const std::string& method, const json& params, std::vector<json>& out) {
    if (method == "exit") {
        exit_code_ = shutdown_ ? 0 : 1;
        return;
    }
    if (!initialized_ || shutdown_) return;  // dropped, as the protocol says
    if (method == "textDocument/didOpen") {
        const json& td = object_at(params, "textDocument", "");
        const std::string uri = string_at(td, "uri", "textDocument");
        const std::int64_t version = td.contains("version") && td["version"].is_number_integer() ? td["version"].get<std::int64_t>() : 0;
        Document doc{Text(string_at(td, "text", "textDocument")), path_of_uri(uri), version, nullptr, nullptr, {}, true};
        reanalyse_all();  // an import that was not found may be this file
        documents_.insert_or_assign(uri, std::move(doc));
    } else if (method == "textDocument/didChange") {
        Document& doc = document(params);
        // Stale from here on, even if a change below is malformed.
        doc.analysis.reset();
        doc.publish = true;
        invalidate_importers(doc.path);
        const json* version = member(params["textDocument"], "version");
        doc.version = version && version->is_number_integer() ? version->get<std::int64_t>() : doc.version + 1;
        const json* changes = member(params, "contentChanges");
        if (!changes || !changes->is_array())
            throw ProtocolError(error::kInvalidParams, "contentChanges: needs an array, got " + (changes ? kind_of(*changes) : std::string("nothing")));
        for (std::size_t i = 0; i < changes->size(); ++i) {
            const json& change = (*changes)[i];
            const std::string where = "contentChanges[" + std::to_string(i) + "]";
            const std::string text = string_at(change, "text", where);
            if (const json* r = member(change, "range"))
                doc.text.replace(range_from_json(*r, where + ".range"), text);
            else
                doc.text = Text(text);
        }
    } else if (method == "textDocument/didClose") {
        const std::string uri = string_at(object_at(params, "textDocument", ""), "uri", "textDocument");
        documents_.erase(uri);
        reanalyse_all();  // its importers read it from disk again
        out.push_back({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
    } else if (method == "workspace/didChangeConfiguration") {
        if (const json* settings = member(params, "settings"))
            if (const auto layer = layer_of(*settings)) layer_setting_ = layer;
        reanalyse_all();
    } else if (method == "workspace/didChangeWatchedFiles" || method == "textDocument/didSave") {
        // A file changed on disk (created, edited, deleted) may be any open
        // document's import, found or not, or its layer: each is read again.
        reanalyse_all();
    }
    // initialized, $/cancelRequest (handled by the batch), $/setTrace, others: nothing to do.
}

}  // namespace oprec::lsp
