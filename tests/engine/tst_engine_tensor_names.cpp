// Tensor misuse and names: every misuse of a view throws tessera::Error
// naming the tensor, and a view is named by its variable's name, then each
// index and slice that made it, in order (formatted only when asked).
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

#include <QObject>
#include <QTest>

#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace tessera;

class TestEngineTensorNames : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        graph_ = std::make_unique<Graph>(Target::preset("tiles:4"));
        weights_ = graph_->addVariable(Type::Float, {2, 3, 4}, "weights");
        bias_ = graph_->addVariable(Type::Float, {4}, "bias");
        mask_ = graph_->addVariable(Type::Half, {2, 3, 4}, "mask");
    }

    void emptyTensorThrows();
    void misuse_data();
    void misuse();

    void viewsAreNamedByHowTheyWereMade() {
        Graph g(Target::preset("tiles:4"));
        Tensor x = g.addVariable(Type::Float, {3, 4, 5}, "x");
        const std::string name = x.describe();
        QCOMPARE(x[1].describe(), name + "[1]");
        QCOMPARE(x.index({2, 3}).describe(), name + "[2][3]");
        QCOMPARE(x.index({}).describe(), name);
        QCOMPARE(x[1].slice(1, 3).describe(), name + "[1].slice(1,3)");
        QCOMPARE(x.slice(0, 2)[1].describe(), name + ".slice(0,2)[1]");
        QCOMPARE(x.slice(1, 4, 2)[0][1].describe(), name + ".slice(1,4,2)[0][1]");
    }

    void anErrorNamesTheView() {
        Graph g(Target::preset("tiles:4"));
        Tensor x = g.addVariable(Type::Float, {3, 4}, "x");
        try {
            (void)x[2].slice(1, 9);
            QFAIL("slicing past the end did not throw");
        } catch (const Error& e) {
            const std::string text = e.what();
            QVERIFY2(text.find(x.describe() + "[2]") != std::string::npos, e.what());
            QVERIFY2(text.find("[1:9)") != std::string::npos, e.what());
        }
    }

    // A view outlives the tensors it was made from and still names them.
    void aViewKeepsItsName() {
        Graph g(Target::preset("tiles:4"));
        Tensor row;
        std::string name;
        {
            Tensor x = g.addVariable(Type::Float, {3, 4}, "x");
            name = x.describe();
            row = x.slice(0, 2)[1];
        }
        QCOMPARE(row.describe(), name + ".slice(0,2)[1]");
        QCOMPARE(row.numElements(), std::size_t(4));
        QCOMPARE(row.regions().front().begin, std::size_t(4));
    }

    // A released view's record is reused by the thread's next view (a graph
    // build makes millions): nothing of the last view may show in the next.
    // Views of three kinds, of two types, one after the other, each checked
    // against what its own base and bounds say.
    void aReusedViewKeepsNothingOfTheLastOne() {
        Graph g(Target::preset("tiles:4"));
        Tensor x = g.addVariable(Type::Float, {3, 4, 5}, "x");
        Tensor h = g.addVariable(Type::Half, {6, 10}, "h");
        const std::string xName = x.describe(), hName = h.describe();
        for (std::size_t i = 0; i < 300; ++i) {
            Tensor v;
            std::string name;
            Type type = Type::Float;
            std::vector<std::size_t> shape;
            VariableRegion first;
            switch (i % 3) {
            case 0: { // x[a][b]: 5 elements at (a * 4 + b) * 5
                const std::size_t a = i / 3 % 3, b = i / 7 % 4;
                v = x.index({a, b});
                name = xName + "[" + std::to_string(a) + "][" + std::to_string(b) + "]";
                shape = {5};
                first = {x.regions().front().var, (a * 4 + b) * 5, (a * 4 + b) * 5 + 5};
                break;
            }
            case 1: { // h.slice(b, b + 2, 1): 6 rows of 2, the first at b
                const std::size_t b = i / 3 % 8;
                v = h.slice(b, b + 2, 1);
                name = hName + ".slice(" + std::to_string(b) + "," + std::to_string(b + 2) + ",1)";
                type = Type::Half;
                shape = {6, 2};
                first = {h.regions().front().var, b, b + 2};
                break;
            }
            default: { // x.slice(b, b + 1): the whole of x[b], one region
                const std::size_t b = i / 3 % 3;
                v = x.slice(b, b + 1);
                name = xName + ".slice(" + std::to_string(b) + "," + std::to_string(b + 1) + ")";
                shape = {1, 4, 5};
                first = {x.regions().front().var, b * 20, b * 20 + 20};
                break;
            }
            }
            QCOMPARE(v.describe(), name);
            QCOMPARE(v.elementType(), type);
            QCOMPARE(v.shape(), shape);
            QCOMPARE(v.regions().front(), first);
            QCOMPARE(v.regions().size(), type == Type::Half ? std::size_t{6} : std::size_t{1});
            std::size_t elements = 1;
            for (std::size_t d : shape) {
                elements *= d;
            }
            QCOMPARE(v.numElements(), elements);
        }
    }

    // Views made on one thread and released on another, which then ends:
    // the views' records stay whole while used, and nothing leaks (the
    // sanitizer build checks both).
    void viewsReleasedOnAnotherThread() {
        Graph g(Target::preset("tiles:4"));
        Tensor x = g.addVariable(Type::Float, {64}, "x");
        std::vector<Tensor> views;
        for (std::size_t b = 0; b < 64; b += 2) {
            views.push_back(x.slice(b, b + 2));
        }
        std::vector<std::string> seen;
        std::thread([&] {
            for (Tensor& v : views) {
                seen.push_back(v.describe());
                v = Tensor(); // released here
            }
            Tensor made = x.slice(4, 8); // and one made and dropped here
            seen.push_back(made.describe());
        }).join();
        QCOMPARE(seen.size(), std::size_t{33});
        QCOMPARE(seen.front(), x.describe() + ".slice(0,2)");
        QCOMPARE(seen.back(), x.describe() + ".slice(4,8)");
        // The main thread's own views are unaffected.
        QCOMPARE(x.slice(62, 64).regions().front().begin, std::size_t{62});
    }

