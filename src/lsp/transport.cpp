#include "lsp/transport.h"

#include <cctype>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>

namespace oprec::lsp {

namespace {

// What the reader hands the server: messages (or frames' errors) in order,
// then the end.
struct Inbox {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<Parsed> messages;
    bool ended = false;
};

// One header line, without its CR LF. None at the end of input; an
// over-long line is read to its end and returned cut, `long_line` set.
std::optional<std::string> header_line(std::istream& in, bool& long_line) {
    std::string line;
    long_line = false;
    for (;;) {
        const int c = in.get();
        if (c == std::char_traits<char>::eof()) {
            if (line.empty()) return std::nullopt;
            break;
        }
        if (c == '\n') break;
        if (line.size() < kMaxHeaderLine)
            line += static_cast<char>(c);
        else
            long_line = true;
    }
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

// The deepest nesting of arrays and objects in a JSON text, counted
// outside strings, without parsing it: a message too deep for the
// recursive copies and dumps below is refused before it is parsed.
std::size_t nesting(const std::string& body) {
    std::size_t depth = 0, deepest = 0;
    bool in_string = false;
    for (std::size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return deepest;
}

// A message's text: bytes that are not UTF-8 (echoed from a client's
// header, say) are written as U+FFFD rather than stopping the server.
std::string dumped(const json& message) { return message.dump(-1, ' ', false, json::error_handler_t::replace); }

}  // namespace

std::optional<Frame> read_frame(std::istream& in) {
    std::optional<std::string> length_text;
    std::string problem;
    std::size_t headers = 0;
    for (;;) {
        bool long_line = false;
        const auto line = header_line(in, long_line);
        if (!line) return std::nullopt;  // the input ended (mid-headers too)
        if (line->empty()) {
            if (headers > 0) break;
            continue;  // stray blank lines between frames
        }
        ++headers;
        if (long_line && problem.empty()) problem = "a header line longer than " + std::to_string(kMaxHeaderLine) + " bytes";
        if (headers > kMaxHeaderLines && problem.empty()) problem = "more than " + std::to_string(kMaxHeaderLines) + " header lines";
        const auto colon = line->find(':');
        if (colon == std::string::npos) {
            if (problem.empty()) problem = "a header line without `:` (" + line->substr(0, 40) + ")";
            continue;
        }
        if (lower(trimmed(line->substr(0, colon))) == "content-length") {
            std::string value = trimmed(line->substr(colon + 1));
            if (length_text && *length_text != value && problem.empty()) problem = "two Content-Length headers that disagree";
            length_text = std::move(value);
        }
    }
    if (!problem.empty()) return Frame{{}, error::kParseError, "unreadable frame: " + problem};
    if (!length_text) return Frame{{}, error::kParseError, "unreadable frame: no Content-Length header"};
    unsigned long long length = 0;
    const char* first = length_text->data();
    const char* last = first + length_text->size();
    const auto [end, ec] = std::from_chars(first, last, length);
    if (ec == std::errc::result_out_of_range && end == last)
        length = ~0ull;
    else if (ec != std::errc() || end != last || length_text->empty())
        return Frame{{}, error::kParseError, "unreadable frame: Content-Length is not a whole number (" + length_text->substr(0, 40) + ")"};
    if (length > kMaxMessageBytes) {
        // Skipped unread, in bounded memory, to the next frame.
        in.ignore(static_cast<std::streamsize>(std::min<unsigned long long>(length, std::numeric_limits<std::streamsize>::max())));
        if (!in) return std::nullopt;
        return Frame{{}, error::kInvalidRequest,
                     "a message of " + std::to_string(length) + " bytes: the limit is " + std::to_string(kMaxMessageBytes) + " bytes"};
    }
    std::string body(length, '\0');
    in.read(body.data(), static_cast<std::streamsize>(length));
    if (static_cast<std::size_t>(in.gcount()) != length) return std::nullopt;
    return Frame{std::move(body), 0, {}};
}

std::optional<std::string> read_message(std::istream& in) {
    while (auto frame = read_frame(in))
        if (frame->error_code == 0) return std::move(frame->body);
    return std::nullopt;
}

void write_message(std::ostream& out, const std::string& body) {
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
}

Parsed parse_message(const std::string& body) {
    if (nesting(body) > kMaxNesting)
        return {json(), error::kInvalidRequest, "a message nested deeper than " + std::to_string(kMaxNesting) + " arrays and objects"};
    json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (message.is_discarded()) return {json(), error::kParseError, "the message is not JSON"};
    return {std::move(message), 0, {}};
}

int serve(Server& server, std::istream& in, std::ostream& out, bool detach_reader) {
    // std::cin is tied to std::cout: each read would flush the output from
    // the reader thread while the server writes it (frames came out
    // interleaved). Only the server's thread touches `out`.
    in.tie(nullptr);
    auto inbox = std::make_shared<Inbox>();
    auto interrupts = std::make_shared<Interrupts>();
    server.set_interrupts(interrupts);
    std::thread reader([inbox, interrupts, &in] {
        while (auto frame = read_frame(in)) {
            Parsed parsed = frame->error_code ? Parsed{json(), frame->error_code, std::move(frame->error)} : parse_message(frame->body);
            interrupts->notice(parsed.message);
            std::lock_guard lock(inbox->mutex);
            inbox->messages.push_back(std::move(parsed));
            inbox->ready.notify_one();
        }
        interrupts->end_of_input();
        std::lock_guard lock(inbox->mutex);
        inbox->ended = true;
        inbox->ready.notify_one();
    });
    int code = 1;
    for (;;) {
        std::deque<Parsed> messages;
        bool ended = false;
        {
            std::unique_lock lock(inbox->mutex);
            inbox->ready.wait(lock, [&] { return !inbox->messages.empty() || inbox->ended; });
            messages.swap(inbox->messages);
            ended = inbox->ended;
        }
        // Replies in the order the messages came: what came before an
        // unreadable frame is answered before its error.
        std::vector<json> batch;
        const auto answer = [&] {
            if (!batch.empty())
                for (const json& reply : server.handle_batch(batch)) write_message(out, dumped(reply));
            batch.clear();
        };
        for (Parsed& m : messages) {
            if (m.error_code) {
                answer();
                write_message(out, dumped(json{{"jsonrpc", "2.0"}, {"id", nullptr},
                                               {"error", {{"code", m.error_code}, {"message", m.error}}}}));
                continue;
            }
            batch.push_back(std::move(m.message));
        }
        answer();
        if (server.exit_code()) {
            code = *server.exit_code();
            break;
        }
        if (ended && messages.empty()) break;
    }
    server.set_interrupts(nullptr);
    if (detach_reader)
        reader.detach();
    else
        reader.join();
    return code;
}

}  // namespace oprec::lsp
