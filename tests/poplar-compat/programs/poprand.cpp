// poprand: moments of each distribution over many elements against the
// documented ones (bounds of 5 standard errors, so a correct generator fails
// with negligible probability and a wrong moment is caught); the same seed
// gives the same numbers, another seed or modifier different ones; unseeded
// calls differ from one another; dropout keeps, scales and zeroes;
// shapedDropout drops whole rows; the errors.
#include "poplin_check.h"

#include <poplar/IPUModel.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Moments {
    double mean, variance, min, max;
};

Moments moments(const std::vector<double>& v) {
    Moments m = {0, 0, v[0], v[0]};
    for (std::size_t i = 0; i < v.size(); ++i) {
        m.mean += v[i];
        m.min = std::min(m.min, v[i]);
        m.max = std::max(m.max, v[i]);
    }
    m.mean /= static_cast<double>(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        m.variance += (v[i] - m.mean) * (v[i] - m.mean);
    }
    m.variance /= static_cast<double>(v.size() - 1);
    return m;
}

// "ok" when |got - want| <= 5 standard errors.
std::string near(double got, double want, double standardError) {
    return std::fabs(got - want) <= 5 * standardError ? "ok" : "OFF";
}

int failures = 0;

void line(const std::string& label, const std::string& verdict) {
    std::cout << label << ": " << verdict << "\n";
    if (verdict != "ok") {
        ++failures;
    }
}

