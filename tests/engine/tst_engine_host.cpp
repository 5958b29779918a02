// What a program exchanges with the host, checked against values computed
// here: stream copies through a circular buffer and through callbacks,
// PrintTensor's format, and host read/write handles.
#include "EngineRunSupport.h"
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cstring>
#include <sstream>

using namespace tessera;
namespace prog = tessera::program;
using tessera::test::options;

namespace {

std::vector<float> floats(std::initializer_list<float> v) {
    return std::vector<float>(v);
}

} // namespace

class TestEngineHost : public QObject {
    Q_OBJECT

private slots:
    void hostStreamsCircularBuffer();
    void hostStreamCallbacks();
    void printTensorFormat();
    void hostHandles();
};

void TestEngineHost::hostStreamsCircularBuffer() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Float, {4}, "x");
    Tensor y = g.addVariable(Type::Float, {4}, "y");
    Tensor two = g.addConstant(Type::Float, {}, 2.0, "two");
    g.setTileMapping(x.slice(0, 2), TileId{0u});
    g.setTileMapping(x.slice(2, 4), TileId{1u});
    g.setTileMapping(y, TileId{2u});
    g.setTileMapping(two, TileId{2u});
    const DataStream in = g.addHostToDeviceFIFO("in", Type::Float, 4);
    const DataStream out = g.addDeviceToHostFIFO("out", Type::Float, 4);
    const ComputeSet cs = g.addComputeSet("double");
    g.setTileMapping(g.addVertex(cs, "MulScalar<float>", {{"in", x}, {"scalar", two}, {"out", y}}),
                     TileId{2u});
    Engine engine(g, prog::Sequence({prog::Copy(in, x), prog::Execute(cs), prog::Copy(y, out)}),
                  options(2));
    // The input buffer holds one and a half transfers: the second run wraps inside a transfer.
    std::vector<float> inBuffer{1, 2, 3, 4, 5, 6};
    std::vector<float> outBuffer(8, -1.0f);
    engine.connectStream("in", inBuffer.data(), inBuffer.data() + inBuffer.size());
    engine.connectStream("out", outBuffer.data(), outBuffer.data() + outBuffer.size());
    engine.run();
    CHECK_EQUAL(outBuffer, floats({2, 4, 6, 8, -1, -1, -1, -1}));
    engine.run(); // in[4], in[5], in[0], in[1]
    CHECK_EQUAL(outBuffer, floats({2, 4, 6, 8, 10, 12, 2, 4}));
    engine.run(); // in[2..5]; the output wraps to its start
    CHECK_EQUAL(outBuffer, floats({6, 8, 10, 12, 10, 12, 2, 4}));
    CHECK_EQUAL(engine.read<float>(x), floats({3, 4, 5, 6}));
    // Reconnecting starts at the beginning again; one transfer's worth each run.
    std::vector<float> single{-1, 0.5f, 7, 9};
    std::vector<float> result(4);
    engine.connectStream("in", single.data());
    engine.connectStream("out", result.data());
    engine.run();
    CHECK_EQUAL(result, floats({-2, 1, 14, 18}));
    single[0] = 100;
    engine.run();
    CHECK_EQUAL(result, floats({200, 1, 14, 18}));
}

void TestEngineHost::hostStreamCallbacks() {
    Graph g(Target::preset("tiles:4"));
    Tensor x = g.addVariable(Type::Int, {3}, "x");
    g.setTileMapping(x, TileId{3u});
    const DataStream in = g.addHostToDeviceFIFO("in", Type::Int, 3);
    const DataStream out = g.addDeviceToHostFIFO("out", Type::Int, 3);
    Engine engine(g, prog::Sequence({prog::Copy(in, x), prog::Copy(x.reverse(0), out)}),
                  options(1));
    int calls = 0;
    std::vector<std::int32_t> seen;
    engine.connectStreamToCallback("in", [&](void* p) {
        const std::int32_t v[3] = {calls, 10 * calls, -calls};
        std::memcpy(p, v, sizeof v);
        ++calls;
    });
    engine.connectStreamToCallback("out", [&](void* p) {
        std::int32_t v[3];
        std::memcpy(v, p, sizeof v);
        seen.insert(seen.end(), v, v + 3);
    });
    engine.run();
    engine.run();
    QCOMPARE(calls, 2);
    QCOMPARE(seen, (std::vector<std::int32_t>{0, 0, 0, -1, 10, 1}));
}

