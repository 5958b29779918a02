// ops::reduce against a host reference computed here: random shapes, sets of
// dimensions, tile mappings, every operation and supported type pair, constant
// and tensor scales, updates; PopLibs' errors; one stage or two as the
// mapping requires.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/Reduction.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <cmath>
#include <limits>
#include <random>

using namespace tessera;
namespace prog = tessera::program;

namespace {

struct Case {
    ops::ReduceOp op;
    Type in, out;
};

// The reference: op over the elements of `values` (a row-major `shape`)
// that share their kept coordinates, in double (exact for the integers here).
std::vector<double> hostReduce(const std::vector<double>& values,
                               const std::vector<std::size_t>& shape,
                               const std::vector<std::size_t>& dims, ops::ReduceOp op, Type type) {
    std::vector<std::size_t> outShape, strides(shape.size(), 1);
    for (std::size_t d = shape.size(); d-- > 1;) {
        strides[d - 1] = strides[d] * shape[d];
    }
    std::vector<bool> reduced(shape.size(), false);
    for (std::size_t d : dims) {
        reduced[d] = true;
    }
    std::size_t outer = 1;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (!reduced[d]) {
            outShape.push_back(shape[d]);
            outer *= shape[d];
        }
    }
    const double inf = std::numeric_limits<double>::infinity();
    double init = 0;
    if (op == ops::ReduceOp::Mul || op == ops::ReduceOp::LogicalAnd) {
        init = 1;
    } else if (op == ops::ReduceOp::Max) {
        init = type == Type::Int ? -2147483648.0 : type == Type::UnsignedInt ? 0 : -inf;
    } else if (op == ops::ReduceOp::Min) {
        init = type == Type::Int ? 2147483647.0 : type == Type::UnsignedInt ? 4294967295.0 : inf;
    }
    std::vector<double> out(outer, init);
    for (std::size_t flat = 0; flat < values.size(); ++flat) {
        std::size_t rest = flat, o = 0;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            const std::size_t coord = rest / strides[d];
            rest %= strides[d];
            if (!reduced[d]) {
                o = o * shape[d] + coord;
            }
        }
        const double x = values[flat];
        double& acc = out[o];
        switch (op) {
        case ops::ReduceOp::Add:
            acc += x;
            break;
        case ops::ReduceOp::SquareAdd:
            acc += x * x;
            break;
        case ops::ReduceOp::Mul:
            acc *= x;
            break;
        case ops::ReduceOp::Max:
            acc = std::max(acc, x);
            break;
        case ops::ReduceOp::Min:
            acc = std::min(acc, x);
            break;
        case ops::ReduceOp::LogicalAnd:
            acc = (acc != 0 && x != 0) ? 1 : 0;
            break;
        case ops::ReduceOp::LogicalOr:
            acc = (acc != 0 || x != 0) ? 1 : 0;
            break;
        }
    }
    return out;
}

double tolerance(Type out, double want, std::size_t terms) {
    if (out == Type::Half) {
        return std::fabs(want) * 2e-3 + 2e-3;
    }
    if (out == Type::Float) {
        return (std::fabs(want) + 1) * 1e-6 * double(terms);
    }
    return 0;
}

} // namespace

