// Compile-time validation: constructing an Engine on a broken graph throws
// ValidationError naming the tensor, vertex and tile involved; tiles over
// capacity throw OutOfMemoryError unless allowOutOfMemory, and the recorder
// gets the compiled record marked out of memory either way.
#include "EngineTestSupport.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tessera;
namespace prog = tessera::program;

namespace {

EngineOptions oneThread(record::Recorder* recorder = nullptr, bool allowOutOfMemory = false) {
    EngineOptions o;
    o.threads = 1;
    o.recorder = recorder;
    o.allowOutOfMemory = allowOutOfMemory;
    return o;
}

// Compiles `program` on `g`; used inside TESSERA_EXPECT_ERROR.
void compile(const Graph& g, const prog::Program& program) {
    Engine engine(g, program, oneThread());
}

} // namespace

class TestEngineValidation : public QObject {
    Q_OBJECT

private slots:
    void unmappedTensor_data();
    void unmappedTensor();
    void unmappedUnusedTensorStillFails();
    void unconnectedField();
    void unconnectedVectorListEntry();
    void emptyVectorListIsAllowed();
    void vertexWithoutTile();
    void edgeSizesMustFitTheCodelet_data();
    void edgeSizesMustFitTheCodelet();
    void userCodeletSameSizeGroup();
    void sameSizeGroupNamesItsFields();
    void writeWriteConflict_data();
    void writeWriteConflict();
    void readWriteConflict_data();
    void readWriteConflict();
    void accessesThatDoNotConflict();
    void largeGraphReportsAsASmallOne_data();
    void largeGraphReportsAsASmallOne();
    void conflictsFoundInAnyVertexOrder_data();
    void conflictsFoundInAnyVertexOrder();
    void firstConflictIsOfTheLowestVariable();
    void overlappingCopy();
    void outOfMemory_data();
    void outOfMemory();
    void worstTileIsNamed();
};

void TestEngineValidation::unmappedTensor_data() {
    QTest::addColumn<int>("mappedBegin");
    QTest::addColumn<int>("mappedEnd");
    QTest::addColumn<int>("secondBegin");
    QTest::addColumn<QString>("firstUnmapped");
    QTest::newRow("nothing mapped") << 0 << 0 << 8 << "element 0";
    QTest::newRow("tail unmapped") << 0 << 5 << 8 << "element 5";
    QTest::newRow("hole in the middle") << 0 << 2 << 6 << "element 2";
    QTest::newRow("head unmapped") << 3 << 8 << 8 << "element 0";
}

void TestEngineValidation::unmappedTensor() {
    QFETCH(int, mappedBegin);
    QFETCH(int, mappedEnd);
    QFETCH(int, secondBegin);
    QFETCH(QString, firstUnmapped);
    Graph g(Target::preset("tiles:4"));
    Tensor ok = g.addVariable(Type::Float, {4}, "fine");
    g.setTileMapping(ok, TileId{0u});
    Tensor x = g.addVariable(Type::Float, {2, 4}, "activations");
    const Tensor flat = x.flatten();
    g.setTileMapping(
        flat.slice(static_cast<std::size_t>(mappedBegin), static_cast<std::size_t>(mappedEnd)),
        TileId{1u});
    g.setTileMapping(flat.slice(static_cast<std::size_t>(secondBegin), 8), TileId{2u});
    const ComputeSet cs = g.addComputeSet("cs");
    const VertexRef v = g.addVertex(cs, "Exp<float>", {{"in", ok}, {"out", ok}});
    g.setTileMapping(v, TileId{0u});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"'activations'", "{2,4}", firstUnmapped}));
}

void TestEngineValidation::unmappedUnusedTensorStillFails() {
    Graph g(Target::preset("tiles:4"));
    g.addVariable(Type::Int, {3}, "orphan");
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Sequence()),
                         (QStringList{"'orphan'", "element 0"}));
}

