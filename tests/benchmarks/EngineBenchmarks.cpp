// Simulation speed and memory against native host code doing the same work.
#include "Bench.h"
#include "NativeKernels.h"
#include "engine/codelets/builtin/Builtins.h"
#include "engine/core/Error.h"
#include "engine/ops/Convolution.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/InPlaceReads.h"
#include "engine/runtime/JoinedVertices.h"
#include "engine/runtime/SharedReplicas.h"
#include "engine/runtime/StepGroups.h"
#include "engine/runtime/ThreadPool.h"
#include "engine/runtime/TileCopies.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
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
// sgemm of m x k and k x n floats on both cores, one product a call.
class OpenblasProduct {
public:
    OpenblasProduct(std::size_t m, std::size_t k, std::size_t n)
        : m_(m)
        , k_(k)
        , n_(n)
        , a_(m * k, 0.5f)
        , b_(k * n, 0.25f)
        , c_(m * n) {
        openblas_set_num_threads(2);
    }
    void operator()() {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m_), int(n_), int(k_), 1.0f,
                    a_.data(), int(k_), b_.data(), int(n_), 0.0f, c_.data(), int(n_));
    }

private:
    std::size_t m_, k_, n_;
    std::vector<float> a_, b_, c_;
};
#endif

// Bytes the exchanges of one run of `program` move (gathers into and
// scatters out of every step it runs; straight-line programs only), and of
// those the bytes vertices read at their source instead of from a copy.
struct ExchangedBytes {
    std::uint64_t moved = 0, readInPlace = 0, sharedReplicas = 0;
    std::uint64_t copied() const { return moved - readInPlace - sharedReplicas; }
};

ExchangedBytes exchangedBytes(const Engine& engine, unsigned program) {
    const compiler::CompiledGraph& compiled = engine.compiled();
    ExchangedBytes bytes;
    for (const compiler::Instruction& in : compiled.programs[program]) {
        if (in.op != compiler::Op::Step) {
            throw Error("exchangedBytes: not supported by Tessera: control flow in the program");
        }
        const compiler::StepPlan& step = compiled.step(in.step);
        for (const auto* transfers : {&step.gather, &step.scatter}) {
            for (const compiler::Transfer& t : *transfers) {
                bytes.moved += t.bytes;
            }
        }
        bytes.readInPlace += engine.bytesReadInPlace(in.step);
        bytes.sharedReplicas += engine.replicaBytesNotCopied(in.step);
    }
    return bytes;
}

// The data-movement floor of a run: `bytes` copied by memcpy in 256 KB
// chunks on two threads, between two buffers of half the engine's tile
// memory each (the working set the run's copies move through).
double exchangeMemcpySeconds(std::uint64_t bytes, std::size_t tileMemoryBytes) {
    constexpr std::size_t chunk = 256 << 10;
    const std::size_t span = std::max<std::size_t>(tileMemoryBytes / 2 / chunk, 1) * chunk;
    std::vector<std::byte> source(span, std::byte{1}), destination(span, std::byte{0});
    ThreadPool pool(2);
    const std::size_t chunks = (bytes + chunk - 1) / chunk;
    return bestSeconds(
        [&] {
            pool.parallelFor(chunks, [&](std::size_t b, std::size_t e) {
                for (std::size_t i = b; i < e; ++i) {
                    const std::size_t offset = i * chunk % span;
                    const std::size_t n = std::min<std::uint64_t>(chunk, bytes - i * chunk);
                    std::memcpy(destination.data() + offset, source.data() + offset, n);
                }
            });
        },
        3);
}

// The floor under the simulation of program 1: only copying the bytes its
// exchanges copy, against the same reference (OpenBLAS) time.
void printExchangeFloor(const std::string& name, const Engine& engine, double reference) {
    const ExchangedBytes bytes = exchangedBytes(engine, 1);
    printResult(name + ".exchange_memcpy_vs_openblas",
                exchangeMemcpySeconds(bytes.copied(), engine.hostMemoryBytes()), "s", reference);
    std::printf("%s: the run's exchanges move %.1f MB, of which vertices read %.1f MB where "
                "they lie, %.1f MB are replicas made once and %.1f MB are copied; its tiles "
                "hold %.1f MB\n",
                name.c_str(), double(bytes.moved) / 1e6, double(bytes.readInPlace) / 1e6,
                double(bytes.sharedReplicas) / 1e6, double(bytes.copied()) / 1e6,
                double(engine.hostMemoryBytes()) / 1e6);
}

