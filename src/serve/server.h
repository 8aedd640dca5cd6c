// oprec serve's HTTP side: the page's files, the JSON API of service.h,
// loopback by default, a foreign Host header refused (a web page elsewhere
// must not reach the server through DNS rebinding). docs/serve.md.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "serve/service.h"

namespace oprec::serve {

struct ServerOptions {
    std::string host = "127.0.0.1";
    int port = 0;                          // 0: a free port
    std::vector<std::string> allow_hosts;  // Host names accepted beside the loopback names and `host`
    std::filesystem::path web_dir;         // index.html, app.js, chart.js, style.css
    std::filesystem::path vendor_dir;      // vega.min.js, vega-lite.min.js, vega-embed.min.js
    ServiceOptions service;
};

// Serves until stop() is called from another thread or the process is
// interrupted. `on_listening` is called once with the URL, when requests
// can be made. Throws std::runtime_error when the address cannot be bound.
class Server {
public:
    explicit Server(ServerOptions options);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    void run(const std::function<void(const std::string& url)>& on_listening);
    void stop();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace oprec::serve