void TestEngineValidation::unconnectedField() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {4}, "a");
    Tensor c = g.addVariable(Type::Float, {4}, "c");
    Tensor d = g.addVariable(Type::Float, {4}, "d");
    g.setTileMapping(a, TileId{1u});
    g.setTileMapping(c, TileId{1u});
    g.setTileMapping(d, TileId{3u});
    const ComputeSet cs = g.addComputeSet("sum");
    const VertexRef first = g.addVertex(cs, "Exp<float>", {{"in", a}, {"out", c}});
    g.setTileMapping(first, TileId{1u});
    const VertexRef v = g.addVertex(cs, "Add<float>", {{"in1", d}, {"out", d}});
    g.setTileMapping(v, TileId{3u});
    TESSERA_EXPECT_ERROR(
        ValidationError, compile(g, prog::Execute(cs)),
        (QStringList{"field 'in2'", "Add<float>#1", "'sum'", "tile 3", "not connected"}));
}

void TestEngineValidation::unconnectedVectorListEntry() {
    Graph g(Target::preset("tiles:4"));
    Tensor p = g.addVariable(Type::Float, {3, 4}, "partials");
    Tensor out = g.addVariable(Type::Float, {4}, "total");
    g.setTileMapping(p, TileId{0u});
    g.setTileMapping(out, TileId{2u});
    const ComputeSet cs = g.addComputeSet("reduce");
    const VertexRef v = g.addVertex(cs, "ReducePartials<float,float>", {{"out", out}});
    g.setFieldSize(v["partials"], 3);
    g.connect(v["partials"][0], p[0]);
    g.connect(v["partials"][2], p[2]);
    g.setTileMapping(v, TileId{2u});
    TESSERA_EXPECT_ERROR(
        ValidationError, compile(g, prog::Execute(cs)),
        (QStringList{"entry 1", "'partials'", "ReducePartials<float,float>#0", "tile 2"}));
}

void TestEngineValidation::emptyVectorListIsAllowed() {
    Graph g(Target::preset("tiles:4"));
    Tensor out = g.addVariable(Type::Float, {4}, "total");
    g.setTileMapping(out, TileId{2u});
    const ComputeSet cs = g.addComputeSet("reduce");
    const VertexRef v = g.addVertex(cs, "ReducePartials<float,float>", {{"out", out}});
    g.setTileMapping(v, TileId{2u});
    g.createHostRead("total", out);
    Engine engine(g, prog::Execute(cs), oneThread());
    engine.run();
    QCOMPARE(engine.readValues(out), (std::vector<double>{0, 0, 0, 0}));
}

void TestEngineValidation::vertexWithoutTile() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {4}, "a");
    g.setTileMapping(a, TileId{1u});
    const ComputeSet cs = g.addComputeSet("floating");
    g.addVertex(cs, "Exp<float>", {{"in", a}, {"out", a}});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"Exp<float>#0", "'floating'", "not mapped to a tile"}));
}

void TestEngineValidation::edgeSizesMustFitTheCodelet_data() {
    // Codelets index their edges freely, so a mis-sized connection must be
    // refused at compile time (it would read past an edge).
    QTest::addColumn<QString>("codelet");
    QTest::addColumn<QString>("problem");
    QTest::newRow("binary in2 short") << "Add<float>"
                                      << "field 'in2' has 3 elements but 'in1' has 4";
    QTest::newRow("unary out long") << "Exp<float>"
                                    << "field 'out' has 5 elements but 'in' has 4";
    QTest::newRow("matmul b") << "MatMulPartial<float,float>"
                              << "field 'b' has 3 elements";
    QTest::newRow("partials entry") << "ReducePartials<float,float>"
                                    << "field 'out' has 4 elements but 'partials' has 3";
}

