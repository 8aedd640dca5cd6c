#include "diag/read_file.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

namespace oprec {

namespace fs = std::filesystem;

namespace {
std::string too_large(std::uintmax_t max_bytes) { return fmt::format("it is larger than {} MiB", max_bytes >> 20); }
}  // namespace

std::optional<std::string> read_file_capped(const fs::path& path, std::uintmax_t max_bytes, std::string& why,
                                            bool regular_only) {
    std::error_code ec;
    const fs::file_status status = fs::status(path, ec);
    if (fs::is_directory(status)) {
        why = "it is a directory";
        return std::nullopt;
    }
    if (regular_only && fs::exists(status) && !fs::is_regular_file(status)) {
        why = "it is not a regular file";
        return std::nullopt;
    }
    if (fs::is_regular_file(status)) {
        const auto size = fs::file_size(path, ec);
        if (!ec && size > max_bytes) {
            why = too_large(max_bytes);
            return std::nullopt;
        }
    }
    // Opened without blocking: a FIFO no one writes to would otherwise hold
    // the open for ever. Then reads block again, and such a FIFO reads as
    // empty (no writer is end of file) while a pipe being written streams.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        why = "it cannot be opened";
        return std::nullopt;
    }
    if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    std::string text;
    char buffer[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            why = std::string("reading it failed: ") + std::strerror(errno);
            ::close(fd);
            return std::nullopt;
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
        if (text.size() > max_bytes) {  // a device or pipe whose size said nothing
            why = too_large(max_bytes);
            ::close(fd);
            return std::nullopt;
        }
    }
    ::close(fd);
    return text;
}

std::optional<std::string> read_stream_capped(std::FILE* in, std::uintmax_t max_bytes, std::string& why) {
    std::string text;
    char block[1 << 16];
    std::size_t n = 0;
    while ((n = std::fread(block, 1, sizeof block, in)) > 0) {
        text.append(block, n);
        if (text.size() > max_bytes) {
            why = too_large(max_bytes);
            return std::nullopt;
        }
    }
    if (std::ferror(in)) {
        why = std::string("reading it failed: ") + std::strerror(errno);
        return std::nullopt;
    }
    return text;
}

}  // namespace oprec
