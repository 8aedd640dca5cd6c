#include "lsp/transport.h"

#include <cctype>
#include <condition_variable>
#include <deque>
#include <istream>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>

namespace oprec::lsp {

namespace {

constexpr std::size_t kMaxMessage = std::size_t{64} << 20;

// What the reader hands the server: bodies in order, then the end.
struct Inbox {
    std::mutex mutex;
    std::condition_variable ready;
    std::deque<std::string> bodies;
    bool ended = false;
};

}  // namespace

std::optional<std::string> read_message(std::istream& in) {
    while (in) {
        std::optional<std::size_t> length;
        std::string line;
        bool any_header = false;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r') line.pop_back();
            if (line.empty()) {
                if (any_header) break;
                continue;  // stray blank lines between frames
            }
            any_header = true;
            constexpr std::string_view key = "content-length:";
            if (line.size() > key.size()) {
                std::string head = line.substr(0, key.size());
                for (char& c : head) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
                if (head == key) {
                    try {
                        const long long n = std::stoll(line.substr(key.size()));
                        if (n >= 0 && static_cast<std::size_t>(n) <= kMaxMessage) length = static_cast<std::size_t>(n);
                    } catch (const std::exception&) {
                    }
                }
            }
        }
        if (!in) return std::nullopt;
        if (!length) continue;  // a frame we cannot read: look for the next
        std::string body(*length, '\0');
        in.read(body.data(), static_cast<std::streamsize>(*length));
        if (static_cast<std::size_t>(in.gcount()) != *length) return std::nullopt;
        return body;
    }
    return std::nullopt;
}

void write_message(std::ostream& out, const std::string& body) {
    out << "Content-Length: " << body.size() << "\r\n\r\n" << body;
    out.flush();
}

int serve(Server& server, std::istream& in, std::ostream& out, bool detach_reader) {
    // std::cin is tied to std::cout: each read would flush the output from
    // the reader thread while the server writes it (frames came out
    // interleaved). Only the server's thread touches `out`.
    in.tie(nullptr);
    auto inbox = std::make_shared<Inbox>();
    std::thread reader([inbox, &in] {
        while (auto body = read_message(in)) {
            std::lock_guard lock(inbox->mutex);
            inbox->bodies.push_back(std::move(*body));
            inbox->ready.notify_one();
        }
        std::lock_guard lock(inbox->mutex);
        inbox->ended = true;
        inbox->ready.notify_one();
    });
    int code = 1;
    for (;;) {
        std::deque<std::string> bodies;
        bool ended = false;
        {
            std::unique_lock lock(inbox->mutex);
            inbox->ready.wait(lock, [&] { return !inbox->bodies.empty() || inbox->ended; });
            bodies.swap(inbox->bodies);
            ended = inbox->ended;
        }
        std::vector<json> batch;
        for (const std::string& body : bodies) {
            json message = json::parse(body, nullptr, /*allow_exceptions=*/false);
            if (message.is_discarded()) {
                write_message(out, json{{"jsonrpc", "2.0"}, {"id", nullptr}, {"error", {{"code", error::kParseError}, {"message", "not JSON"}}}}.dump());
                continue;
            }
            batch.push_back(std::move(message));
        }
        if (!batch.empty())
            for (const json& reply : server.handle_batch(batch))
                write_message(out, reply.dump(-1, ' ', false, json::error_handler_t::replace));
        if (server.exit_code()) {
            code = *server.exit_code();
            break;
        }
        if (ended && bodies.empty()) break;
    }
    if (detach_reader)
        reader.detach();
    else
        reader.join();
    return code;
}

}  // namespace oprec::lsp