private:
    std::unique_ptr<Graph> graph_;
    Tensor weights_; // float {2,3,4}
    Tensor bias_;    // float {4}
    Tensor mask_;    // half {2,3,4}
};

void TestEngineTensorNames::emptyTensorThrows() {
    const Tensor empty;
    QVERIFY(!empty.valid());
    QVERIFY_THROWS_EXCEPTION(Error, empty.shape());
    QVERIFY_THROWS_EXCEPTION(Error, empty.numElements());
    QVERIFY_THROWS_EXCEPTION(Error, empty.slice(0, 1));
    QVERIFY_THROWS_EXCEPTION(Error, empty.reshape({1}));
    QVERIFY_THROWS_EXCEPTION(Error, empty.transpose());
    QVERIFY_THROWS_EXCEPTION(Error, tessera::concat(std::vector<Tensor>{}));
    QVERIFY_THROWS_EXCEPTION(Error, tessera::concat({empty, empty}));
    QCOMPARE(empty.describe(), std::string("<empty tensor>"));
}

void TestEngineTensorNames::misuse_data() {
    QTest::addColumn<Action>("action");
    QTest::addColumn<QStringList>("names");
    const Tensor w = weights_;
    const Tensor bias = bias_;
    const Tensor mask = mask_;
    const QStringList W{"weights"};

    QTest::newRow("index out of range")
        << Action([=] { (void)w[2]; }) << QStringList{"weights", "index 2"};
    QTest::newRow("inner index out of range") << Action([=] {
        (void)w.index({1, 3});
    }) << QStringList{"weights", "index 3"};
    QTest::newRow("too many indices") << Action([=] { (void)w.index({0, 0, 0, 0}); }) << W;
    QTest::newRow("index a scalar view") << Action([=] { (void)w.elementAt(5)[0]; }) << W;
    QTest::newRow("slice end past size")
        << Action([=] { (void)w.slice(1, 4, 1); }) << QStringList{"weights", "[1:4)"};
    QTest::newRow("slice begin after end") << Action([=] { (void)w.slice(2, 1, 0); }) << W;
    QTest::newRow("slice dimension out of range")
        << Action([=] { (void)w.slice(0, 1, 3); }) << QStringList{"weights", "dimension 3"};
    QTest::newRow("slice of a view names the variable")
        << Action([=] { (void)w[1].slice(0, 5, 1); }) << QStringList{"'weights'[1]", "size 4"};
    QTest::newRow("multi-slice wrong rank") << Action([=] { (void)w.slice({0, 0}, {1, 1}); }) << W;
    QTest::newRow("multi-slice out of range") << Action([=] {
        (void)w.slice({0, 0, 0}, {2, 3, 5});
    }) << W;
    QTest::newRow("reshape wrong count") << Action([=] {
        (void)w.reshape({5, 5});
    }) << QStringList{"weights", "{5,5}", "24"};
    QTest::newRow("reshape of a view") << Action([=] { (void)w[1].reshape({13}); }) << W;
    QTest::newRow("flatten bad range") << Action([=] { (void)w.flatten(2, 1); }) << W;
    QTest::newRow("flatten past rank") << Action([=] { (void)w.flatten(0, 4); }) << W;
    QTest::newRow("transpose rank 3")
        << Action([=] { (void)w.transpose(); }) << QStringList{"weights", "rank 2"};
    QTest::newRow("permutation repeats") << Action([=] { (void)w.dimShuffle({0, 0, 1}); }) << W;
    QTest::newRow("permutation too short") << Action([=] { (void)w.dimShuffle({1, 0}); }) << W;
    QTest::newRow("permutation out of range") << Action([=] {
        (void)w.dimShuffle({0, 1, 3});
    }) << W;
    QTest::newRow("reverse dimension out of range") << Action([=] { (void)w.reverse(3); }) << W;
    QTest::newRow("broadcast zero times") << Action([=] { (void)w.broadcast(0, 0); }) << W;
    QTest::newRow("broadcast dimension out of range")
        << Action([=] { (void)w.broadcast(2, 3); }) << W;
    QTest::newRow("expand past rank") << Action([=] { (void)w.expand({4}); }) << W;
    QTest::newRow("squeeze non-1 dimension")
        << Action([=] { (void)w.squeeze({1}); }) << QStringList{"weights", "dimension 1"};
    QTest::newRow("squeeze out of range") << Action([=] { (void)w.expand({0}).squeeze({4}); }) << W;
    QTest::newRow("elementAt out of range")
        << Action([=] { (void)w.elementAt(24); }) << QStringList{"weights", "24"};
    QTest::newRow("flatElement out of range") << Action([=] { (void)w.flatElement(99); }) << W;
    QTest::newRow("dim out of range") << Action([=] { (void)w.dim(3); }) << W;
    QTest::newRow("concat shape mismatch")
        << Action([=] { (void)tessera::concat(w, w.slice(0, 2, 2), 1); }) << W;
    QTest::newRow("concat rank mismatch")
        << Action([=] { (void)tessera::concat(bias, w, 0); }) << QStringList{"bias", "weights"};
    QTest::newRow("concat type mismatch")
        << Action([=] { (void)tessera::concat(w, mask, 0); }) << QStringList{"weights", "mask"};
    QTest::newRow("concat dimension out of range")
        << Action([=] { (void)tessera::concat(w, w, 3); }) << W;
}

void TestEngineTensorNames::misuse() {
    QFETCH(Action, action);
    QFETCH(QStringList, names);
    TESSERA_EXPECT_ERROR(Error, action(), names);
}

QTEST_APPLESS_MAIN(TestEngineTensorNames)
#include "tst_engine_tensor_names.moc"
