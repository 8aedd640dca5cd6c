#include "bench_support.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "check/loader.h"

extern char** environ;

namespace oprec::bench {

const Program& shipped() {
    static const Program program = load_records_file(kRecords, {{kStdlib}});
    return program;
}

std::string layer_path(std::size_t index) {
    return std::string(OPREC_SOURCE_DIR "/examples/") + kLayers.at(index) + ".json";
}

LayerDoc layer(std::size_t index) { return parse_layer_doc_text(read_file(layer_path(index)), layer_path(index)); }

LayerDoc selective_layer(std::size_t index) {
    LayerDoc doc = layer(index);
    doc.context.node = NodeKind::SelRec;
    doc.switches = {{"softmax", Value::integer(0)}, {"dropout", Value::integer(0)}, {"attUp", Value::integer(0)}};
    return doc;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return std::move(text).str();
}

namespace {
// This process's folder of inputs, removed when the benchmarks end.
struct TempDir {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("oprec-bench-" + std::to_string(getpid()));
    ~TempDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};
}  // namespace

std::string temp_file(const std::string& name, const std::string& text) {
    static const TempDir dir;
    std::filesystem::create_directories(dir.path);
    const std::string path = (dir.path / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

int run_process(const std::vector<std::string>& argv, const std::string& stdin_path, std::string* out,
                double* cpu_seconds, long* max_rss_kb) {
    int pipe_fds[2] = {-1, -1};
    if (out != nullptr && pipe(pipe_fds) != 0) return -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY, 0);
    if (out != nullptr) {
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
        posix_spawn_file_actions_addclose(&actions, pipe_fds[0]);
        posix_spawn_file_actions_addclose(&actions, pipe_fds[1]);
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    }
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (out != nullptr) {
        close(pipe_fds[1]);
        if (rc == 0) {
            char buf[4096];
            ssize_t n;
            while ((n = read(pipe_fds[0], buf, sizeof buf)) > 0) out->append(buf, static_cast<std::size_t>(n));
        }
        close(pipe_fds[0]);
    }
    if (rc != 0) return -1;
    int status = 0;
    rusage usage{};
    if (wait4(pid, &status, 0, &usage) != pid) return -1;
    if (cpu_seconds != nullptr)
        *cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                       double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
    if (max_rss_kb != nullptr) *max_rss_kb = usage.ru_maxrss;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace oprec::bench
