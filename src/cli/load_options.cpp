#include "cli/load_options.h"

#include "cli/paths.h"

namespace oprec::cli {

LoadOptions load_options() {
    const RecordsOptions records = records_options();
    LoadOptions options;
    options.search_path.push_back(records.data_dir / "stdlib");
    options.search_path.insert(options.search_path.end(), records.search_path.begin(), records.search_path.end());
    return options;
}

}  // namespace oprec::cli
