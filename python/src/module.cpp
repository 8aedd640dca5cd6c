// `oprec._oprec`: the compiled half of the package (python/oprec/ is the
// other): records, bound layers, batches, the Hugging Face front end, and
// the object pricer the reference drop-in prices through.
#include "py_values.h"

PYBIND11_MODULE(_oprec, m) {
    using namespace oprec::py_module;
    m.doc() = "oprec's compiled core; use the `oprec` package.";
    register_errors(m);
    register_records(m);
    register_layer(m);
    register_batch(m);
    register_hf(m);
    register_fit(m);
    register_object_pricer(m);
    register_expression(m);
}
