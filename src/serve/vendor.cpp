#include "serve/vendor.h"

#include <algorithm>
#include <iterator>

namespace oprec::serve {

namespace fs = std::filesystem;

std::optional<fs::path> vendor_file(const fs::path& vendor_dir, const std::string& name) {
    static const char* const known[] = {"vega.min.js", "vega-lite.min.js", "vega-embed.min.js"};
    if (std::find(std::begin(known), std::end(known), name) == std::end(known)) return std::nullopt;
    std::error_code ec;
    const fs::path installed = vendor_dir / name;  // share/oprec/web/vendor/NAME
    if (fs::is_regular_file(installed, ec)) return installed;
    const std::string package = name.substr(0, name.size() - std::string(".min.js").size());
    const fs::path npm = vendor_dir / package / "build" / name;  // web/node_modules/PACKAGE/build/NAME
    if (fs::is_regular_file(npm, ec)) return npm;
    return std::nullopt;
}

}  // namespace oprec::serve
