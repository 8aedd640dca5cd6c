// Prices the layer document named by its argument with the shipped records,
// then again at each tensor-parallel degree: the layer is bound once and
// only `t` changes between pricings.
#include <cstdint>
#include <iostream>

#include <oprec/oprec.h>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: price LAYER.json\n";
        return 2;
    }
    try {
        const oprec::Records records = oprec::Records::shipped();
        oprec::Layer layer = records.layer_file(argv[1]);
        for (const auto& [part, bytes] : layer.parts()) std::cout << part << " " << bytes.repr() << "\n";
        std::cout << "layer " << layer.total().repr() << "\n";
        for (const std::int64_t t : {1, 2, 4, 8}) {
            layer.set("t", t);
            std::cout << "t=" << t << " " << layer.total().repr() << "\n";
        }
        return 0;
    } catch (const oprec::RecordsError& e) {
        std::cerr << e.what();
    } catch (const oprec::LayerError& e) {
        std::cerr << "price: " << e.what() << "\n";
    } catch (const oprec::PricingError& e) {
        std::cerr << "price: " << e.what() << " [" << e.kind_name() << "]\n";
    }
    return 1;
}
