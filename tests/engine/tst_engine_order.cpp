// ops/Order.h against std::sort and hand-built encodings: sorting along any
// dimension of tensors cut across tiles, key-value sorting, one-hot rows with
// out-of-range indices and custom on / off values, iota.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Order.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <numeric>
#include <random>

using namespace tessera;
namespace prog = tessera::program;

class TestEngineOrder : public QObject {
    Q_OBJECT

private slots:
    // [3, 4, 5] sorted along each dimension; a copy, and in place.
    void sortAlongEachDimension() {
        std::mt19937 rng(11);
        std::vector<double> values(60);
        for (double& v : values) {
            v = double(int(rng() % 41) - 20);
        }
        for (std::size_t dim = 0; dim < 3; ++dim) {
            Graph g(Target::preset("tiles:4"));
            const Tensor t = g.addVariable(Type::Int, {3, 4, 5}, "t");
            ops::mapLinearly(g, t, 7); // lines cut across tiles
            prog::Sequence seq;
            const Tensor sorted = ops::sort(g, seq, t, dim, "sort");
            ops::sortInPlace(g, seq, t, dim, "sortInPlace");
            g.createHostRead("sorted", sorted); // live to the end, as read back
            g.createHostRead("t", t);
            Engine engine(g, seq);
            engine.writeValues(t, values);
            engine.run();
            // The reference: each line sorted with std::sort.
            const std::size_t shape[3] = {3, 4, 5};
            std::vector<double> want = values;
            const std::size_t stride = dim == 0 ? 20 : dim == 1 ? 5 : 1;
            for (std::size_t start = 0; start < 60; ++start) {
                const std::size_t coord = (start / stride) % shape[dim];
                if (coord != 0) {
                    continue; // not a line's first element
                }
                std::vector<double> line;
                for (std::size_t i = 0; i < shape[dim]; ++i) {
                    line.push_back(values[start + i * stride]);
                }
                std::sort(line.begin(), line.end());
                for (std::size_t i = 0; i < shape[dim]; ++i) {
                    want[start + i * stride] = line[i];
                }
            }
            QCOMPARE(engine.readValues(sorted), want);
            QCOMPARE(engine.readValues(t), want);
        }
    }

    // Values follow their keys; equal keys keep their order.
    void sortKeyValue() {
        Graph g(Target::preset("tiles:4"));
        const Tensor keys = g.addVariable(Type::Float, {2, 6}, "keys");
        const Tensor values = g.addVariable(Type::UnsignedInt, {2, 6}, "values");
        ops::mapLinearly(g, keys, 4);
        ops::mapLinearly(g, values, 5);
        prog::Sequence seq;
        const Tensor out = ops::sortKeyValue(g, seq, keys, values, 1, "kv");
        ops::sortKeyValueInPlace(g, seq, keys, values, 1, "kvInPlace");
        g.createHostRead("out", out);
        g.createHostRead("keys", keys);
        g.createHostRead("values", values);
        Engine engine(g, seq);
        engine.writeValues(keys, std::vector<double>{3, 1, 2, 1, -5, 0, 9, 8, 7, 6, 5, 4});
        engine.writeValues(values, std::vector<double>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
        engine.run();
        const std::vector<double> want = {4, 5, 1, 3, 2, 0, 5, 4, 3, 2, 1, 0};
        QCOMPARE(engine.readValues(out), want);
        QCOMPARE(engine.readValues(values), want);
        QCOMPARE(engine.readValues(keys),
                 (std::vector<double>{-5, 0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
    }

    void oneHot() {
        Graph g(Target::preset("tiles:4"));
        const Tensor idx = g.addVariable(Type::Int, {5}, "idx");
        g.setTileMapping(idx, TileId{2u});
        const Tensor enc = g.addVariable(Type::Float, {5, 4}, "enc");
        ops::mapLinearly(g, enc, 3); // rows cut across tiles
        const Tensor enc2 = g.addVariable(Type::Half, {5, 4}, "enc2");
        ops::mapLinearly(g, enc2);
        const Tensor on = g.addVariable(Type::Half, {}, "on");
        const Tensor off = g.addVariable(Type::Half, {}, "off");
        g.setTileMapping(on, TileId{0u});
        g.setTileMapping(off, TileId{1u});
        prog::Sequence seq;
        ops::encodeOneHot(g, seq, idx, enc, std::nullopt, std::nullopt, "oneHot");
        ops::encodeOneHot(g, seq, idx, enc2, on, off, "oneHotOnOff");
        g.createHostRead("enc", enc);
        g.createHostRead("enc2", enc2);
        Engine engine(g, seq);
        const std::vector<double> indices = {2, 0, 7, -1, 3}; // 7 and -1 out of range
        engine.writeValues(idx, indices);
        engine.writeValues(on, std::vector<double>{2.5});
        engine.writeValues(off, std::vector<double>{-1});
        engine.run();
        std::vector<double> want(20, 0), want2(20, -1);
        for (std::size_t r = 0; r < 5; ++r) {
            if (indices[r] >= 0 && indices[r] < 4) {
                want[r * 4 + static_cast<std::size_t>(indices[r])] = 1;
                want2[r * 4 + static_cast<std::size_t>(indices[r])] = 2.5;
            }
        }
        QCOMPARE(engine.readValues(enc), want);
        QCOMPARE(engine.readValues(enc2), want2);
    }

    void iotaAcrossTiles() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = g.addVariable(Type::Int, {10}, "t");
        ops::mapLinearly(g, t, 3);
        prog::Sequence seq;
        ops::iota(g, seq, t, -4, "iota");
        g.createHostRead("t", t);
        Engine engine(g, seq);
        engine.run();
        std::vector<double> want(10);
        std::iota(want.begin(), want.end(), -4.0);
        QCOMPARE(engine.readValues(t), want);
    }

    void errors() {
        Graph g(Target::preset("tiles:4"));
        const Tensor t = g.addVariable(Type::Float, {3, 4}, "t");
        const Tensor b = g.addVariable(Type::Bool, {3, 4}, "b");
        const Tensor fidx = g.addVariable(Type::Float, {3}, "fidx");
        prog::Sequence seq;
        TESSERA_EXPECT_ERROR(Error, ops::sortInPlace(g, seq, t, 2, "s"),
                             (QStringList{"dimension 2", "out of range"}));
        TESSERA_EXPECT_ERROR(Error, ops::sortInPlace(g, seq, b, 0, "s"),
                             (QStringList{"bool", "not supported"}));
        TESSERA_EXPECT_ERROR(Error,
                             ops::encodeOneHot(g, seq, fidx, t, std::nullopt, std::nullopt, "e"),
                             (QStringList{"fidx", "unsigned int or int"}));
    }
};

QTEST_GUILESS_MAIN(TestEngineOrder)
#include "tst_engine_order.moc"
