// The LSP vocabulary the features share: JSON of positions, ranges and
// locations, file URIs, and the error codes of JSON-RPC and LSP.
#pragma once

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

json to_json(const Pos& p);
json to_json(const Range& r);
Pos pos_from_json(const json& j);
Range range_from_json(const json& j);

// file:///a/b%20c.rec <-> /a/b c.rec (other schemes are kept as they are).
std::string path_of_uri(std::string_view uri);
std::string uri_of_path(const std::string& path);

// A span of any file of an analysis as an LSP range, and as a location.
Range range_in(const Analysis& a, const Span& span);
json location(const Analysis& a, const Span& span);

}  // namespace oprec::lsp