void TestEngineValidation::edgeSizesMustFitTheCodelet() {
    QFETCH(QString, codelet);
    QFETCH(QString, problem);
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {16}, "x");
    g.setTileMapping(x, TileId{0u});
    const ComputeSet cs = g.addComputeSet("sized");
    VertexRef v;
    if (codelet == "Add<float>") {
        v = g.addVertex(cs, "Add<float>",
                        {{"in1", x.slice(0, 4)}, {"in2", x.slice(4, 7)}, {"out", x.slice(8, 12)}});
    } else if (codelet == "Exp<float>") {
        v = g.addVertex(cs, "Exp<float>", {{"in", x.slice(0, 4)}, {"out", x.slice(8, 13)}});
    } else if (codelet == "MatMulPartial<float,float>") { // 2 rows of k=2 need b of 2 x 2
        v = g.addVertex(cs, codelet.toStdString(), {{"a", x.slice(0, 4)}, {"b", x.slice(4, 7)}});
        g.connect(v["out"], std::vector<Tensor>{x.slice(8, 10), x.slice(10, 12)});
    } else {
        v = g.addVertex(cs, codelet.toStdString(), {{"out", x.slice(8, 12)}});
        g.connect(v["partials"], std::vector<Tensor>{x.slice(0, 3)});
    }
    g.setTileMapping(v, TileId{0u});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{codelet + "#0", "'sized'", "tile 0", problem}));
}

namespace {
// A user codelet whose edges "a" and the entries of "list" must agree, "b" free.
struct Pairwise {
    Input<Vector<float>> a, b;
    Vector<Input<Vector<float>>> list;
    void compute() {}
};
} // namespace

void TestEngineValidation::userCodeletSameSizeGroup() {
    Graph g(Target::preset("tiles:4"));
    g.addCodelet(CodeletBuilder<Pairwise>("Pairwise")
                     .field("a", &Pairwise::a)
                     .field("b", &Pairwise::b)
                     .field("list", &Pairwise::list)
                     .sameSize({"list", "a"})
                     .build());
    Tensor x = g.addVariable(Type::Float, {16}, "x");
    g.setTileMapping(x, TileId{2u});
    const ComputeSet cs = g.addComputeSet("pairs");
    // "b" differs from everything and is in no group: fine.
    VertexRef fine = g.addVertex(cs, "Pairwise", {{"a", x.slice(0, 2)}, {"b", x.slice(2, 7)}});
    g.connect(fine["list"], std::vector<Tensor>{x.slice(7, 9), x.slice(9, 11)});
    g.setTileMapping(fine, TileId{2u});
    compile(g, prog::Execute(cs));
    // The list's second entry (3) against its first (2); "a" comes after the list.
    VertexRef bad = g.addVertex(cs, "Pairwise", {{"a", x.slice(0, 2)}, {"b", x.slice(2, 3)}});
    g.connect(bad["list"], std::vector<Tensor>{x.slice(7, 9), x.slice(9, 12)});
    g.setTileMapping(bad, TileId{2u});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"Pairwise#1", "'pairs'", "tile 2",
                                      "field 'list' has 3 elements but 'list' has 2"}));
}

void TestEngineValidation::sameSizeGroupNamesItsFields() {
    // A group naming a field the codelet does not have fails when the codelet
    // is described, naming both, not at every compile.
    TESSERA_EXPECT_ERROR(
        Error, CodeletBuilder<Pairwise>("Pairwise").field("a", &Pairwise::a).sameSize({"a", "c"}),
        (QStringList{"'Pairwise'", "'c'"}));
}

void TestEngineValidation::writeWriteConflict_data() {
    // Two Fill vertices in one compute set write views of 'acc' {8}
    // (elements 0..3 on tile 0, 4..7 on tile 1); first shared element given.
    QTest::addColumn<int>("view");
    QTest::addColumn<QString>("element");
    QTest::addColumn<QString>("tile");
    QTest::newRow("overlapping slices") << 0 << "element 4"
                                        << "tile 1";
    QTest::newRow("reversed view") << 1 << "element 6"
                                   << "tile 1";
    QTest::newRow("strided view") << 2 << "element 2"
                                  << "tile 0";
    QTest::newRow("identical") << 3 << "element 0"
                               << "tile 0";
}

