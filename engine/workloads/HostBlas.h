#pragma once
// OpenBLAS's dgemm for the workloads' host references, loaded the first time
// one is needed. Linked instead, OpenBLAS starts its thread pool when any
// program using the engine starts (tessera-cli, the GUI, every Poplar program
// built against the SDK), and that thread took a core from the compile: a
// matmul 2048^3 capture's median was 0.39 s linked, 0.36 s loaded here
// (docs/BENCHMARKS.md).
#include <cstddef>

namespace tessera::workloads {

// C = alpha A B + beta C, row-major, no transposes: A m x k (row stride lda),
// B k x n (ldb), C m x n (ldc). Throws Error when OpenBLAS cannot be loaded
// (naming the library) or a size does not fit OpenBLAS's int.
void hostDgemm(std::size_t m, std::size_t n, std::size_t k, double alpha, const double* a,
               std::size_t lda, const double* b, std::size_t ldb, double beta, double* c,
               std::size_t ldc);

// Whether OpenBLAS is in the process yet (for tests).
bool hostBlasLoaded();

} // namespace tessera::workloads
