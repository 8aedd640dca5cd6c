#include "lsp/protocol.h"

#include <cctype>
#include <filesystem>

#include <fmt/format.h>

namespace oprec::lsp {

json to_json(const Pos& p) { return {{"line", p.line}, {"character", p.character}}; }
json to_json(const Range& r) { return {{"start", to_json(r.start)}, {"end", to_json(r.end)}}; }

const json* member(const json& j, std::string_view key) {
    if (!j.is_object()) return nullptr;
    const auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string kind_of(const json& j) {
    switch (j.type()) {
        case json::value_t::null: return "null";
        case json::value_t::object: return "an object";
        case json::value_t::array: return "an array";
        case json::value_t::string: return "a string";
        case json::value_t::boolean: return "a boolean";
        case json::value_t::number_integer:
        case json::value_t::number_unsigned: return "an integer";
        case json::value_t::number_float: return "a number with a fraction";
        default: return "not a JSON value";
    }
}

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& needs, const json* got) {
    throw ProtocolError(error::kInvalidParams, where + ": needs " + needs + (got ? ", got " + kind_of(*got) : ", it is missing"));
}

std::string joined(const std::string& where, std::string_view key) {
    return where.empty() ? std::string(key) : where + "." + std::string(key);
}

}  // namespace

const json& object_at(const json& j, std::string_view key, const std::string& where) {
    const json* m = member(j, key);
    if (!m || !m->is_object()) bad(joined(where, key), "an object", m);
    return *m;
}

std::string string_at(const json& j, std::string_view key, const std::string& where) {
    const json* m = member(j, key);
    if (!m || !m->is_string()) bad(joined(where, key), "a string", m);
    return m->get<std::string>();
}

bool flag_at(const json& j, std::string_view key, bool fallback, const std::string& where) {
    const json* m = member(j, key);
    if (!m || m->is_null()) return fallback;
    if (!m->is_boolean()) bad(joined(where, key), "true or false", m);
    return m->get<bool>();
}

Pos pos_from_json(const json& j, const std::string& where) {
    if (!j.is_object()) bad(where, "an object with `line` and `character`", &j);
    auto get = [&](const char* key) -> std::uint32_t {
        const json* m = member(j, key);
        const std::string at = where + "." + key;
        // LSP's uinteger: 0 to 2^31 - 1.
        if (!m || !m->is_number_integer()) bad(at, "a whole number from 0", m);
        if (m->is_number_unsigned() ? m->get<std::uint64_t>() > 0x7fffffffu : (m->get<std::int64_t>() < 0 || m->get<std::int64_t>() > 0x7fffffff))
            throw ProtocolError(error::kInvalidParams, at + ": needs a whole number from 0 to 2147483647, got " + m->dump());
        return static_cast<std::uint32_t>(m->get<std::int64_t>());
    };
    return {get("line"), get("character")};
}

Range range_from_json(const json& j, const std::string& where) {
    if (!j.is_object()) bad(where, "an object with `start` and `end`", &j);
    const json* start = member(j, "start");
    const json* end = member(j, "end");
    if (!start) bad(where + ".start", "a position", nullptr);
    if (!end) bad(where + ".end", "a position", nullptr);
    return {pos_from_json(*start, where + ".start"), pos_from_json(*end, where + ".end")};
}

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
