// JSON-RPC over a byte stream as LSP frames it: `Content-Length: N` headers,
// a blank line, N bytes of JSON. A reader thread takes messages off the
// stream while the server works, so a `$/cancelRequest` sent after a request
// is seen with it (Server::handle_batch), and a burst of keystrokes is
// analysed once. The reader also raises the server's interrupts: a cancel
// of the request being worked on, `exit` and the end of input stop long
// work at once (Interrupts, server.h).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "lsp/server.h"

namespace oprec::lsp {

// The limits of a frame (docs/lsp.md, "Limits").
inline constexpr std::size_t kMaxMessageBytes = std::size_t{64} << 20;  // a message's body
inline constexpr std::size_t kMaxHeaderLine = 4096;                     // one header line
inline constexpr std::size_t kMaxHeaderLines = 32;                      // headers of one frame
inline constexpr std::size_t kMaxNesting = 512;                         // arrays and objects in a message

// One frame off the stream: its body, or why it could not be read (its
// error code and a message in our words; the stream is resynchronised at
// the next header).
struct Frame {
    std::string body;
    int error_code = 0;  // 0: the body was read
    std::string error;
};

// The next frame; none at the end of the stream.
std::optional<Frame> read_frame(std::istream& in);
// The next readable message's body, frames that cannot be read skipped;
// none at the end of the stream.
std::optional<std::string> read_message(std::istream& in);
void write_message(std::ostream& out, const std::string& body);

// A body as a message: the JSON, or the error to answer (-32700 not JSON,
// -32600 nested deeper than kMaxNesting).
struct Parsed {
    json message;
    int error_code = 0;
    std::string error;
};
Parsed parse_message(const std::string& body);

// Serves until `exit` (returning its code) or the end of input (1).
// `detach_reader`: at `exit` leave the reader blocked on input (stdin) to die
// with the process, instead of waiting for the stream to end.
int serve(Server& server, std::istream& in, std::ostream& out, bool detach_reader);

}  // namespace oprec::lsp
