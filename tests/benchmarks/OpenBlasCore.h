#pragma once
// The sgemm reference must be OpenBLAS at its best on this host. Debian's
// OpenBLAS picks its kernels from the CPU's model name, and on virtual CPUs
// that report a generic model ("Intel Xeon Processor") it falls back to
// Prescott's SSE3 kernels, 3-4x slower than the AVX-512 ones the CPU runs.
// A weak reference would flatter every ratio, so the benchmark corrects it.
#include <string>

namespace tessera::bench {

// The OpenBLAS core type ("SkylakeX", "Haswell", "Sandybridge") this CPU and
// its OS support, or "" when only older kernels apply.
std::string bestOpenBlasCoreForThisCpu();

// When OpenBLAS runs weaker kernels than bestOpenBlasCoreForThisCpu(), by
// its own choice or by OPENBLAS_CORETYPE, sets OPENBLAS_CORETYPE to the best
// and re-executes this program (OpenBLAS reads it once, when it is loaded).
// TESSERA_BENCH_KEEP_OPENBLAS_CORE=1 keeps OpenBLAS's core. Returns only if
// no re-execution was needed or it failed (the run goes on with what it has).
void reexecWithBestOpenBlasCore(char** argv);

// One line for the output: the OpenBLAS build and the core it runs, or why
// there is no OpenBLAS reference.
std::string openBlasDescription();

} // namespace tessera::bench
