#include "serve/server.h"
#include "serve/vendor.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <sys/socket.h>

#include <fmt/format.h>
#include <httplib.h>
#include <nlohmann/json.hpp>

namespace oprec::serve {

namespace fs = std::filesystem;

namespace {

const char* content_type(const fs::path& file) {
    const std::string ext = file.extension().string();
    if (ext == ".html") return "text/html; charset=utf-8";
    if (ext == ".js") return "text/javascript; charset=utf-8";
    if (ext == ".css") return "text/css; charset=utf-8";
    if (ext == ".png") return "image/png";
    return "application/octet-stream";
}

std::optional<std::string> slurp(const fs::path& file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) return std::nullopt;
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    if (!in && !in.eof()) return std::nullopt;
    return text.str();
}

// The Host header's name, without its port ("[::1]:8080" -> "[::1]"), in
// lower case (host names are not case-sensitive).
std::string host_name(const std::string& header) {
    std::string name = header.starts_with("[") ? header.substr(0, header.find(']') + 1) : header.substr(0, header.find(':'));
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
}

// How a host is written in a Host header: an IPv6 address in brackets.
std::string as_host_header(const std::string& host) {
    std::string name = host.find(':') != std::string::npos && !host.starts_with("[") ? "[" + host + "]" : host;
    return host_name(name);
}

std::string json_error(const std::string& message) { return nlohmann::json{{"error", message}}.dump() + "\n"; }

Reply too_large() { return {413, json_error(fmt::format("the request is larger than {} MiB", kMaxBodyBytes >> 20))}; }

// The body read by the route, not by httplib: httplib's own reading
// refuses a form-encoded body (curl -d's type) over 8 KiB, whatever the
// limit set. A reply instead where there is no JSON body to give the service.
std::variant<std::string, Reply> body_of(const httplib::Request& req, const httplib::ContentReader& read) {
    // Multipart bodies go to a receiver per part, which a plain read lacks.
    if (req.is_multipart_form_data()) return Reply{415, json_error("send the request as JSON, not multipart/form-data")};
    std::string body;
    const bool whole = read([&](const char* data, std::size_t n) {
        body.append(data, n);
        return body.size() <= kMaxBodyBytes;
    });
    // Past the limit: read until it, or refused unread by its Content-Length.
    const std::string stated = req.get_header_value("Content-Length");
    std::uint64_t length = 0;
    const auto [end, ec] = std::from_chars(stated.data(), stated.data() + stated.size(), length);
    const bool stated_large = ec == std::errc::result_out_of_range || (ec == std::errc() && length > kMaxBodyBytes);
    if (body.size() > kMaxBodyBytes || (!whole && stated_large)) return too_large();
    if (!whole) return Reply{400, json_error("the request's body could not be read in full")};
    return body;
}

// The methods each API path answers, for a 405's Allow header.
const char* allowed_methods(const std::string& path) {
    if (path == "/api/models") return "GET";
    if (path == "/api/fit" || path == "/api/sweep") return "POST";
    return nullptr;
}

}  // namespace

struct Server::Impl {
    ServerOptions options;
    Service service;
    httplib::Server http;

    explicit Impl(ServerOptions o) : options(std::move(o)), service(options.service) {}

    bool host_allowed(const httplib::Request& req) const {
        // No Host at all: not a browser (every browser sends one), so not
        // the DNS rebinding this check is for.
        if (!req.has_header("Host")) return true;
        const std::string name = host_name(req.get_header_value("Host"));
        if (name == "127.0.0.1" || name == "localhost" || name == "[::1]" || name == as_host_header(options.host))
            return true;
        return std::any_of(options.allow_hosts.begin(), options.allow_hosts.end(),
                           [&](const std::string& h) { return as_host_header(h) == name; });
    }

    static void reply(httplib::Response& res, const Reply& r) {
        res.status = r.status;
        res.set_content(r.body, r.content_type.c_str());
    }