void TestEngineHost::printTensorFormat() {
    Graph g(Target::preset("tiles:4"));
    Tensor f = g.addVariable(Type::Float, {2, 3}, "matrix");
    Tensor n = g.addVariable(Type::Int, {2}, "ints");
    Tensor h = g.addVariable(Type::Half, {}, "h");
    Tensor b = g.addVariable(Type::Bool, {3}, "flags");
    Tensor cube = g.addVariable(Type::UnsignedInt, {2, 1, 2}, "cube");
    g.setTileMapping(f.slice(0, 1), TileId{0u});
    g.setTileMapping(f.slice(1, 2), TileId{3u});
    g.setTileMapping(n, TileId{1u});
    g.setTileMapping(h, TileId{2u});
    g.setTileMapping(b, TileId{2u});
    g.setTileMapping(cube, TileId{1u});
    std::ostringstream os;
    Engine engine(g,
                  prog::Sequence({prog::PrintTensor("matrix", f), prog::PrintTensor("ints", n),
                                  prog::PrintTensor("h", h), prog::PrintTensor("flags", b),
                                  prog::PrintTensor(cube), prog::PrintTensor("t", f.transpose())}),
                  options(2, nullptr, &os));
    engine.writeValues(f, std::vector<double>{1, -2.5, 3, 0.125, 5, 6});
    engine.writeValues(n, std::vector<double>{7, -8});
    engine.writeValues(h, std::vector<double>{0.1});
    engine.writeValues(b, std::vector<double>{1, 0, 1});
    engine.writeValues(cube, std::vector<double>{1, 2, 3, 4000000000.0});
    engine.run();
    const std::string expected = "matrix: [\n"
                                 " [1.0000000 -2.5000000 3.0000000]\n"
                                 " [0.1250000 5.0000000 6.0000000]\n"
                                 "]\n"
                                 "ints: [7 -8]\n"
                                 "h: [0.0999756]\n"
                                 "flags: [1 0 1]\n"
                                 "'cube': [\n"
                                 " [\n"
                                 "  [1 2]\n"
                                 " ]\n"
                                 " [\n"
                                 "  [3 4000000000]\n"
                                 " ]\n"
                                 "]\n"
                                 "t: [\n"
                                 " [1.0000000 0.1250000]\n"
                                 " [-2.5000000 5.0000000]\n"
                                 " [3.0000000 6.0000000]\n"
                                 "]\n";
    QCOMPARE(QString::fromStdString(os.str()), QString::fromStdString(expected));
    // The stream's formatting is left as it was.
    os.str("");
    os << 1.5;
    QCOMPARE(QString::fromStdString(os.str()), QStringLiteral("1.5"));
}

void TestEngineHost::hostHandles() {
    Graph g(Target::preset("tiles:4"));
    Tensor a = g.addVariable(Type::Float, {2, 3}, "a");
    Tensor e = g.addVariable(Type::Float, {2, 3}, "e");
    g.setTileMapping(a[0], TileId{0u});
    g.setTileMapping(a[1], TileId{1u});
    g.setTileMapping(e.flatten().slice(0, 4), TileId{2u});
    g.setTileMapping(e.flatten().slice(4, 6), TileId{3u});
    g.createHostWrite("a", a);
    g.createHostRead("e", e);
    g.createHostRead("eT", e.transpose());
    const ComputeSet cs = g.addComputeSet("exp");
    g.setTileMapping(g.addVertex(cs, "Exp<float>", {{"in", a.flatten()}, {"out", e.flatten()}}),
                     TileId{2u});
    Engine engine(g, prog::Execute(cs), options(2));
    const std::vector<float> input{0, 1, -1, 0.5f, 2, -3};
    engine.writeTensor("a", input.data(), input.data() + input.size());
    engine.run();
    std::vector<float> want, wantT(6);
    for (float v : input) {
        want.push_back(std::exp(v));
    }
    for (std::size_t r = 0; r < 2; ++r) {
        for (std::size_t c = 0; c < 3; ++c) {
            wantT[c * 2 + r] = want[r * 3 + c];
        }
    }
    std::vector<float> got(6), gotT(6);
    engine.readTensor("e", got.data(), got.data() + 6);
    engine.readTensor("eT", gotT.data(), gotT.data() + 6);
    CHECK_EQUAL(got, want);
    CHECK_EQUAL(gotT, wantT);
    CHECK_EQUAL(engine.read<float>(e), want);
    // Typed write through a view, read back through the variable.
    const std::vector<float> column{9, 8};
    engine.write<float>(a.transpose()[2], column);
    CHECK_EQUAL(engine.read<float>(a.flatten()), floats({0, 1, 9, 0.5f, 2, 8}));
    QVERIFY(engine.compiled().record.variables[0].hostAccess);
    QVERIFY(engine.compiled().record.variables[0].alwaysLive);
}

QTEST_APPLESS_MAIN(TestEngineHost)
#include "tst_engine_host.moc"
