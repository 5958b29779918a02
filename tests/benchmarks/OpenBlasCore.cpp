#include "OpenBlasCore.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#ifdef TESSERA_BENCH_OPENBLAS
#include <cblas.h>
#endif

namespace tessera::bench {

#ifdef TESSERA_BENCH_OPENBLAS
namespace {

// How capable a core's kernels are, by OpenBLAS core name (case-insensitive):
// 3 AVX-512, 2 AVX2 + FMA, 1 AVX, 0 anything older.
int coreRank(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (const char* avx512 : {"skylakex", "cooperlake", "sapphirerapids"}) {
        if (name.find(avx512) != std::string::npos) {
            return 3;
        }
    }
    for (const char* avx2 : {"haswell", "zen"}) {
        if (name.find(avx2) != std::string::npos) {
            return 2;
        }
    }
    return name.find("sandybridge") != std::string::npos ? 1 : 0;
}

} // namespace
#endif

std::string bestOpenBlasCoreForThisCpu() {
#if defined(__x86_64__)
    // libgcc's checks include the OS saving the wider registers (XCR0).
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")) {
        return "SKYLAKEX";
    }
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return "HASWELL";
    }
    if (__builtin_cpu_supports("avx")) {
        return "SANDYBRIDGE";
    }
#endif
    return {};
}

void reexecWithBestOpenBlasCore(char** argv) {
#ifdef TESSERA_BENCH_OPENBLAS
    // Set on the re-executed run, so there is at most one re-execution.
    static const char* const kReexecuted = "TESSERA_BENCH_OPENBLAS_REEXECUTED";
    if (std::getenv(kReexecuted) != nullptr || std::getenv("TESSERA_BENCH_KEEP_OPENBLAS_CORE")) {
        return;
    }
    const std::string best = bestOpenBlasCoreForThisCpu();
    const std::string chosen = openblas_get_corename();
    const bool weakerCore = !best.empty() && coreRank(chosen) < coreRank(best);
    // After each call an OpenBLAS worker spins (sched_yield) for its thread
    // time-out, 2^28 cycles by default (about 0.1 s): on two cores it takes
    // CPU from the engine's run timed right after the reference. The
    // shortest time-out (2^4 cycles) ends the spin without slowing sgemm
    // (docs/BENCHMARKS.md, round 11).
    const bool spinning = std::getenv("OPENBLAS_THREAD_TIMEOUT") == nullptr;
    if (!weakerCore && !spinning) {
        return;
    }
    if (spinning) {
        ::setenv("OPENBLAS_THREAD_TIMEOUT", "4", 1);
    }
    if (weakerCore) {
        // Some machine images set OPENBLAS_CORETYPE for every process; a weaker
        // core than the CPU runs is not the real limit, so it is overridden,
        // saying so (TESSERA_BENCH_KEEP_OPENBLAS_CORE=1 keeps it).
        if (const char* set = std::getenv("OPENBLAS_CORETYPE")) {
            std::cerr << "tessera-bench: OPENBLAS_CORETYPE=" << set << " is weaker than this CPU's "
                      << best << "; the sgemm reference runs " << best << "\n";
        }
        ::setenv("OPENBLAS_CORETYPE", best.c_str(), 1);
    }
    ::setenv(kReexecuted, "1", 1);
    ::execv("/proc/self/exe", argv);
    std::cerr << "tessera-bench: could not re-run with OPENBLAS_CORETYPE=" << best
              << " and OPENBLAS_THREAD_TIMEOUT=4 (" << std::strerror(errno)
              << "); the sgemm reference runs " << chosen << " kernels\n";
#else
    (void)argv;
#endif
}

std::string openBlasDescription() {
#ifdef TESSERA_BENCH_OPENBLAS
    return std::string(openblas_get_config()) + ", core " + openblas_get_corename();
#else
    return "none (built without libopenblas-dev)";
#endif
}

} // namespace tessera::bench
