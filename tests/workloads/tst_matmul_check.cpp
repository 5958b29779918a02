// The matmul workload's check (engine/workloads/MatMulCheck.h): a correct
// product passes, one corrupted element of C fails on both the full and the
// projected path, and the projection's bound is the float accumulation bound
// computed here from the host matrices (gamma_k ||A_i|| sum_j ||B_j||).
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/MatMulCheck.h"

#include <QtTest>

#include <bit>
#include <cstring>

using namespace tessera;
using namespace tessera::workloads;

namespace {

// C = A.B on a small target, A and B the matmul workload's inputs (seeds 1, 2).
struct Product {
    Product(std::size_t m_, std::size_t k_, std::size_t n_)
        : m(m_)
        , k(k_)
        , n(n_)
        , graph(Target::preset("tiles:16")) {
        Tensor a = graph.addVariable(Type::Float, {m, k}, "A");
        Tensor b = graph.addVariable(Type::Float, {k, n}, "B");
        ops::mapLinearly(graph, a, k);
        ops::mapLinearly(graph, b, n);
        program::Sequence prog;
        c = ops::matMul(graph, prog, a, b, "matmul");
        engine = std::make_unique<Engine>(graph, prog);
        fillRandom(*engine, a, 1);
        fillRandom(*engine, b, 2);
        engine->run();
        hostA = randomValues(m * k, 1, Type::Float);
        hostB = randomValues(k * n, 2, Type::Float);
    }
    // The exact (double) product's element (i, j), by a plain loop.
    double reference(std::size_t i, std::size_t j) const {
        double sum = 0;
        for (std::size_t l = 0; l < k; ++l) {
            sum += double(hostA[i * k + l]) * double(hostB[l * n + j]);
        }
        return sum;
    }
    float get(std::size_t index) const { return engine->read<float>(c)[index]; }
    void set(std::size_t index, float value) {
        engine->forEachRun(c, [&](std::size_t first, std::span<std::byte> bytes) {
            if (index >= first && index < first + bytes.size() / sizeof(float)) {
                std::memcpy(bytes.data() + (index - first) * sizeof(float), &value, sizeof value);
            }
        });
    }
    Verification check(const MatMulCheckOptions& options) const {
        return checkMatMul(*engine, c, m, k, n, 1, 2, options);
    }
    // gamma_k ||A_i|| sum over the group's columns of ||B_j||, in float units.
    double bound(std::size_t i, std::size_t j0, std::size_t j1) const {
        const double u = std::ldexp(1.0, -24);
        const double gamma = double(k) * u / (1 - double(k) * u);
        double normA = 0;
        for (std::size_t l = 0; l < k; ++l) {
            normA += double(hostA[i * k + l]) * hostA[i * k + l];
        }
        double normsB = 0;
        for (std::size_t j = j0; j < j1; ++j) {
            double sq = 0;
            for (std::size_t l = 0; l < k; ++l) {
                sq += double(hostB[l * n + j]) * hostB[l * n + j];
            }
            normsB += std::sqrt(sq);
        }
        return gamma * std::sqrt(normA) * normsB;
    }

    std::size_t m, k, n;
    Graph graph;
    Tensor c;
    std::unique_ptr<Engine> engine;
    std::vector<float> hostA, hostB;
};

MatMulCheckOptions projected(std::size_t groupColumns = 8) {
    MatMulCheckOptions options;
    options.fullCheckUpTo = 0;
    options.sampledRows = 4;
    options.groupColumns = groupColumns;
    return options;
}

} // namespace

