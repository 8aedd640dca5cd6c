#include "cli/file_io.h"

#include "diag/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace oprec::cli {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const std::string& path, std::string& why, std::uintmax_t max_bytes) {
    // "-": in blocks through stdio: std::cin's synced buffer reads a
    // character at a time.
    if (path == "-") return read_stream_capped(stdin, max_bytes, why);
    return read_file_capped(path, max_bytes, why);
}

namespace {

// Writes all of `text` to `fd`; false with errno set on a failure.
bool write_all(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::string error_text(int error) { return std::strerror(error); }

// `text` to a new file made beside `target` (mkstemp), closed and checked;
// its name, or none with `why` (and nothing left behind).
std::optional<std::string> write_beside(const fs::path& target, const std::string& suffix, const std::string& text,
                                        mode_t mode, std::string& why) {
    const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    std::string hidden(".");  // appended, not "." + ...: GCC 12 warns of that falsely (-Wrestrict)
    hidden += target.filename().string();
    hidden += suffix;
    hidden += "-XXXXXX";
    std::string name = (dir / hidden).string();
    const int fd = ::mkstemp(name.data());
    if (fd < 0) {
        why = fmt::format("cannot create a file in {}: {}", dir.string(), error_text(errno));
        return std::nullopt;
    }
    bool ok = write_all(fd, text) && ::fchmod(fd, mode) == 0 && ::fsync(fd) == 0;
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (!ok) {
        why = error_text(error);
        ::unlink(name.c_str());
        return std::nullopt;
    }
    return name;
}

// The mode a new file gets: 0666 less the umask.
mode_t new_file_mode() {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    return 0666 & ~mask;
}

// Into a FIFO, a device or a terminal: through it, as a shell's `>` would.
bool write_through(const fs::path& path, const std::string& text, std::string& why) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        why = error_text(errno);
        return false;
    }
    bool ok = write_all(fd, text);
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (!ok) why = error_text(error);
    return ok;
}

// In place, for a file with other hard links (a rename would split them) or
// whose owner a new file could not keep: a backup of what it holds first,
// removed once the new text is written; restored if writing fails.
bool write_in_place(const fs::path& path, const std::string& old_text, const std::string& text, mode_t mode,
                    std::string& why) {
    const std::optional<std::string> backup = write_beside(path, ".oprec-backup", old_text, mode, why);
    if (!backup) return false;
    const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) {  // not opened, not changed
        why = error_text(errno);
        ::unlink(backup->c_str());
        return false;
    }
    bool ok = write_all(fd, text) && ::fsync(fd) == 0;
    int error = errno;
    if (::close(fd) != 0 && ok) {
        ok = false;
        error = errno;
    }
    if (ok) {
        ::unlink(backup->c_str());
        return true;
    }
    // Restored from the start: what failed may have left more bytes than
    // the old text has (a write through, without truncating, kept them).
    const int restore = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    bool restored = restore >= 0 && write_all(restore, old_text) && ::fsync(restore) == 0;
    if (restore >= 0 && ::close(restore) != 0) restored = false;
    if (restored) {
        ::unlink(backup->c_str());
        why = error_text(error) + " (the file is as it was)";
    } else {
        why = fmt::format("{}; its former text is in `{}`", error_text(error), *backup);
    }
    return false;
}

}  // namespace

