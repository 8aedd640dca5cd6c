#include "serve/server.h"
#include "serve/vendor.h"

#include <fstream>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>
#include <httplib.h>

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

// The Host header's name, without its port ("[::1]:8080" -> "[::1]").
std::string host_name(const std::string& header) {
    if (header.starts_with("[")) return header.substr(0, header.find(']') + 1);
    return header.substr(0, header.find(':'));
}

}  // namespace

struct Server::Impl {
    ServerOptions options;
    Service service;
    httplib::Server http;

    explicit Impl(ServerOptions o) : options(std::move(o)), service(options.service) {}

    bool host_allowed(const httplib::Request& req) const {
        const std::string name = host_name(req.get_header_value("Host"));
        if (name == "127.0.0.1" || name == "localhost" || name == "[::1]" || name == options.host) return true;
        return std::find(options.allow_hosts.begin(), options.allow_hosts.end(), name) != options.allow_hosts.end();
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
        http.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            if (host_allowed(req)) return httplib::Server::HandlerResponse::Unhandled;
            res.status = 403;
            res.set_content(fmt::format("{{\"error\": \"Host `{}` refused: serve with --allow-host to accept it\"}}\n",
                                        host_name(req.get_header_value("Host"))),
                            "application/json");
            return httplib::Server::HandlerResponse::Handled;
        });
        http.Get("/api/models", [this](const httplib::Request&, httplib::Response& res) { reply(res, service.models()); });
        http.Post("/api/fit",
                  [this](const httplib::Request& req, httplib::Response& res) { reply(res, service.fit(req.body)); });
        http.Post("/api/sweep",
                  [this](const httplib::Request& req, httplib::Response& res) { reply(res, service.sweep(req.body)); });
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
