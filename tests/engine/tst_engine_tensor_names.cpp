// How a view of a tensor is named in errors: the variable's name, then each
// index and slice that made the view, in order (formatted only when asked).
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

#include <QObject>
#include <QTest>

using namespace tessera;

class TestEngineTensorNames : public QObject {
    Q_OBJECT

private slots:
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
};

QTEST_GUILESS_MAIN(TestEngineTensorNames)
#include "tst_engine_tensor_names.moc"
