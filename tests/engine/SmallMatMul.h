#pragma once
// A small matMul of integer-valued floats, run on tiles:64 and checked bit for
// bit against the host's product (every sum is exact), for the suites that
// compare the runtime's shortcuts with copying everything.
#include "EngineRunSupport.h"
#include "engine/graph/Graph.h"
#include "engine/ops/MatMul.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <cstdint>
#include <functional>
#include <tuple>
#include <vector>

namespace tessera::test {

struct IntegerProduct {
    std::size_t m = 0, k = 0, n = 0;
    std::vector<float> a, b, c; // c = a · b, worked out on the host
};

inline IntegerProduct integerProduct(std::size_t m, std::size_t k, std::size_t n) {
    IntegerProduct p{m,
                     k,
                     n,
                     std::vector<float>(m * k),
                     std::vector<float>(k * n),
                     std::vector<float>(m * n, 0.0f)};
    for (std::size_t i = 0; i < p.a.size(); ++i) {
        p.a[i] = float(int(i % 11) - 5);
    }
    for (std::size_t i = 0; i < p.b.size(); ++i) {
        p.b[i] = float(int(i % 7) - 3);
    }
    for (std::size_t r = 0; r < m; ++r) {
        for (std::size_t c = 0; c < n; ++c) {
            for (std::size_t j = 0; j < k; ++j) {
                p.c[r * n + c] += p.a[r * k + j] * p.b[j * n + c];
            }
        }
    }
    return p;
}

struct MatMulRun {
    std::vector<float> c;
    std::vector<std::tuple<std::uint32_t, std::uint64_t, std::uint64_t>> steps; // id, start, cycles
};

// a's rows on tiles 0, 1, ..., b's rows on tiles 63, 62, ... (wrapping);
// `inspect` sees the engine before it runs.
inline MatMulRun runOnTiles64(const IntegerProduct& p, unsigned threads,
                              const std::function<void(const Engine&)>& inspect) {
    Graph g(Target::preset("tiles:64"));
    Tensor a = g.addVariable(Type::Float, {p.m, p.k}, "a");
    Tensor b = g.addVariable(Type::Float, {p.k, p.n}, "b");
    for (std::size_t r = 0; r < p.m; ++r) {
        g.setTileMapping(a[r], record::idAt<TileId>(static_cast<std::uint32_t>(r % 64)));
    }
    for (std::size_t r = 0; r < p.k; ++r) {
        g.setTileMapping(b[r], record::idAt<TileId>(static_cast<std::uint32_t>(63 - r % 64)));
    }
    program::Sequence seq;
    Tensor c = ops::matMul(g, seq, a, b, "mm");
    record::InMemoryRecorder recorder;
    Engine engine(g, seq, options(threads, &recorder));
    inspect(engine);
    engine.write<float>(a, p.a);
    engine.write<float>(b, p.b);
    engine.run();
    MatMulRun r{engine.read<float>(c), {}};
    for (const record::StepExecutionRecord& s : recorder.steps) {
        r.steps.emplace_back(s.programStep.value(), s.startCycle, s.cycles);
    }
    return r;
}

} // namespace tessera::test