void TestEngineValidation::writeWriteConflict() {
    QFETCH(int, view);
    QFETCH(QString, element);
    QFETCH(QString, tile);
    Graph g(Target::preset("tiles:4"));
    Tensor acc = g.addVariable(Type::Float, {8}, "acc");
    g.setTileMapping(acc.slice(0, 4), TileId{0u});
    g.setTileMapping(acc.slice(4, 8), TileId{1u});
    Tensor first, second;
    switch (view) {
    case 0:
        first = acc.slice(0, 5);
        second = acc.slice(4, 8);
        break;
    case 1:
        first = acc.reverse(0).slice(0, 2); // elements 7, 6
        second = acc.slice(5, 7);           // elements 5, 6
        break;
    case 2:
        first = acc.reshape({4, 2}).transpose()[0]; // elements 0, 2, 4, 6
        second = acc.slice(1, 4);                   // elements 1, 2, 3
        break;
    default:
        first = acc;
        second = acc;
        break;
    }
    const ComputeSet cs = g.addComputeSet("init");
    const VertexRef a = g.addVertex(cs, "Fill<float>", {{"out", first}});
    const VertexRef b = g.addVertex(cs, "Fill<float>", {{"out", second}});
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{1u});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"'init'", "Fill<float>#0", "Fill<float>#1", "both write",
                                      element, "'acc'", tile}));
    // In different compute sets the same writes are fine.
    Graph h(Target::preset("tiles:4"));
    Tensor acc2 = h.addVariable(Type::Float, {8}, "acc");
    h.setTileMapping(acc2, TileId{0u});
    const ComputeSet c1 = h.addComputeSet("one");
    const ComputeSet c2 = h.addComputeSet("two");
    h.setTileMapping(h.addVertex(c1, "Fill<float>", {{"out", acc2}}), TileId{0u});
    h.setTileMapping(h.addVertex(c2, "Fill<float>", {{"out", acc2}}), TileId{1u});
    compile(h, prog::Sequence({prog::Execute(c1), prog::Execute(c2)}));
}

// From 65536 vertices (engine/compiler/Compiler.cpp) the conflict check runs
// on a second thread beside validation and the later passes: a large graph's
// errors are the same as a small one's, in the same order (a validation error
// first, then a conflict, then a later pass's error: here a cycle estimator
// that throws).
void TestEngineValidation::largeGraphReportsAsASmallOne_data() {
    QTest::addColumn<int>("vertices");
    QTest::addColumn<bool>("conflict");
    QTest::addColumn<bool>("unmappedVertex");
    QTest::addColumn<bool>("throwingEstimator");
    QTest::addColumn<QString>("expected");
    for (int vertices : {8, 70000}) {
        const QByteArray size = QByteArray::number(vertices);
        QTest::newRow(size + " vertices, a conflict")
            << vertices << true << false << false << "both write";
        QTest::newRow(size + " vertices, a conflict and an unmapped vertex")
            << vertices << true << true << false << "is not mapped to a tile";
        QTest::newRow(size + " vertices, a conflict and an estimator that throws")
            << vertices << true << false << true << "both write";
        QTest::newRow(size + " vertices, an estimator that throws")
            << vertices << false << false << true << "estimator broke";
    }
}

void TestEngineValidation::largeGraphReportsAsASmallOne() {
    QFETCH(int, vertices);
    QFETCH(bool, conflict);
    QFETCH(bool, unmappedVertex);
    QFETCH(bool, throwingEstimator);
    QFETCH(QString, expected);
    Graph g(Target::preset("tiles:4"));
    const ComputeSet cs = g.addComputeSet("many");
    Tensor outs = g.addVariable(Type::Float, {std::size_t(vertices)}, "outs");
    g.setTileMapping(outs, TileId{0u});
    for (int i = 0; i < vertices; ++i) {
        // With a conflict, the last two vertices write the same element.
        const std::size_t e = conflict ? std::size_t(std::min(i, vertices - 2)) : std::size_t(i);
        const VertexRef v = g.addVertex(cs, "Fill<float>", {{"out", outs.slice(e, e + 1)}});
        if (!unmappedVertex || i != vertices / 2) {
            g.setTileMapping(v, TileId{0u});
        }
    }
    if (throwingEstimator) {
        g.registerPerfEstimator("Fill<float>",
                                [](const VertexIntrospector&, const Target&) -> PerfEstimate {
                                    throw std::runtime_error("estimator broke");
                                });
    }
    TESSERA_EXPECT_ERROR(Error, compile(g, prog::Execute(cs)), (QStringList{expected}));
}

