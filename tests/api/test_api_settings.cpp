// Layer::settings prices every switch setting through LayerSettings' tables:
// each must be, to the bit, what the layer gives when its switches are set
// that way and it is priced as a selective layer.
#include <catch2/catch.hpp>

#include <string>

#include "oprec/oprec.h"

using namespace oprec;

TEST_CASE("Layer::settings: each setting as the layer priced with those switches", "[api]") {
    RecordsOptions options;
    options.data_dir = OPREC_TEST_DATA "/..";
    for (const char* records_name : {"op_records", "calibrated"}) {
        const Records records = Records::load(records_name, options);
        for (const char* example : {"llama2-7b.json", "deepseek-v3-moe.json", "mixtral-8x7b.json", "gqa-dense.json"}) {
            INFO(records_name << " " << example);
            const Layer layer = records.layer_file(std::string(OPREC_TEST_DATA "/../examples/") + example);
            const std::vector<Setting> settings = layer.settings();
            REQUIRE(settings.size() == std::size_t{1} << records.switches().size());
            Layer each = layer;
            each.set_recompute(Recompute::Selective);
            for (const Setting& s : settings) {
                for (std::size_t i = 0; i < records.switches().size(); ++i)
                    each.set_switch(records.switches()[i], ((s.keep_bits >> i) & 1u) != 0);
                const Named<Number> parts = each.parts();
                REQUIRE(parts.size() == s.parts.size());
                for (std::size_t k = 0; k < parts.size(); ++k) {
                    CHECK(parts[k].first == s.parts[k].first);
                    CHECK(parts[k].second.identical(s.parts[k].second));
                }
                CHECK(each.total().identical(s.total));
            }
        }
    }
}
