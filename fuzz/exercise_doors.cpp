#include "exercise_doors.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "oprec/errors.h"
#include "oprec/hf.h"
#include "oprec/records.h"

namespace oprec::fuzz {

namespace {

RecordsOptions options() {
    RecordsOptions o;
    o.data_dir = OPREC_SOURCE_DIR;
    return o;
}

// Loaded once per process: the fuzzer runs millions of inputs.
const Records& shipped() {
    static const Records records = Records::shipped(options());
    return records;
}

const Records& with_profiles() {
    static const Records records = [] {
        RecordsOptions o = options();
        o.profiles = "profiles.rec";
        return Records::shipped(o);
    }();
    return records;
}

// Pricing that may raise: its errors are the records' answers, not crashes.
void price(const Layer& layer) {
    try {
        (void)layer.parts();
        (void)layer.total();
        (void)layer.slots();
        (void)layer.report_json();
    } catch (const PricingError&) {
    }
}

}  // namespace

void exercise_yaml_records(std::string_view text) {
    try {
        const Records records = Records::from_text(std::string(text), "fuzz.yaml", options());
        (void)records.to_yaml();
        try {
            price(records.layer_file(std::string(OPREC_SOURCE_DIR) + "/examples/llama2-7b.json"));
        } catch (const LayerError&) {  // records whose schema the example does not fit
        }
    } catch (const RecordsError&) {
    }
}

void exercise_layer_document(std::string_view text) {
    try {
        Layer layer = shipped().layer(text, "fuzz.json");
        price(layer);
        (void)layer.document_json();
    } catch (const LayerError&) {
    }
}

void exercise_hf_config(std::string_view text) {
    // The front end reads a config from a path: the input is written to a
    // file of this process's own, once per input, removed when it ends.
    struct Scratch {
        std::string path = (std::filesystem::temp_directory_path() /
                            ("oprec-fuzz-hf-" + std::to_string(::getpid()) + ".json")).string();
        ~Scratch() {
            std::error_code ignored;
            std::filesystem::remove(path, ignored);
        }
    };
    static const Scratch scratch;
    const std::string& path = scratch.path;
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    for (const char* recompute : {"none", "selective", "full"}) {
        HfStrategy s;
        s.recompute = recompute;
        s.seq = 4096;
        try {
            const HfLayer h = hf_layer(with_profiles(), path, s);
            price(h.layer);
        } catch (const LayerError&) {
            return;  // the config's fault, the same under every setting
        } catch (const PricingError&) {
        }
    }
}

}  // namespace oprec::fuzz
