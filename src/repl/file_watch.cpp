#include "repl/file_watch.h"

#include <algorithm>

namespace oprec::repl {

namespace fs = std::filesystem;

FileWatch::Stamp FileWatch::stamp(const fs::path& file) {
    std::error_code ec;
    Stamp s;
    s.mtime = fs::last_write_time(file, ec);
    if (ec) return Stamp{};
    s.size = fs::file_size(file, ec);
    if (ec) return Stamp{};
    s.exists = true;
    return s;
}

void FileWatch::watch(const std::vector<fs::path>& files, const FileWatch* before) {
    std::vector<fs::path> new_files;
    std::vector<Stamp> new_stamps;
    for (const fs::path& f : files) {
        if (std::find(new_files.begin(), new_files.end(), f) != new_files.end()) continue;
        std::optional<Stamp> earlier;
        if (before != nullptr) {
            auto it = std::find(before->files_.begin(), before->files_.end(), f);
            if (it != before->files_.end()) earlier = before->stamps_[static_cast<std::size_t>(it - before->files_.begin())];
        }
        new_files.push_back(f);
        new_stamps.push_back(earlier ? *earlier : stamp(f));
    }
    files_ = std::move(new_files);
    stamps_ = std::move(new_stamps);
}

std::optional<fs::path> FileWatch::changed() const {
    for (std::size_t i = 0; i < files_.size(); ++i)
        if (stamp(files_[i]) != stamps_[i]) return files_[i];
    return std::nullopt;
}

}  // namespace oprec::repl
