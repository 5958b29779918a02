#pragma once
// Executable::serialize / deserialize: the graph (target, variables with
// their values and mappings, compute sets, vertices, host handles, streams),
// the programs and the codelet shared objects the graph loaded, in one
// self-contained stream. Estimators registered with registerPerfEstimator
// are functions and are not saved.
#include "Impl.h"

#include <iosfwd>
#include <memory>
#include <vector>

namespace poplar::detail {

void writeExecutable(std::ostream& out, const GraphImpl& graph,
                     const std::vector<tessera::program::Program>& programs);

struct ReadExecutable {
    std::shared_ptr<GraphImpl> graph;
    std::vector<tessera::program::Program> programs;
};
ReadExecutable readExecutable(std::istream& in);

} // namespace poplar::detail
