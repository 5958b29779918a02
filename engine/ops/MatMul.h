#pragma once
// Dense matrix product planned across tiles: C (m x n) = A (m x k) . B (k x n).
// The tiles form a pm x pn x pk grid; each computes a partial block product
// from copies of its A and B blocks, then the pk partials of every output
// block are exchanged and summed (the partial-sum-then-reduce shape).
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <cstdint>
#include <string>

namespace tessera::ops {

struct MatMulPlan {
    std::size_t pm = 1, pn = 1, pk = 1; // grid of tiles
    double estimatedCycles = 0;
};

MatMulPlan planMatMul(const Target& target, std::size_t m, std::size_t k, std::size_t n, Type type);
// The same on `tiles` of the target's tiles.
MatMulPlan planMatMulOnTiles(const Target& target, std::size_t tiles, std::size_t m, std::size_t k,
                             std::size_t n, Type type);

// The bytes matMul's own tensors hold while its partial products run, for
// the plan it chooses: the per-tile copies of A's and B's blocks and, when
// the k dimension is split, the float partial sums. A lower bound of its
// memory that needs no graph (workloads check it before building).
std::uint64_t matMulWorkingBytes(const Target& target, std::size_t m, std::size_t k, std::size_t n,
                                 Type type);

Tensor matMul(Graph& graph, program::Sequence& seq, const Tensor& a, const Tensor& b,
              const std::string& name);

// C[g] = A[g] . B[g] for A {G,m,k}, B {G,k,n}: the groups in parallel, each
// planned as matMul on its own tiles (numTiles / G of them; groups share
// tiles when there are more groups than tiles), one compute set per phase.
Tensor matMulGrouped(Graph& graph, program::Sequence& seq, const Tensor& a, const Tensor& b,
                     const std::string& name);

} // namespace tessera::ops
