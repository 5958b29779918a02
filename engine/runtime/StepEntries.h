#pragma once
// Walks the field entries of an Execute step's vertices in the order
// StepPlan::entries holds them (vertex by vertex, field by field, a list's
// entries one after another): fn(vertex index, entry index, the field).
#include "engine/compiler/Compiled.h"
#include "engine/graph/Graph.h"

#include <cstddef>
#include <cstdint>

namespace tessera::runtime {

template <typename Fn>
void forEachEntry(const Graph& graph, const compiler::StepPlan& step, Fn&& fn) {
    for (std::size_t vi = 0; vi < step.vertices.size(); ++vi) {
        const VertexId vertex = step.vertices[vi].vertex;
        const CodeletInfo& codelet = *graph.vertex(vertex).codelet;
        std::uint64_t e = step.vertices[vi].firstEntry;
        for (std::size_t f = 0; f < codelet.fields.size(); ++f) {
            for (std::size_t n = graph.entryCount(vertex, f); n > 0; --n, ++e) {
                fn(vi, e, codelet.fields[f]);
            }
        }
    }
}

} // namespace tessera::runtime
