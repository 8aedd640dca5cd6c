// `oprec lsp` end to end, as an editor sees it: a keystroke in the shipped
// records (an incremental change) and the request that follows it, timed
// from writing the change to reading the answer. The change makes the
// server analyse and price the layer again (lint, load, live bytes), so
// this is the dearest request there is; the target is 50 ms (docs/lsp.md).
#include <benchmark/benchmark.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "bench_support.h"

namespace oprec::bench {
namespace {

using nlohmann::json;

// The server as a child process, spoken to through two pipes.
class LspChild {
public:
    LspChild() {
        int to[2], from[2];
        if (pipe(to) != 0 || pipe(from) != 0) throw std::runtime_error("pipe");
        pid_ = fork();
        if (pid_ == 0) {
            dup2(to[0], 0);
            dup2(from[1], 1);
            close(to[1]);
            close(from[0]);
            execl(OPREC_BINARY, OPREC_BINARY, "lsp", static_cast<char*>(nullptr));
            _exit(127);
        }
        close(to[0]);
        close(from[1]);
        in_ = to[1];
        out_ = from[0];
    }
    ~LspChild() {
        send({{"jsonrpc", "2.0"}, {"id", 0}, {"method", "shutdown"}});
        send({{"jsonrpc", "2.0"}, {"method", "exit"}});
        close(in_);
        close(out_);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    void send(const json& m) {
        const std::string body = m.dump();
        const std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
        for (std::size_t at = 0; at < frame.size();) {
            const ssize_t n = write(in_, frame.data() + at, frame.size() - at);
            if (n <= 0) throw std::runtime_error("write");
            at += static_cast<std::size_t>(n);
        }
    }
    // Messages until the response with `id`.
    json wait_for(int id) {
        for (;;) {
            json m = read();
            if (m.contains("id") && m["id"] == id && !m.contains("method")) return m;
        }
    }

private:
    json read() {
        std::size_t length = 0;
        std::string line;
        for (;;) {
            const char c = byte();
            if (c != '\n') {
                line += c;
                continue;
            }
            if (line == "\r" || line.empty()) break;
            if (line.rfind("Content-Length:", 0) == 0) length = std::stoul(line.substr(15));
            line.clear();
        }
        std::string body;
        while (body.size() < length) body += byte();
        try {
            return json::parse(body);
        } catch (const std::exception&) {
            throw std::runtime_error("not JSON (" + std::to_string(length) + " bytes): " + body.substr(0, 200));
        }
    }
    char byte() {
        if (pos_ == buffer_.size()) {
            buffer_.resize(65536);
            const ssize_t n = ::read(out_, buffer_.data(), buffer_.size());
            if (n <= 0) throw std::runtime_error("the server closed its output");
            buffer_.resize(static_cast<std::size_t>(n));
            pos_ = 0;
        }
        return buffer_[pos_++];
    }
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    std::string buffer_;
    std::size_t pos_ = 0;
};

// Arg 0: inlay hints after a keystroke; 1: hover; 2: completion; 3: semantic tokens.
void BM_Lsp_KeystrokeThenRequest(benchmark::State& state) {
    const char* const methods[] = {"textDocument/inlayHint", "textDocument/hover", "textDocument/completion",
                                   "textDocument/semanticTokens/full"};
    const std::string method = methods[state.range(0)];
    const std::string path = std::string(OPREC_SOURCE_DIR) + "/records/op_records.rec";
    const std::string text = "# rec: layer ../examples/llama2-7b.json\n" + read_file(path);
    LspChild server;
    server.send({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}, {"params", {{"capabilities", json::object()}}}});
    server.wait_for(1);
    const std::string uri = "file://" + path;
    server.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didOpen"},
                 {"params", {{"textDocument", {{"uri", uri}, {"languageId", "rec"}, {"version", 1}, {"text", text}}}}}});
    // The keystroke: a space typed and deleted in turn at the end of the
    // qkv formula's line (line 48 once the layer line is added).
    const json where = {{"line", 48}, {"character", 4}};
    int id = 2, version = 1;
    double worst = 0;
    for (auto _ : state) {
        const bool add = version % 2 == 1;
        const json end = add ? where : json{{"line", 48}, {"character", 5}};
        const auto start = std::chrono::steady_clock::now();
        server.send({{"jsonrpc", "2.0"}, {"method", "textDocument/didChange"},
                     {"params", {{"textDocument", {{"uri", uri}, {"version", ++version}}},
                                 {"contentChanges", json::array({{{"range", {{"start", where}, {"end", end}}}, {"text", add ? " " : ""}}})}}}});
        const json whole = {{"start", {{"line", 0}, {"character", 0}}}, {"end", {{"line", 200}, {"character", 0}}}};
        const json params = {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 49}, {"character", 12}}}, {"range", whole}};
        server.send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
        const json reply = server.wait_for(id++);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (!reply.contains("result")) return state.SkipWithError(("no result: " + reply.dump()).c_str());
        worst = std::max(worst, seconds);
        state.SetIterationTime(seconds);
    }
    state.counters["worst_ms"] = benchmark::Counter(worst * 1e3);
    state.SetLabel(method);
}
BENCHMARK(BM_Lsp_KeystrokeThenRequest)->DenseRange(0, 3)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(200);

}  // namespace
}  // namespace oprec::bench
