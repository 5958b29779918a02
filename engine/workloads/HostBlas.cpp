#include "engine/workloads/HostBlas.h"

#include "engine/core/Error.h"

#include <dlfcn.h>

#include <atomic>
#include <climits>
#include <mutex>
#include <string>

namespace tessera::workloads {

namespace {

// OpenBLAS's soname on Linux (Debian: libopenblas0-pthread or -serial).
constexpr const char* kOpenBlas = "libopenblas.so.0";
// The CBLAS ABI: its enums' values are fixed by the standard interface.
constexpr int kCblasRowMajor = 101;
constexpr int kCblasNoTrans = 111;
using Dgemm = void (*)(int, int, int, int, int, int, double, const double*, int, const double*, int,
                       double, double*, int);

std::atomic<bool> loaded{false};

Dgemm dgemm() {
    static std::once_flag once;
    static Dgemm function = nullptr;
    static std::string error;
    std::call_once(once, [] {
        // Never closed: OpenBLAS's threads live as long as the process.
        void* library = dlopen(kOpenBlas, RTLD_NOW | RTLD_LOCAL);
        if (library == nullptr) {
            const char* why = dlerror();
            error = std::string("the host reference needs OpenBLAS (") + kOpenBlas +
                    ", Debian package libopenblas0): " + (why ? why : "not found");
            return;
        }
        function = reinterpret_cast<Dgemm>(dlsym(library, "cblas_dgemm"));
        if (function == nullptr) {
            error = std::string(kOpenBlas) + " has no cblas_dgemm";
            return;
        }
        loaded.store(true, std::memory_order_release);
    });
    if (function == nullptr) {
        throw Error(error);
    }
    return function;
}

// OpenBLAS takes int dimensions; workload dimensions are at most 65536.
int blasInt(std::size_t n) {
    if (n > static_cast<std::size_t>(INT_MAX)) {
        throw Error("not supported by Tessera: a host matrix dimension of " + std::to_string(n));
    }
    return static_cast<int>(n);
}

} // namespace

void hostDgemm(std::size_t m, std::size_t n, std::size_t k, double alpha, const double* a,
               std::size_t lda, const double* b, std::size_t ldb, double beta, double* c,
               std::size_t ldc) {
    const int im = blasInt(m), in = blasInt(n), ik = blasInt(k);
    const int ilda = blasInt(lda), ildb = blasInt(ldb), ildc = blasInt(ldc);
    dgemm()(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, im, in, ik, alpha, a, ilda, b, ildb, beta,
            c, ildc);
}

bool hostBlasLoaded() {
    return loaded.load(std::memory_order_acquire);
}

} // namespace tessera::workloads