class TestMatMulCheck : public QObject {
    Q_OBJECT

private slots:
    void correctProductPassesBothPaths() {
        Product p(37, 300, 53);
        const Verification full = p.check({});
        QVERIFY2(full.passed, full.detail.c_str());
        const Verification proj = p.check(projected());
        QVERIFY2(proj.passed, proj.detail.c_str());
        QVERIFY2(proj.detail.find("rounding bound") != std::string::npos, proj.detail.c_str());
        // The max abs error is that of the sampled rows 0, 12, 24, 36.
        double worst = 0;
        for (std::size_t i : {0, 12, 24, 36}) {
            for (std::size_t j = 0; j < p.n; ++j) {
                worst = std::max(worst, std::fabs(double(p.get(i * p.n + j)) - p.reference(i, j)));
            }
        }
        QVERIFY(std::fabs(proj.maxAbsError - worst) <= 1e-12 * worst);
        QVERIFY(worst > 0); // float accumulation over 300 terms rounds somewhere
    }
    void longAccumulationPassesTheBound() {
        // k = 4096: the bound must hold for however the product summed.
        Product p(8, 4096, 24);
        const Verification proj = p.check(projected(1));
        QVERIFY2(proj.passed, proj.detail.c_str());
    }
    void oneFlippedElementFails() {
        Product p(37, 300, 53);
        // The largest element off the sampled rows, so only the projection can see it.
        std::size_t at = 0;
        for (std::size_t i = 1; i < p.m - 1; ++i) {
            if (i % 12 == 0) {
                continue;
            }
            for (std::size_t j = 0; j < p.n; ++j) {
                if (std::fabs(p.get(i * p.n + j)) > std::fabs(p.get(at))) {
                    at = i * p.n + j;
                }
            }
        }
        const float original = p.get(at);
        p.set(at, std::bit_cast<float>(std::bit_cast<std::uint32_t>(original) ^ 0x80000000u));
        const Verification proj = p.check(projected());
        QVERIFY(!proj.passed);
        const std::string row = "row " + std::to_string(at / p.n) + ",";
        QVERIFY2(proj.detail.find(row) != std::string::npos, proj.detail.c_str());
        const Verification full = p.check({});
        QVERIFY(!full.passed);
        QVERIFY2(full.detail.find("element " + std::to_string(at)) != std::string::npos,
                 full.detail.c_str());
        p.set(at, original);
        QVERIFY(p.check(projected()).passed);
    }
    void anErrorBeyondTwiceTheBoundFailsAndWithinItPasses() {
        Product p(37, 300, 53);
        const std::size_t i = 5, j = 19, g = 8; // column 19 is in the group [16, 24)
        const double bound = p.bound(i, 16, 24);
        const float original = p.get(i * p.n + j);
        p.set(i * p.n + j, float(original + 2.05 * bound));
        const Verification over = p.check(projected(g));
        QVERIFY(!over.passed);
        QVERIFY2(over.detail.find("row 5, columns [16, 24)") != std::string::npos,
                 over.detail.c_str());
        // Within the bound (less the true rounding, well below it): accepted.
        p.set(i * p.n + j, float(original + 0.5 * bound));
        QVERIFY(p.check(projected(g)).passed);
        // The same off-bound error on a sampled row fails element by element too.
        p.set(i * p.n + j, original);
        p.set(12 * p.n + j, float(p.get(12 * p.n + j) + 2.05 * p.bound(12, 16, 24)));
        const Verification sampled = p.check(projected(g));
        QVERIFY(!sampled.passed);
        QVERIFY2(sampled.detail.find("sampled rows: C = A.B: element " +
                                     std::to_string(12 * p.n + j)) != std::string::npos,
                 sampled.detail.c_str());
    }
    void projectionBoundIsTheFloatBoundPlusTheChecksOwnRounding() {
        const double u = std::ldexp(1.0, -24), ud = std::ldexp(1.0, -53);
        const double expected = (2048 * u / (1 - 2048 * u) + 2057 * ud / (1 - 2057 * ud)) * 10.0 +
                                8 * ud / (1 - 8 * ud) * 3.0;
        QCOMPARE(projectionBound(2048, 8, 10.0, 3.0), expected);
    }
    void nanInTheProductFails() {
        Product p(37, 300, 53);
        p.set(3 * p.n + 7, std::numeric_limits<float>::quiet_NaN());
        const Verification proj = p.check(projected());
        QVERIFY(!proj.passed);
        QVERIFY2(proj.detail.find("row 3,") != std::string::npos, proj.detail.c_str());
    }
};

QTEST_GUILESS_MAIN(TestMatMulCheck)
#include "tst_matmul_check.moc"