// Best CPU time of the process over `repeats` calls: on a shared host the
// wall time measures the other processes' load; one thread's CPU time
// measures (mostly) the work.
double bestCpuSeconds(const std::function<void()>& fn, int repeats) {
    double best = 1e300;
    for (int i = 0; i < repeats; ++i) {
        timespec t0{}, t1{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        fn();
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        best =
            std::min(best, double(t1.tv_sec - t0.tv_sec) + 1e-9 * double(t1.tv_nsec - t0.tv_nsec));
    }
    return best;
}

// A run of program 1 on one thread, in CPU time, with the widest MatMulPartial
// kernel the CPU has against the AVX2 one (same process, same engine,
// alternated), so a kernel change shows apart from the host's load.
void printKernelCpuTime(const std::string& name, const Graph& graph,
                        const std::vector<program::Program>& programs) {
    const std::vector<MatMulKernel> kernels = supportedMatMulKernels();
    if (kernels.back() == MatMulKernel::Avx2 || kernels.size() < 2) {
        return; // nothing wider than AVX2 to compare
    }
    EngineOptions options;
    options.threads = 1;
    Engine engine(graph, programs, options);
    engine.run(0);
    double widest = 1e300, avx2 = 1e300;
    for (int i = 0; i < 3; ++i) {
        setMatMulKernel(MatMulKernel::Avx2);
        avx2 = std::min(avx2, bestCpuSeconds([&] { engine.run(1); }, 2));
        setMatMulKernel(kernels.back());
        widest = std::min(widest, bestCpuSeconds([&] { engine.run(1); }, 2));
    }
    printResult(name + ".cpu_time_1thread_" + matMulKernelName(kernels.back()) + "_vs_avx2", widest,
                "s", avx2);
}

// Program 1 on two engines of one graph in one process, alternated, best
// wall time of each: `value` against `reference`, so one change shows apart
// from the host's load.
void printAlternatedRuns(const std::string& metric, Engine& value, Engine& reference) {
    value.run(0);
    reference.run(0);
    const AlternatedSeconds t =
        alternatedBestSeconds([&] { value.run(1); }, [&] { reference.run(1); }, 4);
    printResult(metric, t.value, "s", t.reference);
}

// A run of program 1 with every exchange written by non-temporal stores
// against every exchange written through the cache (two engines in one
// process, alternated, best wall time of each): whether streaming pays at
// this size. The engine streams a step's exchange only past the cache size.
void printStreamingTime(const std::string& name, const Graph& graph,
                        const std::vector<program::Program>& programs) {
    runtime::setStreaming(runtime::Streaming::Always);
    Engine streamed(graph, programs);
    runtime::setStreaming(runtime::Streaming::Never);
    Engine cached(graph, programs);
    runtime::setStreaming(runtime::Streaming::Auto);
    printAlternatedRuns(name + ".wall_time_streamed_vs_cached", streamed, cached);
}

// A run of program 1 with a runtime feature on against the same run with it
// off: `use(true)` turns it on for engines made afterwards, `use(false)` off.
void printFeatureTime(const std::string& metric, const Graph& graph,
                      const std::vector<program::Program>& programs,
                      const std::function<void(bool)>& use) {
    use(false);
    Engine without(graph, programs);
    use(true);
    Engine with(graph, programs);
    printAlternatedRuns(metric, with, without);
}

// Consecutive steps run tile by tile where they may be
// (runtime/StepGroups.h) against every step run on all tiles before the next.
void printGroupingTime(const std::string& name, const Graph& graph,
                       const std::vector<program::Program>& programs) {
    printFeatureTime(name + ".wall_time_grouped_vs_apart", graph, programs, [](bool on) {
        runtime::setGrouping(on ? runtime::Grouping::Auto : runtime::Grouping::Never);
    });
}

// A run of program 1 whose vertices read gathered inputs where they lie
// (runtime/InPlaceReads.h) against the same run copying every gathered
// byte, each replica copied; then replicas made once (runtime/SharedReplicas.h)
// against each copied, gathered inputs read in place.
void printInPlaceTime(const std::string& name, const Graph& graph,
                      const std::vector<program::Program>& programs) {
    runtime::setShareReplicas(runtime::ShareReplicas::Never);
    runtime::setReadInPlace(runtime::ReadInPlace::Never);
    Engine copied(graph, programs);
    runtime::setReadInPlace(runtime::ReadInPlace::Auto);
    Engine inPlace(graph, programs);
    printAlternatedRuns(name + ".wall_time_in_place_vs_copied", inPlace, copied);
    runtime::setShareReplicas(runtime::ShareReplicas::Auto);
    Engine shared(graph, programs);
    printAlternatedRuns(name + ".wall_time_shared_replicas_vs_each_copied", shared, inPlace);
}

// Consecutive vertices of a tile run as one call where their codelet joins
// them (runtime/JoinedVertices.h) against each vertex called alone.
void printJoinedTime(const std::string& name, const Graph& graph,
                     const std::vector<program::Program>& programs) {
    printFeatureTime(name + ".wall_time_joined_vs_apart", graph, programs, [](bool on) {
        runtime::setJoinVertices(on ? runtime::JoinVertices::Auto : runtime::JoinVertices::Never);
    });
}

bool selected(const Options& options, const std::string& name) {
    return options.match.empty() || name.find(options.match) != std::string::npos;
}

// Engine::run of a type x type -> type N^3 matMul. Against OpenBLAS sgemm on the
// same sizes; for half, sgemm on the inputs widened to float (the host has no
// half gemm), which is what the engine's kernel does too.
void matmulBenchmark(const Options& options, std::size_t size, const char* target,
                     Type type = Type::Float, bool againstOpenblas = false) {
    const std::string name = "engine.matmul_" + std::string(type == Type::Half ? "half_" : "") +
                             std::to_string(size) + "_" + target;
    if (!selected(options, name)) {
        return;
    }
    const std::size_t m = size, k = size, n = size;
    Graph graph(Target::preset(target));
    Tensor a = graph.addVariable(type, {m, k}, "A");
    Tensor b = graph.addVariable(type, {k, n}, "B");
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
    printKernelCpuTime(name, graph, {init, prog});
    printStreamingTime(name, graph, {init, prog});
    printGroupingTime(name, graph, {init, prog});
    printInPlaceTime(name, graph, {init, prog});
    printJoinedTime(name, graph, {init, prog});

    if (size <= 512 && type == Type::Float) { // the plain loop takes seconds beyond
        std::vector<float> ha(m * k, 0.5f), hb(k * n, 0.25f), hc(m * n);
        const double native = bestSeconds([&] { hostMatMul(ha, hb, hc, m, k, n); }, 3);
        printResult(name + ".wall_time", simulated, "s", native);
    }
#ifdef TESSERA_BENCH_OPENBLAS
    if (againstOpenblas) {
        OpenblasProduct openblas(m, k, n);
        const AlternatedSeconds t = alternatedBestSeconds([&] { engine.run(1); }, openblas, 5);
        printResult(name + ".wall_time_vs_openblas", t.value, "s", t.reference);
        printExchangeFloor(name, engine, t.reference);
    }
#else
    (void)againstOpenblas;
#endif
}

// A 3 x 3 convolution without padding (padding reads a zero constant held on
// tile 0, which runs that tile out of memory at these sizes), batch x channels
// x side x side, channels -> channels, on mk2: Engine::run against im2col
// (-O3 -march=native) + sgemm per image on the same inputs.
void convBenchmark(const Options& options, std::size_t batch, std::size_t channels,
                   std::size_t side) {
    const std::string name = "engine.conv2d_" + std::to_string(batch) + "x" +
                             std::to_string(channels) + "x" + std::to_string(side) + "_mk2";
    if (!selected(options, name)) {
        return;
    }
    ops::ConvSpec spec;
    spec.batchSize = batch;
    spec.inputFieldShape = {side, side};
    spec.kernelShape = {3, 3};
    spec.inputChannelsPerGroup = channels;
    spec.outputChannelsPerGroup = channels;
    Graph graph(Target::preset("mk2"));
    Tensor in = ops::createConvInput(graph, spec, "in");
    Tensor weights = ops::createConvWeights(graph, spec, "weights");
    program::Sequence init, prog;
    ops::fill(graph, init, in, 0.5, "fillIn");
    ops::fill(graph, init, weights, 0.25, "fillWeights");
    Tensor out = ops::convolution(graph, prog, in, weights, spec, "conv");
    graph.createHostRead("out", out);
    Engine engine(graph, {init, prog});
    engine.run(0);
    printKernelCpuTime(name, graph, {init, prog});
    printGroupingTime(name, graph, {init, prog});
    printInPlaceTime(name, graph, {init, prog});
    printJoinedTime(name, graph, {init, prog});
#ifdef TESSERA_BENCH_OPENBLAS
    const std::size_t kk = channels * 9, positions = (side - 2) * (side - 2);
    const std::size_t field = side * side;
    std::vector<float> image(batch * channels * field, 0.5f), w(channels * kk, 0.25f),
        columns(kk * positions), result(batch * channels * positions);
    openblas_set_num_threads(2);
    const AlternatedSeconds t = alternatedBestSeconds(
        [&] { engine.run(1); },
        [&] {
            for (std::size_t i = 0; i < batch; ++i) {
                native::im2col(image.data() + i * channels * field, channels, side, side, 3, 0,
                               columns.data());
                cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(channels),
                            int(positions), int(kk), 1.0f, w.data(), int(kk), columns.data(),
                            int(positions), 0.0f, result.data() + i * channels * positions,
                            int(positions));
            }
        },
        5);
    printResult(name + ".wall_time_vs_openblas", t.value, "s", t.reference);
    printExchangeFloor(name, engine, t.reference);
#else
    std::printf("%s: skipped (tessera-bench was built without OpenBLAS)\n", name.c_str());
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

void elementwiseBenchmark(const Options& options, std::size_t elements) {
    const std::string name = "engine.elementwise_" + std::to_string(elements);
    if (!selected(options, name)) {
        return;
    }
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
    const double native =
        bestSeconds([&] { native::add(ha.data(), hb.data(), hc.data(), elements); }, 3);
    printResult(name + ".wall_time", simulated, "s", native);
}

// The elementwise workload's chain, sigmoid(relu(a * b + c) - a), one built-in
// codelet a step as the workload builds it, against the fused host loop.
void chainBenchmark(const Options& options, std::size_t elements) {
    const std::string name = "engine.elementwise_chain_" + std::to_string(elements);
    if (!selected(options, name)) {
        return;
    }
    Graph graph(Target::preset("mk2"));
    Tensor a = graph.addVariable(Type::Float, {elements}, "a");
    Tensor b = graph.addVariable(Type::Float, {elements}, "b");
    Tensor c = graph.addVariable(Type::Float, {elements}, "c");
    for (Tensor* t : {&a, &b, &c}) {
        ops::mapLinearly(graph, *t, 8);
    }
    program::Sequence init, prog;
    ops::fill(graph, init, a, 0.75, "fillA");
    ops::fill(graph, init, b, -1.25, "fillB");
    ops::fill(graph, init, c, 2.0, "fillC");
    const Tensor ab = ops::binary(graph, prog, "Mul", a, b, "mul");
    const Tensor abc = ops::binary(graph, prog, "Add", ab, c, "add");
    const Tensor r = ops::unary(graph, prog, "Relu", abc, "relu");
    const Tensor d = ops::binary(graph, prog, "Sub", r, a, "sub");
    const Tensor out = ops::unary(graph, prog, "Sigmoid", d, "sigmoid");
    graph.createHostRead("out", out);
    Engine engine(graph, {init, prog});
    engine.run(0);
    const double simulated = bestSeconds([&] { engine.run(1); }, 3);
    std::vector<float> ha(elements, 0.75f), hb(elements, -1.25f), hc(elements, 2.0f), ho(elements);
    const double native = bestSeconds(
        [&] { native::chain(ha.data(), hb.data(), hc.data(), ho.data(), elements); }, 3);
    printResult(name + ".wall_time_vs_native", simulated, "s", native);
}

} // namespace

void runEngineBenchmarks(const Options& options) {
    // Memory is measured in a child forked before anything else allocates, so
    // freed-but-resident memory of another benchmark cannot hide its peak.
    if (options.quick) {
        elementwiseBenchmark(options, 1 << 16);
        chainBenchmark(options, 1 << 16);
        matmulBenchmark(options, 64, "tiles:16");
        matmulBenchmark(options, 64, "tiles:16", Type::Half, true);
        convBenchmark(options, 1, 8, 8);
    } else {
        elementwiseBenchmark(options, 32u << 20);
        chainBenchmark(options, 8u << 20);
        for (const std::size_t size : {512, 1024, 2048}) {
            matmulBenchmark(options, size, "mk2", Type::Float, true);
        }
        for (const std::size_t size : {512, 1024, 2048}) {
            matmulBenchmark(options, size, "mk2", Type::Half, true);
        }
        convBenchmark(options, 1, 64, 32);
    }
    if (options.match.empty()) {
        runReportBenchmarks(options);
    }
}

} // namespace tessera::bench