// Vertices made in element order are checked in one pass, others sorted
// first (engine/compiler/Validate.cpp): both find the same overlaps. Sixteen
// vertices each write 4 elements of x; with an overlap, vertex 5 also writes
// element 22, which vertex 6 (elements 24..27 shifted to 22..25) writes.
void TestEngineValidation::conflictsFoundInAnyVertexOrder_data() {
    QTest::addColumn<QString>("order");
    QTest::addColumn<bool>("overlap");
    for (const char* order : {"ascending", "descending", "interleaved"}) {
        for (bool overlap : {false, true}) {
            QTest::newRow((std::string(order) + (overlap ? ", overlap" : "")).c_str())
                << order << overlap;
        }
    }
}

void TestEngineValidation::conflictsFoundInAnyVertexOrder() {
    QFETCH(QString, order);
    QFETCH(bool, overlap);
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {64}, "x");
    g.setTileMapping(x, TileId{1u});
    std::vector<std::size_t> blocks(16);
    for (std::size_t i = 0; i < 16; ++i) {
        blocks[i] = order == "descending" ? 15 - i : order == "interleaved" ? (i * 5) % 16 : i;
    }
    const ComputeSet cs = g.addComputeSet("fill");
    for (const std::size_t b : blocks) {
        const std::size_t begin = overlap && b == 6 ? 22 : b * 4;
        g.setTileMapping(g.addVertex(cs, "Fill<float>", {{"out", x.slice(begin, begin + 4)}}),
                         TileId{0u});
    }
    if (!overlap) {
        compile(g, prog::Execute(cs));
        return;
    }
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"'fill'", "both write", "element 22", "'x'", "tile 1"}));
}

// With overlaps in two variables the error names the one of the lower id,
// whichever the vertices reach first.
void TestEngineValidation::firstConflictIsOfTheLowestVariable() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {8}, "a");
    Tensor b = g.addVariable(Type::Float, {8}, "b");
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{0u});
    const ComputeSet cs = g.addComputeSet("two");
    for (const Tensor& t : {b.slice(0, 4), b.slice(3, 7), a.slice(0, 4), a.slice(1, 5)}) {
        g.setTileMapping(g.addVertex(cs, "Fill<float>", {{"out", t}}), TileId{0u});
    }
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"Fill<float>#2", "Fill<float>#3", "element 1", "'a'"}));
}

void TestEngineValidation::readWriteConflict_data() {
    QTest::addColumn<QString>("reader");
    QTest::addColumn<QString>("element");
    QTest::addColumn<QString>("tile");
    QTest::newRow("Input overlaps Output") << "Exp<float>"
                                           << "element 2"
                                           << "tile 0";
    QTest::newRow("InOut overlaps Input") << "ScaledAdd<float>"
                                          << "element 2"
                                          << "tile 0";
    QTest::newRow("scalar Input") << "AddScalar<float>"
                                  << "element 3"
                                  << "tile 1";
}

void TestEngineValidation::readWriteConflict() {
    QFETCH(QString, reader);
    QFETCH(QString, element);
    QFETCH(QString, tile);
    Graph g(Target::preset("tiles:4"));
    Tensor out = g.addVariable(Type::Float, {8}, "out");
    Tensor other = g.addVariable(Type::Float, {4}, "other");
    Tensor in = g.addVariable(Type::Float, {4}, "in");
    g.setTileMapping(out.slice(0, 3), TileId{0u});
    g.setTileMapping(out.slice(3, 8), TileId{1u});
    g.setTileMapping(other, TileId{2u});
    g.setTileMapping(in, TileId{2u});
    const ComputeSet cs = g.addComputeSet("step");
    const VertexRef w =
        g.addVertex(cs, "Add<float>", {{"in1", in}, {"in2", in}, {"out", out.slice(0, 4)}});
    g.setTileMapping(w, TileId{3u});
    VertexRef r;
    if (reader == "Exp<float>") {
        r = g.addVertex(cs, "Exp<float>", {{"in", out.slice(2, 6)}, {"out", other}});
    } else if (reader == "ScaledAdd<float>") {
        r = g.addVertex(cs, "ScaledAdd<float>", {{"data", other}, {"deltas", out.slice(2, 6)}});
    } else {
        r = g.addVertex(cs, "AddScalar<float>",
                        {{"in", in}, {"scalar", out.elementAt(3)}, {"out", other}});
    }
    g.setTileMapping(r, TileId{2u});
    TESSERA_EXPECT_ERROR(ValidationError, compile(g, prog::Execute(cs)),
                         (QStringList{"'step'", "Add<float>#0", reader + "#1",
                                      "one writes what the other reads", element, "'out'", tile}));
}

