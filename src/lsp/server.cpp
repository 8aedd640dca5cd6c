#include "lsp/server.h"

#include <filesystem>
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

}  // namespace

Server::Server(ServerOptions options) : options_(std::move(options)) {
    std::error_code ec;
    root_dir_ = std::filesystem::current_path(ec).string();
}

std::vector<json> Server::handle_batch(const std::vector<json>& messages) {
    std::vector<json> out;
    for (const json& m : messages)
        if (m.is_object() && m.value("method", "") == "$/cancelRequest" && m.contains("params") && m["params"].is_object() &&
            m["params"].contains("id"))
            cancelled_.insert(m["params"]["id"].dump());
    for (const json& m : messages) {
        if (exit_code_) break;
        // Changes in a row are analysed once; a request (or exit) first
        // sees the diagnostics of the changes before it published.
        if (m.is_object() && (m.contains("id") || m.value("method", "") == "exit")) publish(out);
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
    if (!message.is_object() || !message.contains("method") || !message["method"].is_string()) {
        // A response to one of our requests, or nonsense: a request that has
        // an id is told; anything else is dropped.
        if (message.is_object() && message.contains("id") && !message.contains("result") && !message.contains("error"))
            out.push_back(error_response(message["id"], error::kInvalidRequest, "a request needs a method"));
        else if (!message.is_object())
            out.push_back(error_response(nullptr, error::kInvalidRequest, "a message is a JSON object"));
        return;
    }
    const std::string method = message["method"];
    const json params = message.contains("params") ? message["params"] : json::object();
    if (!message.contains("id")) {
        try {
            notification(method, params, out);
        } catch (const std::exception& e) {
            out.push_back({{"jsonrpc", "2.0"}, {"method", "window/logMessage"}, {"params", {{"type", 1}, {"message", method + ": " + e.what()}}}});
        }
        return;
    }
    const json& id = message["id"];
    if (cancelled_.count(id.dump())) {
        out.push_back(error_response(id, error::kRequestCancelled, "cancelled"));
        return;
    }
    if (!initialized_ && method != "initialize") {
        out.push_back(error_response(id, error::kServerNotInitialized, "initialize first"));
        return;
    }
    if (shutdown_ || (initialized_ && method == "initialize")) {
        out.push_back(error_response(id, error::kInvalidRequest, shutdown_ ? "the server is shut down" : "initialized already"));
        return;
    }
    try {
        out.push_back({{"jsonrpc", "2.0"}, {"id", id}, {"result", request(method, params)}});
    } catch (const std::out_of_range& e) {
        out.push_back(error_response(id, error::kInvalidParams, e.what()));
    } catch (const json::exception& e) {
        out.push_back(error_response(id, error::kInvalidParams, e.what()));
    } catch (const std::invalid_argument& e) {
        out.push_back(error_response(id, error::kRequestFailed, e.what()));
    } catch (const std::domain_error& e) {  // an unknown method
        out.push_back(error_response(id, error::kMethodNotFound, e.what()));
    } catch (const std::exception& e) {
        out.push_back(error_response(id, error::kInternalError, e.what()));
    }
}

json Server::initialize(const json& params) {
    initialized_ = true;
    if (params.contains("rootUri") && params["rootUri"].is_string())
        root_dir_ = path_of_uri(params["rootUri"].get<std::string>());
    else if (params.contains("rootPath") && params["rootPath"].is_string())
        root_dir_ = params["rootPath"].get<std::string>();
    if (params.contains("initializationOptions")) layer_setting_ = layer_of(params["initializationOptions"]);
    const json caps = params.value("capabilities", json::object());
    const json ws = caps.value("workspace", json::object());
    client_refreshes_hints_ = ws.value("inlayHint", json::object()).value("refreshSupport", false);
    return {{"capabilities", capabilities()}, {"serverInfo", {{"name", "oprec"}, {"version", "0.1.0"}}}};
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
    const std::string uri = params.at("textDocument").at("uri").get<std::string>();
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
        doc.analysis = std::make_shared<const Analysis>(analyze(doc.text.str(), doc.path, load));
        if (doc.analysis->parsed) doc.parsed = doc.analysis;
        doc.live.update(*doc.analysis, doc.text, layer_setting_, root_dir_, records);
    }
    return *doc.analysis;
}

