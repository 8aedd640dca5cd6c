// JSON-RPC over a byte stream as LSP frames it: `Content-Length: N` headers,
// a blank line, N bytes of JSON. A reader thread takes messages off the
// stream while the server works, so a `$/cancelRequest` sent after a request
// is seen with it (Server::handle_batch), and a burst of keystrokes is
// analysed once.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "lsp/server.h"

namespace oprec::lsp {

// The next message's body; none at the end of the stream. Frames with a
// missing or absurd length are skipped.
std::optional<std::string> read_message(std::istream& in);
void write_message(std::ostream& out, const std::string& body);

// Serves until `exit` (returning its code) or the end of input (1).
// `detach_reader`: at `exit` leave the reader blocked on input (stdin) to die
// with the process, instead of waiting for the stream to end.
int serve(Server& server, std::istream& in, std::ostream& out, bool detach_reader);

}  // namespace oprec::lsp