class TestEngineReduce : public QObject {
    Q_OBJECT

private slots:
    // Random shapes, dims and mappings for each operation and type pair.
    void randomReductions() {
        const std::vector<Case> cases = {
            {ops::ReduceOp::Add, Type::Float, Type::Float},
            {ops::ReduceOp::Add, Type::Half, Type::Float},
            {ops::ReduceOp::Add, Type::Float, Type::Half},
            {ops::ReduceOp::Add, Type::Half, Type::Half},
            {ops::ReduceOp::Add, Type::Int, Type::Int},
            {ops::ReduceOp::Add, Type::UnsignedInt, Type::UnsignedInt},
            {ops::ReduceOp::SquareAdd, Type::Float, Type::Float},
            {ops::ReduceOp::SquareAdd, Type::Int, Type::Int},
            {ops::ReduceOp::Mul, Type::Float, Type::Float},
            {ops::ReduceOp::Mul, Type::Int, Type::Int},
            {ops::ReduceOp::Max, Type::Float, Type::Float},
            {ops::ReduceOp::Max, Type::Half, Type::Half},
            {ops::ReduceOp::Max, Type::Int, Type::Int},
            {ops::ReduceOp::Min, Type::Float, Type::Float},
            {ops::ReduceOp::Min, Type::UnsignedInt, Type::UnsignedInt},
            {ops::ReduceOp::LogicalAnd, Type::Bool, Type::Bool},
            {ops::ReduceOp::LogicalOr, Type::Bool, Type::Bool},
        };
        std::mt19937 rng(2024);
        int trials = 0;
        for (const Case& c : cases) {
            for (int trial = 0; trial < 6; ++trial, ++trials) {
                const std::size_t rank = 1 + rng() % 3;
                std::vector<std::size_t> shape;
                for (std::size_t d = 0; d < rank; ++d) {
                    shape.push_back(1 + rng() % 9);
                }
                std::vector<std::size_t> dims;
                for (std::size_t d = 0; d < rank; ++d) {
                    if (rng() % 2 == 0) {
                        dims.push_back(d);
                    }
                }
                Graph g(Target::preset("tiles:4"));
                const Tensor in = g.addVariable(c.in, shape, "in");
                // Grain 1..7, starting on any tile: rows cut across tiles.
                const auto firstTile = static_cast<std::uint32_t>(rng() % 4);
                ops::mapLinearly(g, in, 1 + rng() % 7, TileId{firstTile},
                                 1 + rng() % (4 - firstTile));
                std::vector<ComputeSet> css;
                const Tensor out = ops::reduce(g, in, c.out, dims, {c.op}, css, "r");
                prog::Sequence seq;
                ops::addStages(seq, css, "r");
                Engine engine(g, seq);
                std::vector<double> values(in.numElements());
                for (double& v : values) {
                    switch (c.in) {
                    case Type::Bool:
                        v = rng() % 5 != 0;
                        break;
                    case Type::Int:
                        v = double(int(rng() % 7) - 3);
                        break;
                    case Type::UnsignedInt:
                        v = double(rng() % 7);
                        break;
                    default: // products stay modest
                        v = c.op == ops::ReduceOp::Mul ? 0.5 + double(rng() % 100) / 100.0
                                                       : double(int(rng() % 2001) - 1000) / 64.0;
                        break;
                    }
                }
                engine.writeValues(in, values);
                engine.run();
                const std::vector<double> got = engine.readValues(out);
                const std::vector<double> want = hostReduce(values, shape, dims, c.op, c.in);
                QCOMPARE(got.size(), want.size());
                const std::size_t terms = in.numElements() / std::max<std::size_t>(1, want.size());
                for (std::size_t i = 0; i < want.size(); ++i) {
                    QVERIFY2(
                        std::fabs(got[i] - want[i]) <= tolerance(c.out, want[i], terms),
                        qPrintable(QStringLiteral("%1 %2->%3 shape %4 dims %5: out[%6] = %7, "
                                                  "expected %8")
                                       .arg(ops::name(c.op))
                                       .arg(QString::fromStdString(std::string(typeName(c.in))))
                                       .arg(QString::fromStdString(std::string(typeName(c.out))))
                                       .arg(QString::fromStdString(shapeString(shape)))
                                       .arg(QString::fromStdString(shapeString(dims)))
                                       .arg(i)
                                       .arg(got[i])
                                       .arg(want[i])));
                }
            }
        }
        QCOMPARE(trials, 17 * 6);
    }

    // out = 3 * 0 + sum(in) twice with update: out += scale * sum; a tensor scale.
    void scaleAndUpdate() {
        Graph g(Target::preset("tiles:4"));
        const Tensor in = g.addVariable(Type::Float, {4, 6}, "in");
        ops::mapLinearly(g, in, 5); // rows across tiles: two stages
        const Tensor out = g.addVariable(Type::Float, {4}, "out");
        g.setTileMapping(out, TileId{2u});
        const Tensor k = g.addVariable(Type::Float, {}, "k");
        g.setTileMapping(k, TileId{1u});
        std::vector<ComputeSet> update, scaled;
        ops::ReduceSpec spec{ops::ReduceOp::Add, true, 0.5, std::nullopt};
        ops::reduceWithOutput(g, in, out, {1}, spec, update, "acc");
        ops::ReduceSpec byTensor{ops::ReduceOp::SquareAdd, false, 1.0, k};
        const Tensor sq = ops::reduce(g, in, Type::Float, {0}, byTensor, scaled, "sq");
        QCOMPARE(update.size(), std::size_t{2});
        prog::Sequence seq;
        ops::addStages(seq, update, "acc");
        ops::addStages(seq, update, "acc again");
        ops::addStages(seq, scaled, "sq");
        g.createHostRead("out", out); // live to the end: read back below
        g.createHostRead("sq", sq);
        Engine engine(g, seq);
        std::vector<double> values(24);
        for (std::size_t i = 0; i < 24; ++i) {
            values[i] = double(i) - 7.0;
        }
        engine.writeValues(in, values);
        engine.writeValues(out, std::vector<double>{100, 200, 300, 400});
        engine.writeValues(k, std::vector<double>{0.25});
        engine.run();
        const std::vector<double> got = engine.readValues(out);
        for (std::size_t r = 0; r < 4; ++r) {
            double sum = 0;
            for (std::size_t c = 0; c < 6; ++c) {
                sum += values[r * 6 + c];
            }
            QCOMPARE(got[r], 100.0 * double(r + 1) + 2 * 0.5 * sum);
        }
        const std::vector<double> gotSq = engine.readValues(sq);
        for (std::size_t c = 0; c < 6; ++c) {
            double sum = 0;
            for (std::size_t r = 0; r < 4; ++r) {
                sum += values[r * 6 + c] * values[r * 6 + c];
            }
            QCOMPARE(gotSq[c], 0.25 * sum);
        }
    }