json Server::request(const std::string& method, const json& params) {
    if (method == "initialize") return initialize(params);
    if (method == "shutdown") {
        shutdown_ = true;
        return nullptr;
    }
    if (method.rfind("textDocument/", 0) != 0) throw std::domain_error("no method " + method);
    Document& doc = document(params);
    const Analysis& a = analysis(doc);
    const Text& text = doc.text;
    auto at = [&] { return pos_from_json(params.at("position")); };
    if (method == "textDocument/hover") return hover(a, text, at());
    if (method == "textDocument/definition") return definition(a, text, at());
    if (method == "textDocument/references")
        return references(a, text, at(), params.value("context", json::object()).value("includeDeclaration", true));
    if (method == "textDocument/prepareRename") return prepare_rename(a, text, at());
    if (method == "textDocument/rename") return rename(a, text, at(), params.at("newName").get<std::string>());
    if (method == "textDocument/documentSymbol") return document_symbols(a, text);
    if (method == "textDocument/completion") return completion(doc.parsed ? *doc.parsed : a, text, at());
    if (method == "textDocument/formatting") return formatting(text, doc.path);
    if (method == "textDocument/semanticTokens/full") return semantic_tokens(a, text);
    if (method == "textDocument/codeAction")
        return code_actions(a, text, params.at("textDocument").at("uri").get<std::string>(), range_from_json(params.at("range")));
    if (method == "textDocument/inlayHint") return doc.live.inlay_hints(a, text, range_from_json(params.at("range")));
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
        const json& td = params.at("textDocument");
        const std::string uri = td.at("uri").get<std::string>();
        const std::int64_t version = td.contains("version") && td["version"].is_number_integer() ? td["version"].get<std::int64_t>() : 0;
        Document doc{Text(td.at("text").get<std::string>()), path_of_uri(uri), version, nullptr, nullptr, {}, true};
        invalidate_importers(doc.path);
        documents_.insert_or_assign(uri, std::move(doc));
    } else if (method == "textDocument/didChange") {
        Document& doc = document(params);
        // Stale from here on, even if a change below is malformed.
        doc.analysis.reset();
        doc.publish = true;
        invalidate_importers(doc.path);
        const json& version = params.at("textDocument").contains("version") ? params["textDocument"]["version"] : json();
        doc.version = version.is_number_integer() ? version.get<std::int64_t>() : doc.version + 1;
        for (const json& change : params.at("contentChanges")) {
            if (change.contains("range"))
                doc.text.replace(range_from_json(change["range"]), change.at("text").get<std::string>());
            else
                doc.text = Text(change.at("text").get<std::string>());
        }
    } else if (method == "textDocument/didClose") {
        const std::string uri = params.at("textDocument").at("uri").get<std::string>();
        if (const auto it = documents_.find(uri); it != documents_.end()) invalidate_importers(it->second.path);
        documents_.erase(uri);
        out.push_back({{"jsonrpc", "2.0"}, {"method", "textDocument/publishDiagnostics"}, {"params", {{"uri", uri}, {"diagnostics", json::array()}}}});
    } else if (method == "workspace/didChangeConfiguration") {
        if (const auto layer = layer_of(params.value("settings", json::object()))) layer_setting_ = layer;
        for (auto& [uri, doc] : documents_) {
            doc.analysis.reset();
            doc.publish = true;
        }
    }
    // initialized, $/cancelRequest (handled by the batch), $/setTrace, others: nothing to do.
}

}  // namespace oprec::lsp
