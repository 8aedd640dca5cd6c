// Values by name, in the records' order.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace oprec {

template <class T>
using Named = std::vector<std::pair<std::string, T>>;

}  // namespace oprec
