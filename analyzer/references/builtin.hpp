#pragma once
#include "analyzer/references.hpp"

namespace rooflab::references {
void vecadd(ReferenceContext& ctx);  // c = a + b
}  // namespace rooflab::references
