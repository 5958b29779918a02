#pragma once
// The generated codelets of ops::reduce (Reduction.h), one per combination of
// operation, types and stage, added to a graph on first use:
//   runs:     `in` is a run of flat elements of the [outer, inner] view of the
//             input, starting `offset` elements into a row of `inner`; the
//             vertex reduces each row it touches into one element of `out`
//             (a partial, or, when final, the scaled / converted output);
//   partials: `in` is a list, one entry per element of `out`: the partials
//             of that output, reduced, scaled, converted and written.
#include "engine/graph/Graph.h"
#include "engine/ops/Reduction.h"

#include <string>

namespace tessera::ops::detail {

struct ReduceCodelet {
    ReduceOp op;       // the operation this stage applies
    bool squareInputs; // SQUARE_ADD's first stage
    Type in, out;      // element types of the edges
    bool final;        // scales, converts and writes (or adds to) the output
    bool update;       // out += result
    bool scaleTensor;  // the scale is a one-element float tensor ("scale" field)
};

// The accumulator type of an operation over `in` (float for half sums and products).
Type accumulatorType(ReduceOp op, Type in);

// Adds the runs codelet (fields in, out[, scale]; states inner, offset,
// constantScale) and returns its name.
std::string runsCodelet(Graph& graph, const ReduceCodelet& c);
// Adds the partials codelet (fields in (a list), out[, scale]; state
// constantScale) and returns its name.
std::string partialsCodelet(Graph& graph, const ReduceCodelet& c);

} // namespace tessera::ops::detail
