// oprec-serve, the program behind `oprec serve` (cmd_serve.cpp runs it): a
// local web page that answers "will it fit" as the controls move, and the
// JSON API it uses (src/serve, docs/serve.md). A program of its own because
// the HTTP library brings OpenSSL, whose loading and start-up cost every
// other command about 6 ms of CPU when it was linked into `oprec`.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/paths.h"
#include "serve/server.h"
#include "serve/vendor.h"

namespace oprec::cli {

namespace {

struct ServeArgs {
    std::string host = "127.0.0.1";
    int port = 0;
    bool open = false;
    std::string records;
    std::vector<std::string> allow_hosts;
};

int run(const ServeArgs& args) {
    namespace fs = std::filesystem;
    const fs::path data = data_dir();
    serve::ServerOptions o;
    o.host = args.host;
    o.port = args.port;
    o.allow_hosts = args.allow_hosts;
    o.web_dir = web_dir();
    o.vendor_dir = chart_library_dir();
    std::error_code ec;
    o.service.records_dir = data / "records";
    o.service.models_dir = data / "examples" / "hf";
    o.service.records_options = records_options();
    if (args.records == "reference") o.service.default_records = "reference";
    if (!args.records.empty() && args.records != "calibrated" && args.records != "reference") {
        const fs::path file = resolve_records(args.records);
        if (!fs::is_regular_file(file, ec)) {
            std::cerr << fmt::format("oprec serve: --records {}: no such file\n", args.records);
            return kCannotRun;
        }
        o.service.records_file = file;
    }
    if (!serve::vendor_file(o.vendor_dir, "vega.min.js"))
        std::cerr << "oprec serve: warning: the chart library is missing (run `npm ci` in web/): the page shows "
                     "tables, no charts\n";
    try {
        serve::Server server(o);
        server.run([&](const std::string& url) {
            std::cout << "oprec serve: " << url << std::endl;  // flushed: a script waits for this line
            if (args.open) {
                const std::string command = fmt::format("xdg-open '{}' >/dev/null 2>&1 &", url);
                if (std::system(command.c_str()) != 0) std::cerr << "oprec serve: could not start a browser\n";
            }
        });
    } catch (const std::exception& e) {
        std::cerr << "oprec serve: " << e.what() << '\n';
        return kCannotRun;
    }
    return kOk;
}

}  // namespace

}  // namespace oprec::cli

int main(int argc, char** argv) {
    using namespace oprec::cli;
    auto args = std::make_shared<ServeArgs>();
    CLI::App app{"oprec serve: a local web page: will a training job fit, per pipeline stage, redrawn as the "
                 "strategy changes", "oprec serve"};
    app.add_option("--host", args->host, "The address to listen on (default 127.0.0.1: this machine only)");
    app.add_option("--port", args->port, "The port (default: a free one, printed)")->check(CLI::Range(0, 65535));
    app.add_flag("--open", args->open, "Open the page in the browser");
    app.add_option("--records", args->records,
                   "The whole-rank records offered first: calibrated (the default), reference, or a .rec file "
                   "(read again when it changes)");
    app.add_option("--allow-host", args->allow_hosts, "A Host name to accept besides this machine's (repeatable)");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : kCannotRun;
    }
    const int exit_code = run(*args);
    std::cout.flush();
    if ((!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout)) && exit_code != kCannotRun) {
        std::cerr << "oprec serve: cannot write the output: " << std::strerror(errno != 0 ? errno : EIO) << '\n';
        return kCannotRun;
    }
    return exit_code;
}
