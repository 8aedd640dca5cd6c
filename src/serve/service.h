// oprec serve's JSON API, without the HTTP: a request's body in, a status
// and a body out (docs/serve.md). Built on the public API only: the page
// and a script see what an embedder sees. Safe to call from many threads.
#pragma once

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "oprec/fit.h"
#include "oprec/records.h"

namespace oprec::serve {

struct Reply {
    int status = 200;
    std::string body;  // JSON
    std::string content_type = "application/json";
};

struct ServiceOptions {
    std::filesystem::path records_dir;  // holds rank_calibrated.rec, rank_reference.rec
    std::filesystem::path models_dir;   // the bundled config.json files (examples/hf)
    RecordsOptions records_options;     // the data dir and search path, as the command has them
    std::optional<std::filesystem::path> records_file;  // --records FILE: offered as its own name, first
    std::string default_records = "calibrated";          // else this one first
};

// Bounds on what one request may ask (docs/serve.md, docs/limits.md).
inline constexpr std::size_t kMaxBodyBytes = 4u << 20;
inline constexpr std::size_t kMaxSweepPoints = 4096;

struct Request;  // what a fit or sweep request names (service.cpp)

class Service {
public:
    explicit Service(ServiceOptions options);

    Reply models() const;                 // GET /api/models
    Reply fit(std::string_view body);     // POST /api/fit
    Reply sweep(std::string_view body);   // POST /api/sweep

private:
    struct LoadedRecords {
        std::filesystem::file_time_type mtime;
        std::shared_ptr<const Records> records;
        std::map<std::string, std::shared_ptr<const FitModel>> models;  // bundled configs, by name
    };
    std::shared_ptr<const Records> records(const std::string& name, std::shared_ptr<LoadedRecords>& slot);
    std::shared_ptr<const FitModel> model(const Request& request);

    ServiceOptions options_;
    std::vector<std::string> model_names_;  // sorted
    std::mutex mutex_;                      // guards loaded_
    std::map<std::string, std::shared_ptr<LoadedRecords>> loaded_;  // by records name
};

}  // namespace oprec::serve