bool write_file(const fs::path& path, const std::string& text, std::string& why, const std::string* read_before) {
    std::error_code ec;
    // A symlink's target is written; the link stays a link.
    fs::path real = path;
    if (fs::is_symlink(fs::symlink_status(path, ec))) {
        real = fs::canonical(path, ec);
        if (ec) real = fs::absolute(path, ec).parent_path() / fs::read_symlink(path, ec);  // a dangling link: make its target
    }
    struct stat st{};
    const bool exists = ::stat(real.c_str(), &st) == 0;
    if (exists && S_ISDIR(st.st_mode)) {
        why = "it is a directory";
        return false;
    }
    if (exists && !S_ISREG(st.st_mode)) return write_through(real, text, why);
    // The file's own rights decide, not its directory's: a rename would
    // replace a read-only file wherever the directory is writable.
    if (exists && ::access(real.c_str(), W_OK) != 0) {
        why = error_text(errno);
        return false;
    }
    std::string current;
    if (exists && (read_before != nullptr || st.st_nlink > 1)) {
        std::string read_why;
        std::optional<std::string> now = read_file_capped(real, kMaxRecordsBytes, read_why);
        if (!now) {
            why = "it cannot be read again: " + read_why;
            return false;
        }
        current = std::move(*now);
    }
    const mode_t mode = exists ? (st.st_mode & 07777) : new_file_mode();
    if (read_before != nullptr && exists && current != *read_before) {
        // Someone else wrote it meanwhile: theirs stays, ours goes beside it.
        std::string new_why;
        const fs::path aside = real.string() + ".oprec-new";
        const std::optional<std::string> temp = write_beside(real, ".oprec-new", text, mode, new_why);
        if (temp && ::rename(temp->c_str(), aside.c_str()) == 0) {
            why = fmt::format("it changed since it was read: left as it is, the new text is in `{}`", aside.string());
        } else {
            if (temp) ::unlink(temp->c_str());
            why = "it changed since it was read: left as it is";
        }
        return false;
    }
    if (exists && st.st_nlink > 1) return write_in_place(real, current, text, mode, why);
    const std::optional<std::string> temp = write_beside(real, ".oprec", text, mode, why);
    // None in a directory we may not write: in place would need a backup
    // there too, so that a failed write loses nothing.
    if (!temp) return false;
    if (exists && ::chown(temp->c_str(), st.st_uid, st.st_gid) != 0) {
        // A new file would change the owner: write this one in place instead.
        ::unlink(temp->c_str());
        std::string read_why;
        std::optional<std::string> now = read_file_capped(real, kMaxRecordsBytes, read_why);
        if (!now) {
            why = "it cannot be read again: " + read_why;
            return false;
        }
        return write_in_place(real, *now, text, mode, why);
    }
    if (::rename(temp->c_str(), real.c_str()) != 0) {
        why = error_text(errno);
        ::unlink(temp->c_str());
        return false;
    }
    return true;
}

}  // namespace oprec::cli

namespace oprec::cli {

bool LineReader::fill() {
    if (end_) return false;
    if (at_ > 0) {
        buffer_.erase(0, at_);
        at_ = 0;
    }
    before_wait_();
    char block[1 << 16];
    for (;;) {
        const ssize_t n = ::read(fd_, block, sizeof block);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n < 0) error_ = errno;
            end_ = true;
            return false;
        }
        buffer_.append(block, static_cast<std::size_t>(n));
        return true;
    }
}

LineReader::Got LineReader::next(std::string& line) {
    bool too_long = false;
    std::size_t searched = 0;  // bytes past at_ known to hold no newline
    for (;;) {
        const std::size_t nl = buffer_.find('\n', at_ + searched);
        searched = buffer_.size() - at_;
        if (nl != std::string::npos) {
            if (!too_long) line.assign(buffer_, at_, nl - at_);
            at_ = nl + 1;
            return too_long || line.size() > max_line_ ? Got::TooLong : Got::Line;
        }
        if (buffer_.size() - at_ > max_line_) {  // no end in sight: drop what there is, keep reading
            too_long = true;
            at_ = buffer_.size();
            searched = 0;
        }
        if (!fill()) {
            if (error_ != 0) return Got::Error;
            if (at_ == buffer_.size()) return too_long ? Got::TooLong : Got::End;
            if (!too_long) line.assign(buffer_, at_, buffer_.size() - at_);
            at_ = buffer_.size();
            return too_long ? Got::TooLong : Got::Line;
        }
    }
}

}  // namespace oprec::cli