template <typename F>
void expectError(const std::string& label, F f) {
    try {
        f();
        std::cout << label << ": MISSING ERROR\n";
        ++failures;
    } catch (const poputil::poplibs_error& e) {
        std::cout << label << ": " << e.what() << "\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << label << ": poplar_error: " << e.what() << "\n";
    }
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 16;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    poprand::addCodelets(graph);
    Sequence prog;
    Checks checks(graph);

    const std::size_t N = 20000;
    Tensor ref = graph.addVariable(FLOAT, {100, N / 100}, "reference");
    poputil::mapTensorLinearly(graph, ref);
    Tensor refHalf = graph.addVariable(HALF, {N}, "referenceHalf");
    poputil::mapTensorLinearly(graph, refHalf);
    Tensor seed = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {12345u, 678u});
    Tensor seed2 = graph.addConstant<unsigned>(UNSIGNED_INT, {2}, {12346u, 678u});
    graph.setTileMapping(seed, 0);
    graph.setTileMapping(seed2, 1);

    // 0..: the distributions.
    checks.expect("uniform", poprand::uniform(graph, &seed, 0, ref, FLOAT, -1.0, 3.0, prog), {});
    checks.expect("uniform half", poprand::uniform(graph, &seed, 1, refHalf, HALF, 2.0, 4.0, prog),
                  {});
    checks.expect("uniform int", poprand::uniform(graph, &seed, 2, ref, INT, -3, 4, prog), {});
    checks.expect("normal", poprand::normal(graph, &seed, 3, ref, FLOAT, 1.5, 2.0, prog), {});
    checks.expect("truncatedNormal",
                  poprand::truncatedNormal(graph, &seed, 4, ref, FLOAT, 0.0, 1.0, 1.0, prog), {});
    checks.expect("bernoulli", poprand::bernoulli(graph, &seed, 5, ref, FLOAT, 0.3, prog), {});
    checks.expect("bernoulli int", poprand::bernoulli(graph, &seed, 6, ref, INT, 0.75, prog), {});
    checks.expect("logUniform", poprand::logUniform(graph, &seed, 7, ref, FLOAT, 1.0, 100.0, prog),
                  {});
    checks.expect("logUniform base 2",
                  poprand::logUniform(graph, &seed, 8, ref, FLOAT, 2.0, 64.0, prog, 2.0), {});
    // 9..: repeatability.
    checks.expect("seeded again", poprand::uniform(graph, &seed, 0, ref, FLOAT, -1.0, 3.0, prog),
                  {});
    checks.expect("other seed", poprand::uniform(graph, &seed2, 0, ref, FLOAT, -1.0, 3.0, prog),
                  {});
    checks.expect("other modifier", poprand::uniform(graph, &seed, 99, ref, FLOAT, -1.0, 3.0, prog),
                  {});
    poprand::setSeed(graph, seed, 5, prog);
    checks.expect("unseeded 1", poprand::uniform(graph, NULL, 0, ref, FLOAT, -1.0, 3.0, prog), {});
    checks.expect("unseeded 2", poprand::uniform(graph, NULL, 0, ref, FLOAT, -1.0, 3.0, prog), {});
    // 14..: dropout.
    Tensor ones = graph.addConstant<float>(FLOAT, {100, N / 100}, 1.0f);
    poputil::mapTensorLinearly(graph, ones);
    checks.expect("dropout", poprand::dropout(graph, &seed, 10, ones, ref, 0.8, 1.0 / 0.8, prog),
                  {});
    Tensor rowsRef = graph.addVariable(FLOAT, {100, 1}, "rows");
    poputil::mapTensorLinearly(graph, rowsRef);
    checks.expect("shapedDropout",
                  poprand::shapedDropout(graph, &seed, 11, ones, rowsRef, 0.5, 2.0, prog), {});
    checks.expect("dropout outputClonesRef=false",
                  poprand::dropout(graph, &seed, 10, ones, ref, 0.8, 1.0 / 0.8, false, prog), {});

    Sequence scratch;
    expectError("logUniform minVal < 1",
                [&] { poprand::logUniform(graph, &seed, 0, ref, FLOAT, 0.5, 4.0, scratch); });
    expectError("logUniform int",
                [&] { poprand::logUniform(graph, &seed, 0, ref, INT, 1.0, 4.0, scratch); });
    expectError("normal int", [&] { poprand::normal(graph, &seed, 0, ref, INT, 0, 1, scratch); });
    expectError("bernoulli probability 1.5",
                [&] { poprand::bernoulli(graph, &seed, 0, ref, FLOAT, 1.5, scratch); });
    expectError("dropout reference shape",
                [&] { poprand::dropout(graph, &seed, 0, ones, refHalf, 0.5, 2.0, scratch); });
    expectError("seed of three", [&] {
        Tensor bad = graph.addConstant<unsigned>(UNSIGNED_INT, {3}, {1u, 2u, 3u});
        graph.setTileMapping(bad, 0);
        poprand::uniform(graph, &bad, 0, ref, FLOAT, 0, 1, scratch);
    });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);

    const double n = static_cast<double>(N);
    std::vector<std::vector<double>> v(checks.size());
    for (std::size_t i = 0; i < checks.size(); ++i) {
        v[i] = checks.values(engine, i);
    }
    { // uniform [-1, 3): mean 1, variance 16/12.
        const Moments m = moments(v[0]);
        line("uniform [-1,3] mean", near(m.mean, 1.0, std::sqrt(16.0 / 12 / n)));
        line("uniform [-1,3] variance",
             near(m.variance, 16.0 / 12, 16.0 / 12 * std::sqrt(0.8 / n)));
        line("uniform [-1,3] range", m.min >= -1 && m.max <= 3 ? "ok" : "OFF");
    }
    {
        const Moments m = moments(v[1]);
        line("uniform half [2,4] mean", near(m.mean, 3.0, std::sqrt(4.0 / 12 / n)));
        line("uniform half [2,4] range", m.min >= 2 && m.max <= 4 ? "ok" : "OFF");
    }
    { // every integer of [-3, 4], each with probability 1/8.
        const Moments m = moments(v[2]);
        std::vector<double> counts(8, 0);
        bool inRange = true;
        for (std::size_t i = 0; i < v[2].size(); ++i) {
            const int k = static_cast<int>(v[2][i]);
            inRange = inRange && k >= -3 && k <= 4;
            if (k >= -3 && k <= 4) {
                counts[k + 3] += 1;
            }
        }
        std::string verdict = inRange ? "ok" : "OFF";
        for (int k = 0; k < 8; ++k) {
            if (near(counts[k] / n, 0.125, std::sqrt(0.125 * 0.875 / n)) != "ok") {
                verdict = "OFF";
            }
        }
        line("uniform int [-3,4] each value 1/8", verdict);
        line("uniform int [-3,4] mean", near(m.mean, 0.5, std::sqrt(63.0 / 12 / n)));
    }
    {
        const Moments m = moments(v[3]);
        line("normal(1.5, 2) mean", near(m.mean, 1.5, 2.0 / std::sqrt(n)));
        line("normal(1.5, 2) variance", near(m.variance, 4.0, 4.0 * std::sqrt(2.0 / n)));
    }
    { // standard normal cut at +-1: variance 1 - 2 phi(1) / (2 Phi(1) - 1).
        const Moments m = moments(v[4]);
        const double phi = std::exp(-0.5) / std::sqrt(2 * M_PI);
        const double mass = std::erf(1 / std::sqrt(2.0));
        const double variance = 1 - 2 * phi / mass;
        line("truncatedNormal alpha 1 mean", near(m.mean, 0, std::sqrt(variance / n)));
        line("truncatedNormal alpha 1 variance",
             near(m.variance, variance, variance * std::sqrt(2.0 / n)));
        line("truncatedNormal alpha 1 range", m.min >= -1 && m.max <= 1 ? "ok" : "OFF");
    }
    {
        const Moments m = moments(v[5]);
        line("bernoulli 0.3 mean", near(m.mean, 0.3, std::sqrt(0.21 / n)));
        line("bernoulli 0.3 values 0 and 1", m.min == 0 && m.max == 1 ? "ok" : "OFF");
        const Moments mi = moments(v[6]);
        line("bernoulli int 0.75 mean", near(mi.mean, 0.75, std::sqrt(0.1875 / n)));
    }
    { // log of a log-uniform number is uniform: ln x in [0, ln 100].
        std::vector<double> logs(v[7].size());
        for (std::size_t i = 0; i < logs.size(); ++i) {
            logs[i] = std::log(v[7][i]);
        }
        const Moments m = moments(logs);
        const double hi = std::log(100.0);
        line("logUniform [1,100] mean of ln", near(m.mean, hi / 2, hi / std::sqrt(12 * n)));
        const Moments raw = moments(v[7]);
        line("logUniform [1,100] range", raw.min >= 1 && raw.max <= 100 ? "ok" : "OFF");
        std::vector<double> logs2(v[8].size());
        for (std::size_t i = 0; i < logs2.size(); ++i) {
            logs2[i] = std::log2(v[8][i]);
        }
        const Moments m2 = moments(logs2);
        line("logUniform base 2 [2,64] mean of log2", near(m2.mean, 3.5, 5 / std::sqrt(12 * n)));
    }
    line("same seed, same numbers", v[9] == v[0] ? "ok" : "OFF");
    line("other seed, other numbers", v[10] != v[0] ? "ok" : "OFF");
    line("other modifier, other numbers", v[11] != v[0] ? "ok" : "OFF");
    line("unseeded calls differ", v[12] != v[13] ? "ok" : "OFF");
    { // dropout of ones: 1/0.8 with probability 0.8, else 0.
        std::size_t kept = 0;
        bool values = true;
        for (std::size_t i = 0; i < v[14].size(); ++i) {
            kept += v[14][i] != 0;
            values = values && (v[14][i] == 0 || std::fabs(v[14][i] - 1.25) < 1e-6);
        }
        line("dropout keeps 0.8", near(kept / n, 0.8, std::sqrt(0.16 / n)));
        line("dropout scales kept by 1/0.8", values ? "ok" : "OFF");
        line("dropout outputClonesRef=false same mask", v[16] == v[14] ? "ok" : "OFF");
    }
    { // shapedDropout with a [100][1] reference: each row all 2 or all 0.
        bool rows = true;
        std::size_t kept = 0;
        const std::size_t cols = N / 100;
        for (std::size_t r = 0; r < 100; ++r) {
            const double first = v[15][r * cols];
            rows = rows && (first == 0 || first == 2);
            kept += first != 0;
            for (std::size_t c = 1; c < cols; ++c) {
                rows = rows && v[15][r * cols + c] == first;
            }
        }
        line("shapedDropout drops whole rows", rows ? "ok" : "OFF");
        line("shapedDropout keeps about half the rows", near(kept / 100.0, 0.5, 0.05));
    }
    return failures == 0 ? 0 : 1;
}
