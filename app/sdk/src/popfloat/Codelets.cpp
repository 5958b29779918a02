// popfloat::experimental::addCodelets, and the codelets for a deserialised
// executable.
#include "CastCodelets.h"
#include "Impl.h"

#include <popfloat/experimental/codelets.hpp>

namespace popfloat::experimental {

void addCodelets(poplar::Graph& graph) {
    poplar::detail::translate([&] {
        detail::addCastCodelets(poplar::detail::Access::graph(graph).graph);
        return 0;
    });
}

namespace {
[[maybe_unused]] const bool kProviderRegistered =
    (poplar::detail::registerCodeletProvider(&detail::addCastCodelets), true);
} // namespace

} // namespace popfloat::experimental
