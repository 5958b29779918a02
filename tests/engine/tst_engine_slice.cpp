// ops/Slice.h against host index arithmetic done here: dynamic slices and
// updates (wrapping, out-of-range offsets, several dimensions), multiSlice
// and the multiUpdate family (duplicates, out-of-range offsets ignored),
// every element type, a sliceable layout that needs no exchange, and errors.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Slice.h"
#include "engine/record/Recorder.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

using namespace tessera;
namespace prog = tessera::program;

namespace {

std::vector<double> iota(std::size_t n, double from = 0) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = from + double(i);
    }
    return v;
}

Tensor offsetsTensor(Graph& g, std::size_t n, const std::string& name = "offsets") {
    Tensor t = g.addVariable(Type::UnsignedInt, {n}, name);
    g.setTileMapping(t, TileId{3u});
    return t;
}

} // namespace

class TestEngineSlice : public QObject {
    Q_OBJECT

private slots:
    // Rows (o + i) mod 10 of a [10, 6] sliceable tensor; an out-of-range
    // offset starts at 0.
    void dynamicSliceWrapsAround_data() {
        QTest::addColumn<unsigned>("offset");
        QTest::addColumn<QList<int>>("rows");
        QTest::newRow("inside") << 2u << QList<int>{2, 3, 4};
        QTest::newRow("wraps") << 8u << QList<int>{8, 9, 0};
        QTest::newRow("out of range starts at 0") << 12u << QList<int>{0, 1, 2};
    }
    void dynamicSliceWrapsAround() {
        QFETCH(unsigned, offset);
        QFETCH(QList<int>, rows);
        Graph g(Target::preset("tiles:4"));
        const Tensor t = ops::createSliceable(g, Type::Float, {10, 6}, 0, 1, "t");
        const Tensor off = offsetsTensor(g, 1);
        prog::Sequence seq;
        const Tensor out = ops::dynamicSlice(g, seq, t, off, {0}, {3}, "slice");
        QCOMPARE(out.shape(), (std::vector<std::size_t>{3, 6}));
        Engine engine(g, seq);
        engine.writeValues(t, iota(60));
        engine.writeValues(off, std::vector<double>{double(offset)});
        engine.run();
        std::vector<double> want;
        for (int r : rows) {
            for (int c = 0; c < 6; ++c) {
                want.push_back(r * 6 + c);
            }
        }
        QCOMPARE(engine.readValues(out), want);
    }

