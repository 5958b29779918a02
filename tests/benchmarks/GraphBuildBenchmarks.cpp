// Graph construction and compile speed and memory per vertex (issue 17),
// against the goals: 2M vertices/s each and 300 bytes per vertex.
#include "Bench.h"
#include "engine/compiler/Compiled.h"
#include "engine/core/Error.h"
#include "engine/core/LargeArray.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"

#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace tessera::bench {

namespace {

constexpr double kGoalVerticesPerSecond = 2e6;
constexpr double kGoalBytesPerVertex = 300;
constexpr std::size_t kComputeSets = 4;
constexpr std::size_t kElementsPerVertex = 8;

struct Built {
    program::Sequence program;
};

// Builds what an element-wise PopLibs chain builds: four float tensors mapped
// linearly over every tile of mk2, then four compute sets, each with one
// vertex per 8-element slice of its tensors on the tile holding the slice.
Built buildGraph(Graph& graph, std::size_t vertices) {
    const std::size_t perSet = vertices / kComputeSets;
    const std::size_t elements = perSet * kElementsPerVertex;
    const std::size_t tiles = graph.getTarget().numTiles();
    std::vector<Tensor> t;
    for (const char* name : {"a", "b", "c", "d"}) {
        t.push_back(graph.addVariable(Type::Float, {elements}, name));
    }
    // Tile i holds slices [chunks * i / tiles, chunks * (i + 1) / tiles).
    const std::size_t chunks = perSet;
    auto tileBegin = [&](std::size_t tile) { return chunks * tile / tiles * kElementsPerVertex; };
    for (const Tensor& x : t) {
        for (std::size_t tile = 0; tile < tiles; ++tile) {
            if (tileBegin(tile) < tileBegin(tile + 1)) {
                graph.setTileMapping(x.slice(tileBegin(tile), tileBegin(tile + 1)),
                                     record::idAt<TileId>(tile));
            }
        }
    }
    // c = a + b; d = c * a; a = d - b; b = a + c.
    const struct {
        const char* codelet;
        std::size_t in1, in2, out;
    } ops[kComputeSets] = {{"Add<float>", 0, 1, 2},
                           {"Mul<float>", 2, 0, 3},
                           {"Sub<float>", 3, 1, 0},
                           {"Add<float>", 0, 2, 1}};
    Built built;
    for (std::size_t k = 0; k < kComputeSets; ++k) {
        const ComputeSet cs = graph.addComputeSet("op" + std::to_string(k));
        for (std::size_t tile = 0; tile < tiles; ++tile) {
            for (std::size_t b = tileBegin(tile); b < tileBegin(tile + 1);
                 b += kElementsPerVertex) {
                const std::size_t e = b + kElementsPerVertex;
                VertexRef v = graph.addVertex(cs, ops[k].codelet,
                                              {{"in1", t[ops[k].in1].slice(b, e)},
                                               {"in2", t[ops[k].in2].slice(b, e)},
                                               {"out", t[ops[k].out].slice(b, e)}});
                graph.setTileMapping(v, record::idAt<TileId>(tile));
            }
        }
        built.program.add(program::Execute(cs));
    }
    return built;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The process's CPU seconds: on a loaded machine the honest speed measure
// next to wall time (building and compiling are single-threaded).
double cpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Build and compile in a forked child (so its peak memory is its own); the
// child prints the speeds with `suffix`, the parent the bytes per vertex.
// `rehearsals` builds and compiles made and dropped first, untimed: what the
// timed one then costs without a fresh process's first writes.
std::size_t buildInChild(std::size_t vertices, const std::string& suffix, int rehearsals = 0) {
    const std::string name = "build.vertices_" + std::to_string(vertices);
    return peakResidentOfChild([&] {
        for (int i = 0; i < rehearsals; ++i) {
            Graph graph(Target::preset("mk2"));
            const Built built = buildGraph(graph, vertices);
            compiler::compile(graph, {built.program});
        }
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpuSeconds();
        Graph graph(Target::preset("mk2"));
        const Built built = buildGraph(graph, vertices);
        const double buildSeconds = secondsSince(t0);
        const double buildCpu = cpuSeconds() - c0;
        const auto t1 = std::chrono::steady_clock::now();
        const double c1 = cpuSeconds();
        const compiler::CompiledGraph compiled = compiler::compile(graph, {built.program});
        const double compileSeconds = secondsSince(t1);
        const double compileCpu = cpuSeconds() - c1;
        if (graph.vertices().size() != vertices) {
            throw Error("graph build benchmark made " + std::to_string(graph.vertices().size()) +
                        " vertices, not " + std::to_string(vertices));
        }
        printResult(name + ".construction" + suffix, static_cast<double>(vertices) / buildSeconds,
                    "vertices/s", kGoalVerticesPerSecond);
        printResult(name + ".compile" + suffix, static_cast<double>(vertices) / compileSeconds,
                    "vertices/s", kGoalVerticesPerSecond);
        printResult(name + ".construction_cpu" + suffix, static_cast<double>(vertices) / buildCpu,
                    "vertices/cpu-s", kGoalVerticesPerSecond);
        printResult(name + ".compile_cpu" + suffix, static_cast<double>(vertices) / compileCpu,
                    "vertices/cpu-s", kGoalVerticesPerSecond);
    });
}

// Each size twice. This guest's host takes back memory the guest has left
// free for a few seconds, and the first write to such memory runs at
// 0.2-0.6 GB/s instead of 5 (docs/BENCHMARKS.md): the first child meets the
// machine's memory as it finds it (`_first_touch`), the second, started at
// once, mostly reuses the pages the first just freed. The machine's own
// swings can still be larger than that difference.
//
// Up to 10^5 vertices a third child builds twice and times the second
// (`_warm`): the same work on memory the process has written before, so the
// difference is what this machine charges for first writes (a fresh page
// costs 7-17 us in this guest, and 10^4 vertices write some 900).
void buildBenchmark(std::size_t vertices) {
    const std::string name = "build.vertices_" + std::to_string(vertices);
    buildInChild(vertices, "_first_touch");
    const std::size_t peak = buildInChild(vertices, "");
    printResult(name + ".peak_memory_per_vertex",
                static_cast<double>(peak) / static_cast<double>(vertices), "bytes/vertex",
                kGoalBytesPerVertex);
    if (vertices <= 100'000) {
        buildInChild(vertices, "_warm", 1);
    }
}

// What first writes cost on this machine: 64 MiB of fresh memory written
// once on 4 KiB pages against the same on LargeArray's huge pages. In a guest
// with shadow page tables a 4 KiB fault costs 12-16 us (docs/BENCHMARKS.md).
// And the first write of all against the later ones: memory the host took
// back costs far more than pages this process just gave back.
void freshMemoryBenchmark() {
    constexpr std::size_t kBytes = std::size_t{64} << 20;
    auto firstWrite = [](bool huge) {
        void* p = huge ? detail::mapHugePages(kBytes)
                       : mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                              -1, 0);
        if (p == MAP_FAILED) {
            throw Error("fresh memory benchmark: mmap failed");
        }
        const auto t0 = std::chrono::steady_clock::now();
        std::memset(p, 1, kBytes);
        const double seconds = secondsSince(t0);
        if (huge) {
            detail::unmapHugePages(p, kBytes);
        } else {
            munmap(p, kBytes);
        }
        return seconds;
    };
    // The very first write meets memory the host may have taken back; the
    // later ones reuse the pages just unmapped.
    const double asFound = firstWrite(true);
    double small = 1e9, huge = 1e9;
    for (int i = 0; i < 3; ++i) {
        small = std::min(small, firstWrite(false));
        huge = std::min(huge, firstWrite(true));
    }
    printResult("build.first_write_64MiB.small_pages_vs_huge", small, "s", huge);
    printResult("build.first_write_64MiB.huge_as_found_vs_reused", asFound, "s", huge);
}

} // namespace

void runGraphBuildBenchmarks(const Options& options) {
    freshMemoryBenchmark();
    { // One-time set-up (the codelet library, target tables) outside the measured children.
        Graph graph(Target::preset("mk2"));
        const Built built = buildGraph(graph, kComputeSets);
        compiler::compile(graph, {built.program});
    }
    std::vector<std::size_t> sizes = {10'000, 100'000};
    if (!options.quick) {
        sizes.push_back(1'000'000);
        sizes.push_back(10'000'000);
    }
    for (const std::size_t n : sizes) {
        if (options.maxVertices != 0 && n > options.maxVertices) {
            std::fprintf(stderr, "tessera-bench: build.vertices_%zu skipped (--max-vertices)\n", n);
            continue;
        }
        buildBenchmark(n);
    }
}

} // namespace tessera::bench
