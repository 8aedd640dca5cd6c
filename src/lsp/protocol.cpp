#include "lsp/protocol.h"

#include <cctype>
#include <filesystem>

#include <fmt/format.h>

namespace oprec::lsp {

json to_json(const Pos& p) { return {{"line", p.line}, {"character", p.character}}; }
json to_json(const Range& r) { return {{"start", to_json(r.start)}, {"end", to_json(r.end)}}; }

Pos pos_from_json(const json& j) {
    // Negative or missing numbers are a client's mistake: clamp, never throw.
    auto get = [&](const char* key) -> std::uint32_t {
        const auto it = j.find(key);
        if (it == j.end() || !it->is_number()) return 0;
        const double v = it->get<double>();
        return v <= 0 ? 0 : v >= 4e9 ? 4000000000u : static_cast<std::uint32_t>(v);
    };
    return {get("line"), get("character")};
}

Range range_from_json(const json& j) { return {pos_from_json(j.at("start")), pos_from_json(j.at("end"))}; }

std::string path_of_uri(std::string_view uri) {
    constexpr std::string_view scheme = "file://";
    if (uri.substr(0, scheme.size()) != scheme) return std::string(uri);
    uri.remove_prefix(scheme.size());
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() && std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += static_cast<char>(std::stoi(std::string(uri.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

std::string uri_of_path(const std::string& path) {
    if (path.find("://") != std::string::npos) return path;
    std::error_code ec;
    std::string abs = std::filesystem::absolute(path, ec).lexically_normal().string();
    if (ec) abs = path;
    std::string out = "file://";
    for (const unsigned char c : abs) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

Range range_in(const Analysis& a, const Span& span) {
    if (span.file >= a.load.sources.size()) return {};
    const SourceFile& f = a.load.sources.file(span.file);
    return range_of(span, [&](std::uint32_t l) { return l < f.line_count() ? f.line(l + 1) : std::string_view(); });
}

json location(const Analysis& a, const Span& span) {
    return {{"uri", uri_of_path(a.file_path(span.file))}, {"range", to_json(range_in(a, span))}};
}

}  // namespace oprec::lsp