    // [5, 7, 3] sliced along dims 0 and 1 by {2, 3} at {4, 5}.
    void dynamicSliceSeveralDimensions() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = g.addVariable(Type::Int, {5, 7, 3}, "t");
        ops::mapLinearly(g, t, 5);
        const Tensor off = offsetsTensor(g, 2);
        prog::Sequence seq;
        const Tensor out = ops::dynamicSlice(g, seq, t, off, {0, 1}, {2, 3}, "slice");
        Engine engine(g, seq);
        engine.writeValues(t, iota(105));
        engine.writeValues(off, std::vector<double>{4, 5});
        engine.run();
        std::vector<double> want;
        for (std::size_t i : {4, 0}) {
            for (std::size_t j : {5, 6, 0}) {
                for (std::size_t k = 0; k < 3; ++k) {
                    want.push_back(double((i * 7 + j) * 3 + k));
                }
            }
        }
        QCOMPARE(engine.readValues(out), want);
    }

    void dynamicUpdateOneAndSeveralDimensions() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = g.addVariable(Type::Half, {4, 5}, "t");
        ops::mapLinearly(g, t, 3);
        const Tensor s = g.addVariable(Type::Half, {2, 5}, "s");
        ops::mapLinearly(g, s);
        const Tensor u = g.addVariable(Type::Float, {6, 4, 2}, "u");
        ops::mapLinearly(g, u, 4);
        const Tensor patch = g.addVariable(Type::Float, {1, 2, 2}, "patch");
        g.setTileMapping(patch, TileId{1u});
        const Tensor off1 = offsetsTensor(g, 1, "off1");
        const Tensor off2 = offsetsTensor(g, 2, "off2");
        prog::Sequence seq;
        ops::dynamicUpdate(g, seq, t, s, off1, {0}, {2}, "update");
        ops::dynamicUpdate(g, seq, u, patch, off2, {0, 1}, {1, 2}, "update2");
        g.createHostRead("t", t); // live to the end: read back below
        g.createHostRead("u", u);
        Engine engine(g, seq);
        engine.writeValues(t, iota(20));
        engine.writeValues(s, iota(10, 100));
        engine.writeValues(u, iota(48));
        engine.writeValues(patch, std::vector<double>{-1, -2, -3, -4});
        engine.writeValues(off1, std::vector<double>{3});    // rows 3 and 0 (wraps)
        engine.writeValues(off2, std::vector<double>{5, 3}); // u[5, 3] and u[5, 0]
        engine.run();
        std::vector<double> want = iota(20);
        for (std::size_t c = 0; c < 5; ++c) {
            want[3 * 5 + c] = 100 + double(c);
            want[0 * 5 + c] = 105 + double(c);
        }
        QCOMPARE(engine.readValues(t), want);
        std::vector<double> wantU = iota(48);
        wantU[(5 * 4 + 3) * 2 + 0] = -1;
        wantU[(5 * 4 + 3) * 2 + 1] = -2;
        wantU[(5 * 4 + 0) * 2 + 0] = -3;
        wantU[(5 * 4 + 0) * 2 + 1] = -4;
        QCOMPARE(engine.readValues(u), wantU);
    }

    // An embedding lookup: rows of a [8, 4] table; an out-of-range index gives zeros.
    void multiSliceRows() {
        Graph g(Target::preset("tiles:4"));
        const Tensor table = ops::createSliceable(g, Type::Float, {8, 4}, 0, 1, "table");
        const Tensor idx = offsetsTensor(g, 4, "idx");
        prog::Sequence seq;
        const Tensor rows = ops::multiSlice(g, seq, table, idx, 0, 1, "lookup");
        QCOMPARE(rows.shape(), (std::vector<std::size_t>{4, 1, 4}));
        Engine engine(g, seq);
        engine.writeValues(table, iota(32));
        engine.writeValues(idx, std::vector<double>{3, 0, 9, 3});
        engine.run();
        const std::vector<double> want = {12, 13, 14, 15, 0, 1, 2, 3, 0, 0, 0, 0, 12, 13, 14, 15};
        QCOMPARE(engine.readValues(rows), want);
    }

    // Columns of a [3, 5] tensor (dim 1): the outer dimension is kept.
    void multiSliceColumns() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = g.addVariable(Type::Bool, {3, 5}, "t");
        ops::mapLinearly(g, t, 2);
        const Tensor idx = offsetsTensor(g, 2, "idx");
        prog::Sequence seq;
        const Tensor cols = ops::multiSlice(g, seq, t, idx, 1, 1, "columns");
        QCOMPARE(cols.shape(), (std::vector<std::size_t>{2, 3, 1}));
        Engine engine(g, seq);
        std::vector<double> values(15);
        for (std::size_t i = 0; i < 15; ++i) {
            values[i] = (i % 3 == 0) ? 1 : 0;
        }
        engine.writeValues(t, values);
        engine.writeValues(idx, std::vector<double>{4, 0});
        engine.run();
        std::vector<double> want;
        for (std::size_t c : {4, 0}) {
            for (std::size_t r = 0; r < 3; ++r) {
                want.push_back(values[r * 5 + c]);
            }
        }
        QCOMPARE(engine.readValues(cols), want);
    }

    void multiUpdateFamily() {
        for (const ops::UpdateOp op :
             {ops::UpdateOp::Assign, ops::UpdateOp::Add, ops::UpdateOp::Max}) {
            Graph g(Target::preset("tiles:4"));
            const Tensor t = ops::createSliceable(g, Type::Float, {6, 3}, 0, 1, "t");
            const Tensor s = g.addVariable(Type::Float, {4, 1, 3}, "s");
            ops::mapLinearly(g, s);
            const Tensor idx = offsetsTensor(g, 4, "idx");
            const Tensor k = g.addVariable(Type::Float, {}, "k");
            g.setTileMapping(k, TileId{0u});
            prog::Sequence seq;
            ops::multiUpdate(g, seq, t, s, idx, 0, 1, op, k, "update");
            Engine engine(g, seq);
            const std::vector<double> base = iota(18, -5);
            const std::vector<double> sv = {10, -20, 30, 1, 2, 3, 7, 7, 7, -4, 50, -6};
            const std::vector<double> iv = {2, 5, 2, 6}; // a duplicate, and 6 is out of range
            engine.writeValues(t, base);
            engine.writeValues(s, sv);
            engine.writeValues(idx, iv);
            engine.writeValues(k, std::vector<double>{0.5});
            engine.run();
            std::vector<double> want = base;
            for (std::size_t i = 0; i < 4; ++i) {
                const auto row = static_cast<std::size_t>(iv[i]);
                if (row >= 6) {
                    continue;
                }
                for (std::size_t c = 0; c < 3; ++c) {
                    double& w = want[row * 3 + c];
                    const double x = sv[i * 3 + c];
                    w = op == ops::UpdateOp::Assign ? x
                        : op == ops::UpdateOp::Add  ? w + 0.5 * x
                                                    : std::max(w, x);
                }
            }
            QCOMPARE(engine.readValues(t), want);
        }
    }

    // A sliceable tensor and its offsets on the vertices' tiles: the slice
    // moves only the offset, nothing of the table.
    void sliceableLayoutNeedsNoExchangeOfTheTable() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = ops::createSliceable(g, Type::Float, {64, 16}, 0, 4, "t");
        const auto mapping = g.getTileMapping(t);
        for (const auto& ranges : mapping) {
            std::size_t n = 0;
            for (const auto& [b, e] : ranges) {
                n += e - b;
            }
            QCOMPARE(n, std::size_t{64 * 4}); // 4 columns of all 64 rows per tile
        }
        const Tensor off = offsetsTensor(g, 1);
        prog::Sequence seq;
        ops::dynamicSlice(g, seq, t, off, {0}, {1}, "slice");
        record::InMemoryRecorder recorder;
        EngineOptions options;
        options.recorder = &recorder;
        Engine engine(g, seq, options);
        engine.run();
        std::uint64_t bytesIn = 0;
        for (const auto& step : recorder.compiled.programSteps) {
            for (const std::uint32_t b : step.bytesIn) {
                bytesIn += b;
            }
        }
        QCOMPARE(bytesIn, std::uint64_t{3 * 4}); // the 4-byte offset to tiles 0..2
    }

    void errors() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = ops::createSliceable(g, Type::Float, {6, 3}, 0, 1, "t");
        const Tensor signedOff = g.addVariable(Type::Int, {1}, "signed");
        const Tensor off = offsetsTensor(g, 1);
        prog::Sequence seq;
        TESSERA_EXPECT_ERROR(Error, ops::dynamicSlice(g, seq, t, signedOff, {0}, {1}, "s"),
                             (QStringList{"signed", "unsigned int"}));
        TESSERA_EXPECT_ERROR(Error, ops::dynamicSlice(g, seq, t, off, {0}, {7}, "s"),
                             (QStringList{"7", "larger than the dimension"}));
        TESSERA_EXPECT_ERROR(Error, ops::dynamicSlice(g, seq, t, off, {2}, {1}, "s"),
                             (QStringList{"dimension 2", "out of range"}));
        TESSERA_EXPECT_ERROR(Error, ops::multiSlice(g, seq, t, off, 0, 2, "m"),
                             (QStringList{"not supported by Tessera", "slices of 2"}));
        const Tensor s = g.addVariable(Type::Float, {1, 1, 3}, "s");
        const Tensor intScale = g.addVariable(Type::Int, {}, "k");
        TESSERA_EXPECT_ERROR(
            Error, ops::multiUpdate(g, seq, t, s, off, 0, 1, ops::UpdateOp::Add, intScale, "m"),
            (QStringList{"scale", "int", "float"}));
    }
};

QTEST_GUILESS_MAIN(TestEngineSlice)
#include "tst_engine_slice.moc"
