// Reading a whole file or standard input (capped), standard input a line at
// a time, and writing a file carefully, for the commands that rewrite files:
// fmt, import, export. Nothing is ever half-written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace oprec::cli {

// The text, or none with `why` saying what went wrong (past `max_bytes`
// among others: diag/read_file.h's caps). "-" reads standard input.
std::optional<std::string> read_text(const std::string& path, std::string& why,
                                     std::uintmax_t max_bytes = std::uintmax_t{64} << 20);
// Writes `text` to `path` as careful tools do: a new file beside it, then a
// rename, so nothing is ever half-written and no temporary is left behind;
// through a symlink to its target (the link stays a link); an existing
// file's mode and owner kept; a file with other hard links (or whose owner
// a new file could not keep) written in place after a backup; a FIFO or a
// device written through. With `read_before` (the text the caller read
// from it), a file changed since is left as it is and the new text put
// beside it as PATH.oprec-new. False with `why` when it did not write.
bool write_file(const std::filesystem::path& path, const std::string& text, std::string& why,
                const std::string* read_before = nullptr);

}  // namespace oprec::cli

namespace oprec::cli {

// Lines of a file descriptor (standard input for --jsonl), one at a time in
// constant memory: a line longer than `max_line` is not kept (next() says
// so), and `before_wait` runs whenever the next read might block, so a
// caller flushes its answers there: each line's answer leaves before the
// next line is waited for, while lines already at hand are answered in one
// batch.
class LineReader {
public:
    LineReader(int fd, std::size_t max_line, std::function<void()> before_wait)
        : fd_(fd), max_line_(max_line), before_wait_(std::move(before_wait)) {}

    enum class Got { Line, TooLong, End, Error };
    // The next line without its newline (a last line without one too).
    Got next(std::string& line);
    int error() const { return error_; }

private:
    bool fill();  // false at the end or on an error

    int fd_;
    std::size_t max_line_;
    std::function<void()> before_wait_;
    std::string buffer_;
    std::size_t at_ = 0;
    bool end_ = false;
    int error_ = 0;
};

}  // namespace oprec::cli
