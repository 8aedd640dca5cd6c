// `--plot FILE.html`: the page's chart of a fit as one self-contained file,
// the chart library and web/chart.js inlined (it opens offline, anywhere).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace oprec::serve {

// The HTML of `fit_json` (FitResult::to_json) drawn as web/chart.js's
// stages chart; none, with `why`, when the page's files are missing.
std::optional<std::string> fit_plot_html(const std::string& title, const std::string& fit_json,
                                         const std::filesystem::path& web_dir,
                                         const std::filesystem::path& vendor_dir, std::string& why);
// The same for `oprec sweep --budget --format json`'s document: the
// strategies that fit, peak memory against recompute, the front drawn.
std::optional<std::string> sweep_plot_html(const std::string& title, const std::string& sweep_json,
                                           const std::filesystem::path& web_dir,
                                           const std::filesystem::path& vendor_dir, std::string& why);

}  // namespace oprec::serve