    void serve_file(httplib::Response& res, const std::optional<fs::path>& file) const {
        const auto text = file ? slurp(*file) : std::nullopt;
        if (!text) {
            res.status = 404;
            res.set_content("not found\n", "text/plain");
            return;
        }
        res.set_content(*text, content_type(*file));
    }

    void routes() {
        http.set_payload_max_length(kMaxBodyBytes);
        // Small replies on a kept-alive connection otherwise wait out the
        // peer's delayed ACK (about 40 ms a request; the page asks on every change).
        http.set_tcp_nodelay(true);
        // httplib's defaults set SO_REUSEPORT: a second `oprec serve` on the
        // same port then started without a word and took half the requests.
        // SO_REUSEADDR alone lets a restart bind while old sockets linger.
        http.set_socket_options([](socket_t sock) {
            int yes = 1;
            setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
        http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            if (host_allowed(req)) return httplib::Server::HandlerResponse::Unhandled;
            res.status = 403;
            res.set_content(json_error(fmt::format("Host `{}` refused: serve with --allow-host to accept it",
                                                   host_name(req.get_header_value("Host")))),
                            "application/json");
            return httplib::Server::HandlerResponse::Handled;
        });
        http.Get("/api/models", [this](const httplib::Request&, httplib::Response& res) { reply(res, service.models()); });
        http.Post("/api/fit", [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& read) {
            auto body = body_of(req, read);
            reply(res, std::holds_alternative<Reply>(body) ? std::get<Reply>(body) : service.fit(std::get<std::string>(body)));
        });
        http.Post("/api/sweep", [this](const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& read) {
            auto body = body_of(req, read);
            reply(res, std::holds_alternative<Reply>(body) ? std::get<Reply>(body) : service.sweep(std::get<std::string>(body)));
        });
        // httplib's own refusals (a body over the limit, no route) as JSON,
        // a known API path asked with another method as 405.
        http.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
            if (!res.body.empty()) return;  // a reply of ours
            if (res.status == 404 && allowed_methods(req.path)) {
                res.status = 405;
                res.set_header("Allow", allowed_methods(req.path));
                res.set_content(json_error(fmt::format("{} answers {} only", req.path, allowed_methods(req.path))),
                                "application/json");
            } else if (res.status == 413) {
                reply(res, too_large());
            } else if (req.path.starts_with("/api/")) {
                res.set_content(json_error(res.status == 404 ? "no such API path: see docs/serve.md" : "the request was refused"),
                                "application/json");
            }
        });
        http.Get("/", [this](const httplib::Request&, httplib::Response& res) {
            serve_file(res, options.web_dir / "index.html");
        });
        // Only plain names: no path reaches outside the page's folder.
        http.Get(R"(/vendor/([a-z\-]+\.min\.js))", [this](const httplib::Request& req, httplib::Response& res) {
            serve_file(res, vendor_file(options.vendor_dir, req.matches[1]));
        });
        http.Get(R"(/([a-z_\-]+\.(html|js|css|png)))", [this](const httplib::Request& req, httplib::Response& res) {
            serve_file(res, options.web_dir / std::string(req.matches[1]));
        });
    }
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) { impl_->routes(); }
Server::~Server() = default;

void Server::run(const std::function<void(const std::string& url)>& on_listening) {
    const ServerOptions& o = impl_->options;
    const int port = o.port == 0 ? impl_->http.bind_to_any_port(o.host) : o.port;
    if (port < 0 || (o.port != 0 && !impl_->http.bind_to_port(o.host, o.port)))
        throw std::runtime_error(fmt::format("cannot listen on {}:{}", o.host, o.port));
    const std::string shown = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
    on_listening(fmt::format("http://{}:{}/", shown, port));
    impl_->http.listen_after_bind();
}

void Server::stop() { impl_->http.stop(); }

}  // namespace oprec::serve
