// Where the chart library's files are (the page's and `--plot`'s): kept
// apart from the HTTP server so that the commands that only write a plot
// do not link it (and with it OpenSSL, a few milliseconds of every start).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace oprec::serve {

// An install's share/oprec/web/vendor/NAME, else the source tree's
// web/node_modules/PACKAGE/build/NAME (after `npm ci` in web/); nullopt
// for a name that is not one of the library's three files.
std::optional<std::filesystem::path> vendor_file(const std::filesystem::path& vendor_dir, const std::string& name);

}  // namespace oprec::serve