    // Everything on one tile per row: one stage writes the outputs.
    void oneStageWhenRowsAreLocal() {
        Graph g(Target::preset("tiles:4"));
        const Tensor in = g.addVariable(Type::Float, {4, 8}, "in");
        ops::mapRows(g, in);
        std::vector<ComputeSet> css;
        const Tensor out = ops::reduce(g, in, Type::Float, {1}, {ops::ReduceOp::Max}, css, "max");
        QCOMPARE(css.size(), std::size_t{1});
        // Each output lives on the tile of its row.
        const auto mapping = g.getTileMapping(out);
        for (std::uint32_t t = 0; t < 4; ++t) {
            QCOMPARE(mapping[t].size(), std::size_t{1});
            QCOMPARE(mapping[t][0], (std::pair<std::size_t, std::size_t>{t, t + 1}));
        }
    }

    void reduceAllToAScalar() {
        Graph g(Target::preset("tiles:4"));
        const Tensor in = g.addVariable(Type::Int, {3, 5}, "in");
        ops::mapLinearly(g, in);
        std::vector<ComputeSet> css;
        const Tensor out = ops::reduce(g, in, Type::Int, {0, 1}, {ops::ReduceOp::Add}, css, "all");
        QCOMPARE(out.rank(), std::size_t{0});
        prog::Sequence seq;
        ops::addStages(seq, css, "all");
        Engine engine(g, seq);
        std::vector<double> values(15);
        for (std::size_t i = 0; i < 15; ++i) {
            values[i] = double(i * i);
        }
        engine.writeValues(in, values);
        engine.run();
        QCOMPARE(engine.readValues(out), std::vector<double>{1015}); // sum of i^2, i < 15
    }

    void errorsAsPopLibsGivesThem() {
        Graph g(Target::preset("tiles:4"));
        const Tensor in = g.addVariable(Type::Float, {3, 5}, "in");
        const Tensor flags = g.addVariable(Type::Bool, {3, 5}, "flags");
        ops::mapLinearly(g, in);
        ops::mapLinearly(g, flags);
        std::vector<ComputeSet> css;
        TESSERA_EXPECT_ERROR(Error, ops::reduce(g, in, Type::Float, {2}, {}, css, "r"),
                             (QStringList{"r", "dimension 2", "rank 2"}));
        TESSERA_EXPECT_ERROR(Error,
                             ops::reduce(g, in, Type::Half, {1}, {ops::ReduceOp::Max}, css, "r"),
                             (QStringList{"MAX", "float", "half", "not supported"}));
        TESSERA_EXPECT_ERROR(
            Error, ops::reduce(g, in, Type::Float, {1}, {ops::ReduceOp::LogicalAnd}, css, "r"),
            (QStringList{"LOGICAL_AND", "float"}));
        TESSERA_EXPECT_ERROR(Error,
                             ops::reduce(g, flags, Type::Bool, {1},
                                         {ops::ReduceOp::LogicalOr, true, 1.0, std::nullopt}, css,
                                         "r"),
                             (QStringList{"scale and update", "LOGICAL_OR"}));
        const Tensor wrong = g.addVariable(Type::Float, {5}, "wrong");
        TESSERA_EXPECT_ERROR(Error, ops::reduceWithOutput(g, in, wrong, {1}, {}, css, "r"),
                             (QStringList{"wrong", "{5}", "{3}"}));
        QVERIFY(css.empty());
    }
};

QTEST_GUILESS_MAIN(TestEngineReduce)
#include "tst_engine_reduce.moc"
