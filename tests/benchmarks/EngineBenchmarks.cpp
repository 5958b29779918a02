// Simulation speed and memory against native host code doing the same work.
#include "Bench.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/runtime/Engine.h"

#include <memory>
#include <vector>

#ifdef TESSERA_BENCH_OPENBLAS
#include <cblas.h>
#endif

namespace tessera::bench {

namespace {

// The native reference: the same product with the same float accumulation order.
void hostMatMul(const std::vector<float>& a, const std::vector<float>& b, std::vector<float>& c,
                std::size_t m, std::size_t k, std::size_t n) {
    std::vector<float> acc(n);
    for (std::size_t i = 0; i < m; ++i) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (std::size_t x = 0; x < k; ++x) {
            const float av = a[i * k + x];
            const float* brow = b.data() + x * n;
            for (std::size_t j = 0; j < n; ++j) {
                acc[j] += av * brow[j];
            }
        }
        std::copy(acc.begin(), acc.end(), c.begin() + static_cast<std::ptrdiff_t>(i * n));
    }
}

#ifdef TESSERA_BENCH_OPENBLAS
// The real limit: OpenBLAS sgemm on both cores of this host.
double openblasSeconds(std::size_t m, std::size_t k, std::size_t n) {
    std::vector<float> a(m * k, 0.5f), b(k * n, 0.25f), c(m * n);
    openblas_set_num_threads(2);
    return bestSeconds(
        [&] {
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f,
                        a.data(), int(k), b.data(), int(n), 0.0f, c.data(), int(n));
        },
        3);
}
#endif

void matmulBenchmark(std::size_t size, const char* target, bool againstOpenblas = false) {
    const std::size_t m = size, k = size, n = size;
    Graph graph(Target::preset(target));
    Tensor a = graph.addVariable(Type::Float, {m, k}, "A");
    Tensor b = graph.addVariable(Type::Float, {k, n}, "B");
    ops::mapLinearly(graph, a, k);
    ops::mapLinearly(graph, b, n);
    program::Sequence init, prog;
    ops::fill(graph, init, a, 0.5, "fillA");
    ops::fill(graph, init, b, 0.25, "fillB");
    Tensor c = ops::matMul(graph, prog, a, b, "matmul");
    graph.createHostRead("C", c);
    Engine engine(graph, {init, prog});
    engine.run(0);
    const double simulated = bestSeconds([&] { engine.run(1); }, 3);

    const std::string name = "engine.matmul_" + std::to_string(size) + "_" + target;
    if (size <= 512) { // the plain loop takes seconds beyond
        std::vector<float> ha(m * k, 0.5f), hb(k * n, 0.25f), hc(m * n);
        const double native = bestSeconds([&] { hostMatMul(ha, hb, hc, m, k, n); }, 3);
        printResult(name + ".wall_time", simulated, "s", native);
    }
#ifdef TESSERA_BENCH_OPENBLAS
    if (againstOpenblas) {
        printResult(name + ".wall_time_vs_openblas", simulated, "s", openblasSeconds(m, k, n));
    }
#else
    (void)againstOpenblas;
#endif
}

// The simulated chain c = a + b, inputs filled on the device so no host copy
// of the data is held.
struct ElementwiseProgram {
    explicit ElementwiseProgram(std::size_t elements)
        : graph(Target::preset("mk2")) {
        Tensor a = graph.addVariable(Type::Float, {elements}, "a");
        Tensor b = graph.addVariable(Type::Float, {elements}, "b");
        ops::mapLinearly(graph, a, 8);
        ops::mapLinearly(graph, b, 8);
        program::Sequence init, prog;
        ops::fill(graph, init, a, 1.5, "fillA");
        ops::fill(graph, init, b, 2.0, "fillB");
        Tensor c = ops::binary(graph, prog, "Add", a, b, "add");
        graph.createHostRead("c", c);
        engine = std::make_unique<Engine>(graph, std::vector<program::Program>{init, prog});
        engine->run(0);
    }
    Graph graph;
    std::unique_ptr<Engine> engine;
};

void elementwiseBenchmark(std::size_t elements) {
    const std::string name = "engine.elementwise_" + std::to_string(elements);
    const double held = 3.0 * static_cast<double>(elements) * sizeof(float);
    const std::size_t peak = peakResidentOfChild([&] {
        ElementwiseProgram p(elements);
        p.engine->run(1);
    });
    printResult(name + ".peak_memory", static_cast<double>(peak), "bytes", held);
    double simulated = 0;
    {
        ElementwiseProgram p(elements);
        simulated = bestSeconds([&] { p.engine->run(1); }, 3);
    }
    std::vector<float> ha(elements, 1.5f), hb(elements, 2.0f), hc(elements);
    const double native = bestSeconds(
        [&] {
            for (std::size_t i = 0; i < elements; ++i) {
                hc[i] = ha[i] + hb[i];
            }
        },
        3);
    printResult(name + ".wall_time", simulated, "s", native);
}

} // namespace

void runEngineBenchmarks(const Options& options) {
    // Memory is measured in a child forked before anything else allocates, so
    // freed-but-resident memory of another benchmark cannot hide its peak.
    if (options.quick) {
        elementwiseBenchmark(1 << 16);
        matmulBenchmark(64, "tiles:16");
    } else {
        elementwiseBenchmark(32u << 20);
        for (const std::size_t size : {512, 1024, 2048}) {
            matmulBenchmark(size, "mk2", true);
        }
    }
    runReportBenchmarks(options);
}

} // namespace tessera::bench