void TestEngineValidation::accessesThatDoNotConflict() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {8}, "x");
    Tensor y = g.addVariable(Type::Float, {8}, "y");
    g.setTileMapping(x, TileId{0u});
    g.setTileMapping(y, TileId{1u});
    const ComputeSet cs = g.addComputeSet("ok");
    // Two readers of the same elements; in-place update by one vertex; adjacent writes.
    g.setTileMapping(
        g.addVertex(cs, "Add<float>",
                    {{"in1", x.slice(0, 4)}, {"in2", x.slice(0, 4)}, {"out", y.slice(0, 4)}}),
        TileId{0u});
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", x.slice(0, 4)}, {"out", y.slice(4, 8)}}),
                     TileId{1u});
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", x.slice(4, 8)}, {"out", x.slice(4, 8)}}),
                     TileId{0u});
    g.createHostWrite("x", x);
    g.createHostRead("y", y);
    g.createHostRead("x", x);
    Engine engine(g, prog::Execute(cs), oneThread());
    const std::vector<float> input{0, 1, 2, 3, 0.5f, -1, 1.5f, 2};
    engine.writeTensor("x", input.data(), input.data() + input.size());
    engine.run();
    std::vector<float> xs(8), ys(8);
    engine.readTensor("x", xs.data(), xs.data() + 8);
    engine.readTensor("y", ys.data(), ys.data() + 8);
    for (std::size_t i = 0; i < 4; ++i) {
        QCOMPARE(ys[i], input[i] + input[i]);
        QCOMPARE(ys[4 + i], std::exp(input[i]));
        QCOMPARE(xs[i], input[i]);
        QCOMPARE(xs[4 + i], std::exp(input[4 + i]));
    }
}

void TestEngineValidation::overlappingCopy() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {8}, "buffer");
    g.setTileMapping(x, TileId{0u});
    TESSERA_EXPECT_ERROR(ValidationError,
                         compile(g, prog::Copy(x.slice(0, 4), x.slice(2, 6), "shift")),
                         (QStringList{"'shift'", "'buffer'", "overlap"}));
    TESSERA_EXPECT_ERROR(ValidationError,
                         compile(g, prog::Copy(x.slice(0, 4), x.slice(0, 4).reverse(0))),
                         QStringList{"'buffer'"});
    compile(g, prog::Copy(x, x));                         // onto itself: allowed, moves nothing
    compile(g, prog::Copy(x.slice(0, 4), x.slice(4, 8))); // disjoint halves
}

void TestEngineValidation::outOfMemory_data() {
    QTest::addColumn<bool>("allow");
    QTest::newRow("refused") << false;
    QTest::newRow("allowOutOfMemory") << true;
}

