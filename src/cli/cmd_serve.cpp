// oprec serve: a local web page that answers "will it fit" as the controls
// move, and the JSON API it uses (src/serve, docs/serve.md).
#include <cstdlib>
#include <iostream>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/paths.h"
#include "serve/server.h"

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

void add_serve_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ServeArgs>();
    CLI::App* cmd = app.add_subcommand(
        "serve", "A local web page: will a training job fit, per pipeline stage, redrawn as the strategy changes");
    cmd->add_option("--host", args->host, "The address to listen on (default 127.0.0.1: this machine only)");
    cmd->add_option("--port", args->port, "The port (default: a free one, printed)")->check(CLI::Range(0, 65535));
    cmd->add_flag("--open", args->open, "Open the page in the browser");
    cmd->add_option("--records", args->records,
                    "The whole-rank records offered first: calibrated (the default), reference, or a .rec file "
                    "(read again when it changes)");
    cmd->add_option("--allow-host", args->allow_hosts, "A Host name to accept besides this machine's (repeatable)");
    cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace oprec::cli
