// What vertices print (a codelet's printf, through runtime/VertexPrint.h):
// it goes to the print stream of the engine that runs them, tile by tile in
// tile order whatever the thread count, and to no other engine's stream.
#include "engine/codelets/Vertex.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"
#include "engine/runtime/VertexPrint.h"

#include <QObject>
#include <QTest>

#include <sstream>
#include <string>

using namespace tessera;
namespace prog = tessera::program;

namespace {

// Prints its tag, twice (two appends, so a line split across calls stays whole).
class Say : public Vertex {
public:
    Input<int> tag;
    bool compute() {
        const std::string t = std::to_string(static_cast<int>(tag));
        runtime::appendVertexPrint("vertex " + t);
        runtime::appendVertexPrint(" says " + t + "\n");
        return true;
    }
};

constexpr unsigned kTiles = 16;
constexpr unsigned kVertices = 48;

unsigned tileOf(unsigned vertex) {
    return (vertex * 7 + 3) % kTiles; // scrambled, so creation order is not tile order
}

struct Program {
    Graph graph{Target::preset("tiles:16")};
    prog::Program program;
    Program() {
        graph.addCodelet(CodeletBuilder<Say>("Say").field("tag", &Say::tag).build());
        const ComputeSet cs = graph.addComputeSet("say");
        for (unsigned v = 0; v < kVertices; ++v) {
            Tensor tag = graph.addConstant(Type::Int, {}, double(v));
            graph.setTileMapping(tag, record::idAt<TileId>(tileOf(v)));
            graph.setTileMapping(graph.addVertex(cs, "Say", {{"tag", tag}}),
                                 record::idAt<TileId>(tileOf(v)));
        }
        program = prog::Sequence({prog::Execute(cs), prog::Execute(cs)});
    }
};

// Tile order; on a tile, the order the vertices were added.
std::string expectedText() {
    std::string one;
    for (unsigned tile = 0; tile < kTiles; ++tile) {
        for (unsigned v = 0; v < kVertices; ++v) {
            if (tileOf(v) == tile) {
                one += "vertex " + std::to_string(v) + " says " + std::to_string(v) + "\n";
            }
        }
    }
    return one + one; // two steps
}

EngineOptions withStream(std::ostream* stream, unsigned threads) {
    EngineOptions o;
    o.threads = threads;
    o.printStream = stream;
    return o;
}

} // namespace

class TestEnginePrint : public QObject {
    Q_OBJECT
private slots:
    void inTileOrderForAnyThreadCount_data();
    void inTileOrderForAnyThreadCount();
    void eachEngineItsOwnStream();
    void outsideAVertexNothingIsCaptured();
};

void TestEnginePrint::inTileOrderForAnyThreadCount_data() {
    QTest::addColumn<unsigned>("threads");
    QTest::newRow("1 thread") << 1u;
    QTest::newRow("4 threads") << 4u;
    QTest::newRow("7 threads") << 7u;
}

void TestEnginePrint::inTileOrderForAnyThreadCount() {
    QFETCH(unsigned, threads);
    Program p;
    std::ostringstream out;
    Engine engine(p.graph, p.program, withStream(&out, threads));
    QCOMPARE(engine.threads(), threads);
    engine.run();
    QCOMPARE(out.str(), expectedText());
}

void TestEnginePrint::eachEngineItsOwnStream() {
    Program p;
    std::ostringstream first, second;
    Engine a(p.graph, p.program, withStream(&first, 3));
    Engine b(p.graph, p.program, withStream(&second, 3));
    a.run();
    QCOMPARE(first.str(), expectedText());
    QCOMPARE(second.str(), std::string());
    // setPrintStream redirects what follows.
    std::ostringstream third;
    a.setPrintStream(&third);
    a.run();
    b.run();
    QCOMPARE(first.str(), expectedText());
    QCOMPARE(third.str(), expectedText());
    QCOMPARE(second.str(), expectedText());
}

void TestEnginePrint::outsideAVertexNothingIsCaptured() {
    QVERIFY(!runtime::appendVertexPrint("not in a vertex"));
    std::string buffer;
    {
        runtime::VertexPrintCapture capture(buffer);
        QVERIFY(runtime::appendVertexPrint("captured"));
    }
    QVERIFY(!runtime::appendVertexPrint("after"));
    QCOMPARE(buffer, std::string("captured"));
}

QTEST_GUILESS_MAIN(TestEnginePrint)
#include "tst_engine_print.moc"
