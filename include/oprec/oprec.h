// oprec's public API: load records once, bind a layer once, change its
// fields and price it as often as a search needs.
//
//   oprec::Records records = oprec::Records::shipped();
//   oprec::Layer layer = records.layer_file("examples/llama2-7b.json");
//   for (std::int64_t t : {1, 2, 4, 8}) {
//       layer.set("t", t);
//       std::cout << t << ": " << layer.total().repr() << "\n";
//   }
#pragma once

#include "oprec/errors.h"  // IWYU pragma: export
#include "oprec/expression.h" // IWYU pragma: export
#include "oprec/fit.h"     // IWYU pragma: export
#include "oprec/hf.h"      // IWYU pragma: export
#include "oprec/layer.h"   // IWYU pragma: export
#include "oprec/number.h"  // IWYU pragma: export
#include "oprec/records.h" // IWYU pragma: export
#include "oprec/sweep.h"   // IWYU pragma: export
