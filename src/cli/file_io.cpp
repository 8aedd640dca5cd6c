#include "cli/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

namespace oprec::cli {

namespace fs = std::filesystem;

namespace {
constexpr std::uintmax_t kMaxBytes = 64u << 20;  // as the loader: records are small
}

std::optional<std::string> read_text(const std::string& path, std::string& why) {
    std::string text;
    if (path == "-") {
        // In blocks through stdio: std::cin's synced buffer reads a character
        // at a time, which costs more than pricing a layer per line of --jsonl.
        char block[1 << 16];
        std::size_t n = 0;
        while ((n = std::fread(block, 1, sizeof block, stdin)) > 0) text.append(block, n);
        if (std::ferror(stdin)) {
            why = std::strerror(errno);
            return std::nullopt;
        }
        return text;
    }
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
        why = "it is a directory";
        return std::nullopt;
    }
    if (auto size = fs::file_size(path, ec); !ec && size > kMaxBytes) {
        why = "it is larger than 64 MiB";
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return std::nullopt;
    }
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool write_atomically(const fs::path& path, const std::string& text, std::string& why) {
    const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    std::string temp = (dir / ("." + path.filename().string() + ".oprec-XXXXXX")).string();
    const int fd = mkstemp(temp.data());
    if (fd < 0) {
        why = std::string("cannot create a temporary file in ") + dir.string() + ": " + std::strerror(errno);
        return false;
    }
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            break;
        }
        done += static_cast<std::size_t>(n);
    }
    const bool written = done == text.size() && ::fsync(fd) == 0;
    const int saved = errno;
    ::close(fd);
    std::error_code ec;
    if (!written) {
        why = std::strerror(saved);
        fs::remove(temp, ec);
        return false;
    }
    if (fs::exists(path, ec)) fs::permissions(temp, fs::status(path, ec).permissions(), ec);
    else fs::permissions(temp, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                   fs::perms::others_read, ec);
    fs::rename(temp, path, ec);
    if (ec) {
        why = ec.message();
        fs::remove(temp, ec);
        return false;
    }
    return true;
}

}  // namespace oprec::cli
