// Has a file changed on disk since it was loaded? Each file's modification
// time and size, taken when it was loaded, compared before each command.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace oprec::repl {

class FileWatch {
public:
    struct Stamp {
        bool exists = false;
        std::filesystem::file_time_type mtime{};
        std::uintmax_t size = 0;
        bool operator==(const Stamp&) const = default;
    };

    static Stamp stamp(const std::filesystem::path& file);

    // Watch these files, as they are now, or as `before` found them (a stamp
    // taken before reading a file keeps an edit made while it was read).
    void watch(const std::vector<std::filesystem::path>& files, const FileWatch* before = nullptr);
    // The first watched file that changed since, if any.
    std::optional<std::filesystem::path> changed() const;
    const std::vector<std::filesystem::path>& files() const { return files_; }

private:
    std::vector<std::filesystem::path> files_;
    std::vector<Stamp> stamps_;  // parallel to files_
};

}  // namespace oprec::repl
