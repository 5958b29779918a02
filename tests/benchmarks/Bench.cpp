#include "Bench.h"

#include "OpenBlasCore.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace tessera::bench {

double bestSeconds(const std::function<void()>& fn, int repeats) {
    double best = 1e300;
    for (int i = 0; i < repeats; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        best = std::min(
            best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best;
}

AlternatedSeconds alternatedBestSeconds(const std::function<void()>& value,
                                        const std::function<void()>& reference, int rounds) {
    AlternatedSeconds best{1e300, 1e300};
    for (int i = 0; i < rounds; ++i) {
        best.reference = std::min(best.reference, bestSeconds(reference, 2));
        best.value = std::min(best.value, bestSeconds(value, 2));
    }
    return best;
}

static std::size_t statusField(const char* key) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key, 0) == 0) {
            std::istringstream is(line.substr(std::strlen(key)));
            std::size_t kb = 0;
            is >> kb;
            return kb * 1024;
        }
    }
    return 0;
}

std::size_t peakResidentBytes() {
    return statusField("VmHWM:");
}
std::size_t currentResidentBytes() {
    return statusField("VmRSS:");
}

// A forked child starts without page-table entries for the parent's
// file-backed pages (code, read-only data): the kernel maps them again on
// first use, and they would count as the measured work's memory (about
// 1.2 MB for a graph build, 120 bytes a vertex at 10^4 vertices). Mapping
// every readable file-backed page first puts them in the baseline, as they
// are in a process that has run once.
static void mapFilePagesAgain() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        unsigned long begin = 0, end = 0;
        char perms[5] = "";
        char path[2] = "";
        if (std::sscanf(line.c_str(), "%lx-%lx %4s %*s %*s %*s %1s", &begin, &end, perms, path) ==
                4 &&
            path[0] == '/' && perms[0] == 'r') {
#ifdef MADV_POPULATE_READ
            // Advice only: an older kernel leaves the figure as it was.
            madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_READ);
#endif
        }
    }
}

// Gives the heap's free memory back to the kernel and resets the peak
// resident size to the current one ("5" to clear_refs, Linux 4.0), so the
// peak no longer holds what was given back. Where the reset is refused,
// nothing is given back: the peak stays comparable with the baseline.
static void giveBackFreedHeap() {
    std::ofstream clearRefs("/proc/self/clear_refs");
    if (clearRefs) {
        malloc_trim(0);
        clearRefs << "5" << std::flush;
    }
}

std::size_t peakResidentOfChild(const std::function<void()>& fn) {
    int fds[2];
    if (pipe(fds) != 0) {
        throw std::runtime_error("pipe failed");
    }
    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid == 0) {
        close(fds[0]);
        mapFilePagesAgain();
        // The parent's freed heap memory is resident in the child too: work
        // that reused it grew nothing (a report open after the engine group
        // measured 0 bytes). Giving it back makes the work's memory fresh.
        giveBackFreedHeap();
        const std::size_t before = currentResidentBytes();
        try {
            fn();
        } catch (const std::exception& e) { // never unwind into the parent's code
            std::fprintf(stderr, "tessera-bench: %s\n", e.what());
            std::fflush(stderr);
            _exit(1);
        }
        const std::size_t peak = peakResidentBytes() - before;
        std::fflush(stdout);
        [[maybe_unused]] const auto written = write(fds[1], &peak, sizeof peak);
        _exit(0);
    }
    close(fds[1]);
    std::size_t peak = 0;
    const auto got = read(fds[0], &peak, sizeof peak);
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (got != static_cast<ssize_t>(sizeof peak) || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        throw std::runtime_error("the measured child process failed");
    }
    return peak;
}

void printResult(const std::string& name, double value, const std::string& unit, double reference) {
    const double ratio = reference != 0 ? value / reference : 0;
    std::printf("{\"name\": \"%s\", \"value\": %.6g, \"unit\": \"%s\", \"reference\": %.6g, "
                "\"ratio\": %.4g}\n",
                name.c_str(), value, unit.c_str(), reference, ratio);
    std::fflush(stdout);
}

} // namespace tessera::bench

