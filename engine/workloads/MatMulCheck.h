#pragma once
// The check of the matmul workload's C = A.B in tile memory. Small products
// are compared element by element with a full double-precision product (an
// O(mkn) OpenBLAS dgemm). Larger float products, whose full reference would
// cost as much host time as the simulated run, are checked in O(mn + mk + kn)
// host work plus one thin dgemm:
// - every element, in groups of `groupColumns` columns of one row, by a
//   Freivalds-style projection: C.x against A.(B.x) in double, x a random ±1
//   vector, with a tolerance from the rigorous error bound of float
//   accumulation over k terms (|fl(a.b) - a.b| <= gamma_k |a|.|b|, any
//   summation order), so a correct product always passes and one element off
//   by more than twice its group's bound always fails;
// - `sampledRows` whole rows element by element against a double product of
//   those rows, with the usual tolerances; their largest error is the
//   verification's max abs error.
#include "engine/workloads/Workload.h"

#include <cstddef>
#include <cstdint>

namespace tessera::workloads {

struct MatMulCheckOptions {
    // Products of at most this many multiply-adds (m*k*n) get the full check,
    // as do half products (half accumulation's bound is too loose to project).
    std::uint64_t fullCheckUpTo = std::uint64_t{1} << 27; // 512^3
    std::size_t sampledRows = 16;
    std::size_t groupColumns = 8;
    std::uint32_t signSeed = 0x5eedu;
};

// Checks the m x n tensor c (row-major) against A = CounterRandom(seedA)
// (m x k) times B = CounterRandom(seedB) (k x n), both of c's element type.
Verification checkMatMul(const Engine& engine, const Tensor& c, std::size_t m, std::size_t k,
                         std::size_t n, std::uint32_t seedA, std::uint32_t seedB,
                         const MatMulCheckOptions& options = {});

// The tolerance of one group's projection |C.x - A.(B.x)| for a product of
// k-term float dot products: (gamma_k + gamma64_{k+g+1}) ||A_i|| sum_j ||B_j||
// + gamma64_g sum_j |C_ij| (the second and third terms bound the double
// arithmetic of the check itself). normsAB = ||A_i|| sum over the group's
// columns j of ||B_j||; absC = sum over them of |C_ij|.
double projectionBound(std::size_t k, std::size_t groupColumns, double normsAB, double absC);

} // namespace tessera::workloads