void TestEngineValidation::outOfMemory() {
    QFETCH(bool, allow);
    Target target = Target::preset("tiles:2");
    target.set("bytesPerTile", "4096");
    Graph g(target);
    Tensor big = g.addVariable(Type::Float, {2000}, "big");
    g.setTileMapping(big, TileId{1u});
    const ComputeSet cs = g.addComputeSet("fill");
    const VertexRef v = g.addVertex(cs, "Fill<float>", {{"out", big}});
    g.setInitialValue(v["value"], 3.0);
    g.setTileMapping(v, TileId{1u});

    // Tile 1, in address order (MemoryLayout.cpp; offsets from the memory base):
    //   vertex code  Fill<float> 96 bytes             [0, 96)
    //   control code 64 + 12 x 1 step = 76, align 8   [96, 172)
    //   vertex state out (vector edge 8) + value (4)  [172, 184)
    //   data         'big' is written first by the only step, so not-always-live;
    //                pool at align 8: 2000 x 4 = 8000 [184, 8184)
    //   stack        max(256 worker stack, 64 codelet) x 6 contexts + 128 supervisor
    //                = 1664 at align 8                [8184, 9848)
    const std::uint64_t tile1Total = 96 + 76 + 12 + 8000 + 1664;
    QCOMPARE(tile1Total, std::uint64_t{9848});
    const std::uint64_t tile1Overflow = tile1Total - 4096;
    // Tile 0: control code 76, data start aligned to 80, stack 1664.
    const std::uint64_t tile0Total = 80 + 1664;

    record::InMemoryRecorder recorder;
    if (!allow) {
        TESSERA_EXPECT_ERROR(
            OutOfMemoryError, Engine e(g, prog::Execute(cs), oneThread(&recorder)),
            (QStringList{"1 tile(s)", "tile 1", "9848", "4096"})); // each face adds its own hint
    } else {
        Engine engine(g, prog::Execute(cs), oneThread(&recorder, true));
        engine.run();
        const std::vector<double> values = engine.readValues(big);
        QCOMPARE(values.size(), std::size_t{2000});
        QVERIFY(std::all_of(values.begin(), values.end(), [](double d) { return d == 3.0; }));
        QCOMPARE(recorder.runEnds.size(), std::size_t{1});
        QVERIFY(recorder.runEnds[0].completed);
    }
    const record::CompiledRecord& c = recorder.compiled;
    QVERIFY(c.outOfMemory);
    QCOMPARE(c.tileMemory.size(), std::size_t{2});
    QCOMPARE(c.tileMemory[1].totalIncludingGaps, tile1Total);
    QCOMPARE(c.tileMemory[1].overflowBytes, tile1Overflow);
    QCOMPARE(c.tileMemory[1].gapBytes, std::uint64_t{0});
    QCOMPARE(c.tileMemory[0].totalIncludingGaps, tile0Total);
    QCOMPARE(c.tileMemory[0].overflowBytes, std::uint64_t{0});
    QCOMPARE(c.target.bytesPerTile, 4096u);
    QCOMPARE(c.totalMemoryBytes, tile0Total + tile1Total);
}

void TestEngineValidation::worstTileIsNamed() {
    Target target = Target::preset("tiles:3");
    target.set("bytesPerTile", "4096");
    Graph g(target);
    Tensor a = g.addVariable(Type::Float, {3000}, "a"); // unused: always-live
    Tensor b = g.addVariable(Type::Float, {1000}, "b");
    g.setTileMapping(a, TileId{0u});
    g.setTileMapping(b, TileId{2u});
    // Empty program: control code 64 bytes, data from 64, stack 1664 last.
    // Tile 0: 64 + 12000 + 1664 = 13728 (overflow 9632); tile 2: 64 + 4000 + 1664 = 5728 (1632).
    record::InMemoryRecorder recorder;
    TESSERA_EXPECT_ERROR(OutOfMemoryError, Engine e(g, prog::Sequence(), oneThread(&recorder)),
                         (QStringList{"2 tile(s)", "tile 0 needs 13728 bytes of 4096"}));
    QCOMPARE(recorder.compiled.tileMemory[0].overflowBytes, std::uint64_t{13728 - 4096});
    QCOMPARE(recorder.compiled.tileMemory[1].overflowBytes, std::uint64_t{0});
    QCOMPARE(recorder.compiled.tileMemory[2].overflowBytes, std::uint64_t{5728 - 4096});
    QCOMPARE(recorder.compiled.tileMemory[2]
                 .bytesByCategory[std::size_t(record::MemoryCategory::AlwaysLiveVariable)],
             std::uint64_t{4000});
}

QTEST_APPLESS_MAIN(TestEngineValidation)
#include "tst_engine_validation.moc"
