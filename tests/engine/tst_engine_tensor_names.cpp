// Tensor misuse and names: every misuse of a view throws tessera::Error
// naming the tensor, and a view is named by its variable's name, then each
// index and slice that made it, in order (formatted only when asked).
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

#include <QObject>
#include <QTest>

#include <memory>

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
