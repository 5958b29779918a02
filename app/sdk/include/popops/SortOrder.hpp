// popops::SortOrder (popops/SortOrder.hpp): the order topK returns.
#ifndef TESSERA_POPOPS_SORTORDER_HPP
#define TESSERA_POPOPS_SORTORDER_HPP

#include <iosfwd>

namespace popops {

enum class SortOrder {
    NONE, // any order
    ASCENDING,
    DESCENDING
};

std::ostream& operator<<(std::ostream& os, const SortOrder& o);

} // namespace popops

#endif