int main(int argc, char** argv) {
    tessera::bench::Options options;
    // One group: "engine" (reports are in it), "capture", "passes", "build", "views" or "model".
    std::string only;
    std::set<std::string> skipped; // groups a full run leaves out (--skip)
    static const std::set<std::string> kGroups{"engine", "reports", "capture", "passes",
                                               "build",  "views",   "open",    "model"};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--only" || arg == "--skip") {
            if (i + 1 >= argc || kGroups.count(argv[i + 1]) == 0) {
                std::cerr
                    << "tessera-bench: error: " << arg
                    << " needs one of engine, reports, capture, passes, build, views, open or model"
                    << (i + 1 < argc ? std::string(", not '") + argv[i + 1] + "'" : "") << "\n";
                return 2;
            }
            if (arg == "--only") {
                only = argv[++i];
            } else {
                skipped.insert(argv[++i]);
            }
        } else if (arg == "--max-vertices" && i + 1 < argc) {
            char* end = nullptr;
            const double n = std::strtod(argv[++i], &end);
            if (end == argv[i] || *end != '\0' || !(n >= 1)) {
                std::cerr << "tessera-bench: error: --max-vertices needs a count, not '" << argv[i]
                          << "'\n";
                return 2;
            }
            options.maxVertices = static_cast<std::size_t>(n);
        } else if (arg == "--match" && i + 1 < argc) {
            options.match = argv[++i];
        } else if (arg == "--help" || arg == "-h") {
            std::cout
                << "usage: tessera-bench [--quick]\n"
                   "                     [--only "
                   "engine|reports|capture|passes|build|views|open|model]\n"
                   "                     [--skip GROUP]... [--max-vertices N] [--match TEXT]\n"
                   "Prints one JSON object a line: name, value, unit, reference (a native\n"
                   "measurement taken in the same run) and ratio = value / reference.\n"
                   "--quick uses small sizes (for the smoke test).\n"
                   "--only runs one group: engine (engine and reports), reports, capture (whole\n"
                   "captures), passes (the graph build and each compile pass of the matmul\n"
                   "2048^3 and attention 1024 graphs, against the whole), build (graph\n"
                   "construction and compile, 1e4 to 1e7 vertices,\n"
                   "and construction through the Poplar API),\n"
                   "views, open (the 10M-step report opened in the Program pane, part of\n"
                   "views), or model (the model-fidelity microbenchmarks,\n"
                   "docs/model-fidelity.md).\n"
                   "--skip leaves a group out of a full run (the smoke test skips model,\n"
                   "which its own test runs and checks).\n"
                   "--max-vertices skips build benchmarks of larger graphs.\n"
                   "--match runs only the engine benchmarks whose name contains TEXT\n"
                   "(e.g. matmul_512), and no report benchmarks; with --only capture, the\n"
                   "captures whose workload contains TEXT (e.g. matmul).\n";
            return 0;
        } else {
            std::cerr << "tessera-bench: error: unknown argument '" << arg << "' (try --help)\n";
            return 2;
        }
    }
    if (!only.empty() && !skipped.empty()) {
        std::cerr << "tessera-bench: error: --only and --skip do not go together\n";
        return 2;
    }
    // A group runs when named by --only or, in a full run, unless skipped.
    const auto runs = [&](const std::string& group) {
        return only.empty() ? skipped.count(group) == 0 : only == group;
    };
    if (runs("engine")) {
        tessera::bench::reexecWithBestOpenBlasCore(argv);
        std::cerr << "tessera-bench: sgemm reference: " << tessera::bench::openBlasDescription()
                  << "\n";
    }
    try {
        // The build group first: its forked children measure a graph's memory
        // from a heap as a user's program starts with. Forked after the engine
        // group, a child's allocations land in the holes that group's freed
        // heap left (given back to the kernel, so fresh pages again), and a
        // 10^4-vertex build measured 320-340 bytes a vertex instead of 270-290.
        if (runs("build")) {
            tessera::bench::runGraphBuildBenchmarks(options);
            if (tessera::bench::runSdkBuildBenchmarks(options) != 0) {
                return 1;
            }
        }
        if (runs("engine")) {
            tessera::bench::runEngineBenchmarks(options);
        }
        if (runs("capture")) {
            tessera::bench::runCaptureBenchmarks(options);
        }
        if (runs("passes")) {
            tessera::bench::runPassBenchmarks(options);
        }
        if (only == "reports") {
            tessera::bench::runReportBenchmarks(options);
        }
        if (runs("model") && tessera::bench::runModelBenchmarks(options) != 0) {
            return 1;
        }
#ifdef TESSERA_BENCH_VIEWS
        if (runs("views")) {
            tessera::bench::runViewBenchmarks(options); // last: it starts Qt
        }
        if (only == "open") {
            tessera::bench::runOpenBenchmark(options);
        }
#endif
    } catch (const std::exception& e) {
        std::cerr << "tessera-bench: error: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
