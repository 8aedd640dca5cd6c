// The LSP vocabulary the features share: JSON of positions, ranges and
// locations, file URIs, and the error codes of JSON-RPC and LSP.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lsp/analysis.h"
#include "lsp/text.h"

namespace oprec::lsp {

using json = nlohmann::json;

namespace error {
constexpr int kParseError = -32700;
constexpr int kInvalidRequest = -32600;
constexpr int kMethodNotFound = -32601;
constexpr int kInvalidParams = -32602;
constexpr int kInternalError = -32603;
constexpr int kServerNotInitialized = -32002;
constexpr int kRequestCancelled = -32800;
constexpr int kRequestFailed = -32803;
}  // namespace error

// A message the server cannot act on, said in our words: a request is
// answered with `code` (kInvalidRequest, kInvalidParams), a notification's
// is logged. Never nlohmann's exception text: the client's author reads it.
class ProtocolError : public std::runtime_error {
public:
    ProtocolError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

// Reading params: `where` names the member as the client wrote it
// ("textDocument.uri"); a missing member or one of the wrong type throws
// ProtocolError(kInvalidParams) saying which and what it needs.
const json* member(const json& j, std::string_view key);  // null: not an object, or no such member
const json& object_at(const json& j, std::string_view key, const std::string& where);
std::string string_at(const json& j, std::string_view key, const std::string& where);
// An optional boolean: `fallback` when absent, refused when not a boolean.
bool flag_at(const json& j, std::string_view key, bool fallback, const std::string& where);
// What a JSON value is, for messages: "a string", "an array", ...
std::string kind_of(const json& j);

json to_json(const Pos& p);
json to_json(const Range& r);
// An LSP position (`line`, `character`: whole numbers from 0) or range,
// refused with ProtocolError(kInvalidParams) naming `where`.
Pos pos_from_json(const json& j, const std::string& where = "position");
Range range_from_json(const json& j, const std::string& where = "range");

// file:///a/b%20c.rec <-> /a/b c.rec (other schemes are kept as they are).
std::string path_of_uri(std::string_view uri);
std::string uri_of_path(const std::string& path);

// A span of any file of an analysis as an LSP range, and as a location.
Range range_in(const Analysis& a, const Span& span);
json location(const Analysis& a, const Span& span);

}  // namespace oprec::lsp
