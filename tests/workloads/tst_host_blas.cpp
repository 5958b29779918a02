// The workloads' host dgemm: OpenBLAS is not in the process until a host
// reference needs it (a program using the engine starts without its thread
// pool), and the product, with strides, alpha and beta, is the one computed
// here by hand.
#include "engine/workloads/HostBlas.h"

#include <QObject>
#include <QTest>

#include <fstream>
#include <string>
#include <vector>

using namespace tessera::workloads;

namespace {

bool openBlasMapped() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        if (line.find("libopenblas") != std::string::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

class TestHostBlas : public QObject {
    Q_OBJECT
private slots:
    void loadedOnFirstUse();
    void stridedProductWithAlphaAndBeta();
    void refusesSizesBeyondInt();
};

// Runs first (slots run in declaration order): nothing before it multiplied.
void TestHostBlas::loadedOnFirstUse() {
    QVERIFY2(!openBlasMapped(), "OpenBLAS was loaded before any host product");
    QVERIFY(!hostBlasLoaded());
    double a = 3, b = 4, c = 0;
    hostDgemm(1, 1, 1, 1.0, &a, 1, &b, 1, 0.0, &c, 1);
    QCOMPARE(c, 12.0);
    QVERIFY(hostBlasLoaded());
    QVERIFY(openBlasMapped());
}

// C (2 x 3, row stride 4) = 2 A B + 0.5 C, A 2 x 2 inside rows of 3, B 2 x 3
// inside rows of 5; the padding must stay untouched.
void TestHostBlas::stridedProductWithAlphaAndBeta() {
    const std::vector<double> a = {1, 2, -9, 3, 4, -9};
    const std::vector<double> b = {5, 6, 7, -9, -9, 8, 9, 10, -9, -9};
    std::vector<double> c = {1, 1, 1, -7, 2, 2, 2, -7};
    hostDgemm(2, 3, 2, 2.0, a.data(), 3, b.data(), 5, 0.5, c.data(), 4);
    // Row 0: A = (1, 2): A.B = (1*5 + 2*8, 1*6 + 2*9, 1*7 + 2*10) = (21, 24, 27).
    // Row 1: A = (3, 4): A.B = (3*5 + 4*8, 3*6 + 4*9, 3*7 + 4*10) = (47, 54, 61).
    const std::vector<double> want = {2 * 21 + 0.5, 2 * 24 + 0.5, 2 * 27 + 0.5, -7,
                                      2 * 47 + 1.0, 2 * 54 + 1.0, 2 * 61 + 1.0, -7};
    QCOMPARE(c, want);
}

void TestHostBlas::refusesSizesBeyondInt() {
    double x = 0;
    QVERIFY_THROWS_EXCEPTION(std::exception,
                             hostDgemm(std::size_t{1} << 31, 1, 1, 1.0, &x, 1, &x, 1, 0.0, &x, 1));
}

QTEST_GUILESS_MAIN(TestHostBlas)
#include "tst_host_blas.moc"
