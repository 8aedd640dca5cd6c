// oprec lsp: the language server over stdio (src/lsp, docs/lsp.md).
#include <iostream>

#include "cli/commands.h"
#include "cli/load_options.h"
#include "cli/paths.h"
#include "lsp/server.h"
#include "lsp/transport.h"

namespace oprec::cli {

void add_lsp_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("lsp", "Serve the Language Server Protocol over stdin/stdout (for editors)");
    // Editors pass --stdio (the only transport, so it is accepted and
    // ignored) and some --clientProcessId=N: extra arguments are ignored.
    cmd->add_flag("--stdio")->description("Talk over stdin and stdout (the default and only transport)");
    cmd->allow_extras();
    cmd->callback([&exit_code] {
        std::ios::sync_with_stdio(false);
        lsp::Server server({load_options(), records_options()});
        exit_code = lsp::serve(server, std::cin, std::cout, /*detach_reader=*/true);
    });
}

}  // namespace oprec::cli
