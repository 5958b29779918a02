// Tensor views: every view operation checked element by element against an
// independent host model (multi-index arithmetic over (variable, element)
// pairs), on plain variables and on views built from other views. Misuse
// and names: tst_engine_tensor_names.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"

#include <QObject>
#include <QTest>

#include <algorithm>
#include <memory>

using namespace tessera;
using tessera::test::dims;

namespace {

using Shape = std::vector<std::size_t>;

struct Elem {
    VariableId var = VariableId::none();
    std::size_t index = 0;
    bool operator==(const Elem&) const = default;
};

// The host model of a view: a shape and, in row-major order, the variable
// element behind each position.
struct Ref {
    Shape shape;
    std::vector<Elem> elems;
};

std::size_t count(const Shape& s) {
    std::size_t n = 1;
    for (std::size_t d : s) {
        n *= d;
    }
    return n;
}

Shape unravel(std::size_t flat, const Shape& shape) {
    Shape idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
    return idx;
}

std::size_t ravel(const Shape& idx, const Shape& shape) {
    std::size_t flat = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        flat = flat * shape[d] + idx[d];
    }
    return flat;
}

Ref refVariable(VariableId var, const Shape& shape) {
    Ref r{shape, {}};
    for (std::size_t i = 0; i < count(shape); ++i) {
        r.elems.push_back({var, i});
    }
    return r;
}

// out[o] = in[f(o)] for every position o of `shape`.
template <typename F>
Ref remap(const Ref& in, const Shape& shape, F sourceIndex) {
    Ref r{shape, {}};
    for (std::size_t j = 0; j < count(shape); ++j) {
        r.elems.push_back(in.elems[ravel(sourceIndex(unravel(j, shape)), in.shape)]);
    }
    return r;
}

Ref refIndex(const Ref& in, const Shape& indices) {
    const Shape rest(in.shape.begin() + static_cast<std::ptrdiff_t>(indices.size()),
                     in.shape.end());
    return remap(in, rest, [&](const Shape& o) {
        Shape full = indices;
        full.insert(full.end(), o.begin(), o.end());
        return full;
    });
}

Ref refSlice(const Ref& in, std::size_t begin, std::size_t end, std::size_t dim) {
    Shape shape = in.shape;
    shape[dim] = end - begin;
    return remap(in, shape, [&](Shape o) {
        o[dim] += begin;
        return o;
    });
}

Ref refDimShuffle(const Ref& in, const Shape& perm) {
    Shape shape(in.shape.size());
    for (std::size_t d = 0; d < perm.size(); ++d) {
        shape[d] = in.shape[perm[d]];
    }
    return remap(in, shape, [&](const Shape& o) {
        Shape i(o.size());
        for (std::size_t d = 0; d < perm.size(); ++d) {
            i[perm[d]] = o[d];
        }
        return i;
    });
}

Ref refReverse(const Ref& in, std::size_t dim) {
    return remap(in, in.shape, [&](Shape o) {
        o[dim] = in.shape[dim] - 1 - o[dim];
        return o;
    });
}

Ref refBroadcast(const Ref& in, std::size_t times, std::size_t dim) {
    Shape shape = in.shape;
    shape[dim] *= times;
    return remap(in, shape, [&](Shape o) {
        o[dim] %= in.shape[dim];
        return o;
    });
}

Ref refConcat(const std::vector<Ref>& parts, std::size_t dim) {
    Shape shape = parts.front().shape;
    shape[dim] = 0;
    for (const Ref& p : parts) {
        shape[dim] += p.shape[dim];
    }
    Ref r{shape, {}};
    for (std::size_t j = 0; j < count(shape); ++j) {
        Shape o = unravel(j, shape);
        std::size_t part = 0;
        while (o[dim] >= parts[part].shape[dim]) {
            o[dim] -= parts[part].shape[dim];
            ++part;
        }
        r.elems.push_back(parts[part].elems[ravel(o, parts[part].shape)]);
    }
    return r;
}

Ref withShape(Ref in, const Shape& shape) {
    in.shape = shape;
    return in;
}

// Empty when the view matches the model; otherwise what differs.
QString mismatch(const Tensor& t, const Ref& r) {
    if (t.shape() != r.shape) {
        return QStringLiteral("shape %1, expected %2")
            .arg(QString::fromStdString(shapeString(t.shape())),
                 QString::fromStdString(shapeString(r.shape)));
    }
    if (t.rank() != r.shape.size() || t.numElements() != r.elems.size()) {
        return QStringLiteral("rank or element count differs");
    }
    for (std::size_t d = 0; d < t.rank(); ++d) {
        if (t.dim(d) != r.shape[d]) {
            return QStringLiteral("dim(%1) differs").arg(d);
        }
    }
    for (std::size_t i = 0; i < r.elems.size(); ++i) {
        const VariableRegion e = t.flatElement(i);
        if (e.var != r.elems[i].var || e.begin != r.elems[i].index || e.end != e.begin + 1) {
            return QStringLiteral("element %1 is var %2 [%3], expected var %4 [%5]")
                .arg(i)
                .arg(e.var.value())
                .arg(e.begin)
                .arg(r.elems[i].var.value())
                .arg(r.elems[i].index);
        }
    }
    std::vector<Elem> fromRegions;
    for (const VariableRegion& reg : t.regions()) {
        if (reg.begin >= reg.end) {
            return QStringLiteral("empty region in the list");
        }
        for (std::size_t e = reg.begin; e < reg.end; ++e) {
            fromRegions.push_back({reg.var, e});
        }
    }
    if (fromRegions != r.elems) {
        return QStringLiteral("regions() do not list the elements in view order");
    }
    for (std::size_t k = 1; k < t.regions().size(); ++k) {
        const VariableRegion& a = t.regions()[k - 1];
        const VariableRegion& b = t.regions()[k];
        if (a.var == b.var && a.end == b.begin) {
            return QStringLiteral("regions %1 and %2 are contiguous but not merged")
                .arg(k - 1)
                .arg(k);
        }
    }
    return {};
}

#define CHECK_VIEW(t, r)                                                                           \
    do {                                                                                           \
        const QString why_ = mismatch((t), (r));                                                   \
        QVERIFY2(why_.isEmpty(), qPrintable(why_));                                                \
    } while (false)

// Bases of shape {3,4,5} built different ways, so every operation is also
// checked on views whose elements are scattered over variables.
enum Base { Plain, Shuffled, Concatenated, Reversed };

struct Built {
    Tensor tensor;
    Ref ref;
};

Built makeBase(Graph& g, int kind) {
    const auto nextId = [&] { return record::idAt<VariableId>(g.variables().size()); };
    switch (kind) {
    case Plain: {
        const VariableId id = nextId();
        return {g.addVariable(Type::Float, {3, 4, 5}, "plain"), refVariable(id, {3, 4, 5})};
    }
    case Shuffled: {
        const VariableId id = nextId();
        Tensor v = g.addVariable(Type::Float, {5, 3, 4}, "shuffled");
        return {v.dimShuffle({1, 2, 0}), refDimShuffle(refVariable(id, {5, 3, 4}), {1, 2, 0})};
    }
    case Concatenated: {
        const VariableId a = nextId();
        Tensor ta = g.addVariable(Type::Float, {3, 1, 5}, "left");
        const VariableId b = nextId();
        Tensor tb = g.addVariable(Type::Float, {3, 3, 5}, "right");
        return {concat(ta, tb, 1),
                refConcat({refVariable(a, {3, 1, 5}), refVariable(b, {3, 3, 5})}, 1)};
    }
    default: {
        const VariableId id = nextId();
        Tensor v = g.addVariable(Type::Float, {3, 4, 5}, "reversed");
        return {v.reverse(2).reverse(0), refReverse(refReverse(refVariable(id, {3, 4, 5}), 2), 0)};
    }
    }
}

const char* baseName(int kind) {
    static const char* names[] = {"plain", "shuffled", "concatenated", "reversed"};
    return names[kind];
}

} // namespace

class TestEngineTensor : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void variableIsRowMajor();
    void index_data();
    void index();
    void operatorIndexMatchesIndex();
    void slice_data();
    void slice();
    void sliceMulti_data();
    void sliceMulti();
    void reshape_data();
    void reshape();
    void flatten_data();
    void flatten();
    void transpose();
    void dimShuffle_data();
    void dimShuffle();
    void reverse_data();
    void reverse();
    void broadcast_data();
    void broadcast();
    void expandAndSqueeze();
    void concat_data();
    void concat();
    void concatFlattened_data();
    void concatFlattened();
    void concatFlattenedRefusesMismatches();
    void elementAt();
    void longChainOfViews();
    void equality();

private:
    std::unique_ptr<Graph> graph_;
    Tensor weights_; // float {2,3,4}
    Tensor bias_;    // float {4}
    Tensor mask_;    // half {2,3,4}
};

void TestEngineTensor::initTestCase() {
    graph_ = std::make_unique<Graph>(Target::preset("tiles:4"));
    weights_ = graph_->addVariable(Type::Float, {2, 3, 4}, "weights");
    bias_ = graph_->addVariable(Type::Float, {4}, "bias");
    mask_ = graph_->addVariable(Type::Half, {2, 3, 4}, "mask");
}

void TestEngineTensor::variableIsRowMajor() {
    Graph g(Target::preset("tiles:4"));
    Tensor v = g.addVariable(Type::Int, {2, 3}, "v");
    CHECK_VIEW(v, refVariable(VariableId{0u}, {2, 3}));
    QCOMPARE(v.regions().size(), std::size_t{1});
    QCOMPARE(v.elementType(), Type::Int);
    QVERIFY(v.describe().find("v") != std::string::npos);
    Tensor unnamed = g.addVariable(Type::Float, {1});
    QCOMPARE(g.variables()[1].name, std::string("var1"));
    QVERIFY(unnamed.valid());
}

void TestEngineTensor::index_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<QList<int>>("indices");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/none") << kind << QList<int>{};
        QTest::newRow(b + "/first") << kind << QList<int>{0};
        QTest::newRow(b + "/last") << kind << QList<int>{2};
        QTest::newRow(b + "/two") << kind << QList<int>{1, 3};
        QTest::newRow(b + "/scalar") << kind << QList<int>{2, 1, 4};
    }
}

void TestEngineTensor::index() {
    QFETCH(int, base);
    QFETCH(QList<int>, indices);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    CHECK_VIEW(b.tensor, b.ref);
    CHECK_VIEW(b.tensor.index(dims(indices)), refIndex(b.ref, dims(indices)));
}

void TestEngineTensor::operatorIndexMatchesIndex() {
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, Shuffled);
    for (std::size_t i = 0; i < 3; ++i) {
        CHECK_VIEW(b.tensor[i], refIndex(b.ref, {i}));
        for (std::size_t j = 0; j < 4; ++j) {
            CHECK_VIEW(b.tensor[i][j], refIndex(b.ref, {i, j}));
            QVERIFY(b.tensor[i][j] == b.tensor.index({i, j}));
        }
    }
}

void TestEngineTensor::slice_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("begin");
    QTest::addColumn<int>("end");
    QTest::addColumn<int>("dim");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/d0 all") << kind << 0 << 3 << 0;
        QTest::newRow(b + "/d0 middle") << kind << 1 << 2 << 0;
        QTest::newRow(b + "/d0 empty") << kind << 2 << 2 << 0;
        QTest::newRow(b + "/d1 head") << kind << 0 << 2 << 1;
        QTest::newRow(b + "/d1 tail") << kind << 1 << 4 << 1;
        QTest::newRow(b + "/d2 one") << kind << 3 << 4 << 2;
        QTest::newRow(b + "/d2 inner") << kind << 1 << 4 << 2;
    }
}

void TestEngineTensor::slice() {
    QFETCH(int, base);
    QFETCH(int, begin);
    QFETCH(int, end);
    QFETCH(int, dim);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const auto ub = static_cast<std::size_t>(begin);
    const auto ue = static_cast<std::size_t>(end);
    const auto ud = static_cast<std::size_t>(dim);
    CHECK_VIEW(b.tensor.slice(ub, ue, ud), refSlice(b.ref, ub, ue, ud));
    // A slice of a slice.
    if (ue - ub >= 2) {
        CHECK_VIEW(b.tensor.slice(ub, ue, ud).slice(1, 2, ud),
                   refSlice(refSlice(b.ref, ub, ue, ud), 1, 2, ud));
    }
}

void TestEngineTensor::sliceMulti_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<QList<int>>("begin");
    QTest::addColumn<QList<int>>("end");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/whole") << kind << QList<int>{0, 0, 0} << QList<int>{3, 4, 5};
        QTest::newRow(b + "/box") << kind << QList<int>{1, 1, 2} << QList<int>{3, 3, 5};
        QTest::newRow(b + "/corner") << kind << QList<int>{2, 3, 4} << QList<int>{3, 4, 5};
        QTest::newRow(b + "/empty") << kind << QList<int>{0, 2, 0} << QList<int>{3, 2, 5};
    }
}

void TestEngineTensor::sliceMulti() {
    QFETCH(int, base);
    QFETCH(QList<int>, begin);
    QFETCH(QList<int>, end);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    Ref expected = b.ref;
    for (std::size_t d = 0; d < 3; ++d) {
        expected = refSlice(expected, static_cast<std::size_t>(begin[static_cast<qsizetype>(d)]),
                            static_cast<std::size_t>(end[static_cast<qsizetype>(d)]), d);
    }
    CHECK_VIEW(b.tensor.slice(dims(begin), dims(end)), expected);
}

void TestEngineTensor::reshape_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<QList<int>>("shape");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/60") << kind << QList<int>{60};
        QTest::newRow(b + "/12x5") << kind << QList<int>{12, 5};
        QTest::newRow(b + "/5x4x3") << kind << QList<int>{5, 4, 3};
        QTest::newRow(b + "/2x2x15x1") << kind << QList<int>{2, 2, 15, 1};
    }
}

void TestEngineTensor::reshape() {
    QFETCH(int, base);
    QFETCH(QList<int>, shape);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    CHECK_VIEW(b.tensor.reshape(dims(shape)), withShape(b.ref, dims(shape)));
    // Reshape then index: positions follow the new shape.
    const Tensor r = b.tensor.reshape(dims(shape));
    CHECK_VIEW(r[0], refIndex(withShape(b.ref, dims(shape)), {0}));
}

void TestEngineTensor::flatten_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("from");
    QTest::addColumn<int>("to");
    QTest::addColumn<QList<int>>("shape");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/all") << kind << -1 << -1 << QList<int>{60};
        QTest::newRow(b + "/[0,2)") << kind << 0 << 2 << QList<int>{12, 5};
        QTest::newRow(b + "/[1,3)") << kind << 1 << 3 << QList<int>{3, 20};
        QTest::newRow(b + "/[0,3)") << kind << 0 << 3 << QList<int>{60};
        QTest::newRow(b + "/[1,2)") << kind << 1 << 2 << QList<int>{3, 4, 5};
    }
}

void TestEngineTensor::flatten() {
    QFETCH(int, base);
    QFETCH(int, from);
    QFETCH(int, to);
    QFETCH(QList<int>, shape);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const Tensor f =
        from < 0 ? b.tensor.flatten()
                 : b.tensor.flatten(static_cast<std::size_t>(from), static_cast<std::size_t>(to));
    CHECK_VIEW(f, withShape(b.ref, dims(shape)));
}

void TestEngineTensor::transpose() {
    Graph g(Target::preset("tiles:4"));
    Tensor m = g.addVariable(Type::Float, {3, 5}, "m");
    const Ref rm = refVariable(VariableId{0u}, {3, 5});
    CHECK_VIEW(m.transpose(), refDimShuffle(rm, {1, 0}));
    // Hand-checked corner: element (row 1, col 2) of the transpose is m[2][1] = 11.
    QCOMPARE(m.transpose().flatElement(1 * 3 + 2).begin, std::size_t{2 * 5 + 1});
    CHECK_VIEW(m.transpose().transpose(), rm);
    // Transpose of a 2-D view of a 3-D base.
    const Built b = makeBase(g, Shuffled);
    const Tensor sub = b.tensor[1].slice(1, 4, 1);
    CHECK_VIEW(sub.transpose(), refDimShuffle(refSlice(refIndex(b.ref, {1}), 1, 4, 1), {1, 0}));
}

void TestEngineTensor::dimShuffle_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<QList<int>>("permutation");
    const QList<QList<int>> perms = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                     {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (int kind = Plain; kind <= Reversed; ++kind) {
        for (const QList<int>& p : perms) {
            const QByteArray name = QByteArray(baseName(kind)) + "/" + QByteArray::number(p[0]) +
                                    QByteArray::number(p[1]) + QByteArray::number(p[2]);
            QTest::newRow(name.constData()) << kind << p;
        }
    }
}

void TestEngineTensor::dimShuffle() {
    QFETCH(int, base);
    QFETCH(QList<int>, permutation);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const Tensor s = b.tensor.dimShuffle(dims(permutation));
    CHECK_VIEW(s, refDimShuffle(b.ref, dims(permutation)));
    // Shuffling back with the inverse permutation gives the base again.
    Shape inverse(3);
    for (std::size_t d = 0; d < 3; ++d) {
        inverse[static_cast<std::size_t>(permutation[static_cast<qsizetype>(d)])] = d;
    }
    CHECK_VIEW(s.dimShuffle(inverse), b.ref);
    QVERIFY(s.dimShuffle(inverse) == b.tensor);
}

void TestEngineTensor::reverse_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("dim");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        for (int d = 0; d < 3; ++d) {
            QTest::newRow((QByteArray(baseName(kind)) + "/d" + QByteArray::number(d)).constData())
                << kind << d;
        }
    }
}

void TestEngineTensor::reverse() {
    QFETCH(int, base);
    QFETCH(int, dim);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const auto d = static_cast<std::size_t>(dim);
    CHECK_VIEW(b.tensor.reverse(d), refReverse(b.ref, d));
    CHECK_VIEW(b.tensor.reverse(d).reverse(d), b.ref);
}

void TestEngineTensor::broadcast_data() {
    QTest::addColumn<int>("base");
    QTest::addColumn<int>("times");
    QTest::addColumn<int>("dim");
    for (int kind = Plain; kind <= Reversed; ++kind) {
        const QByteArray b = baseName(kind);
        QTest::newRow(b + "/1x d0") << kind << 1 << 0;
        QTest::newRow(b + "/2x d0") << kind << 2 << 0;
        QTest::newRow(b + "/3x d1") << kind << 3 << 1;
        QTest::newRow(b + "/2x d2") << kind << 2 << 2;
    }
}

void TestEngineTensor::broadcast() {
    QFETCH(int, base);
    QFETCH(int, times);
    QFETCH(int, dim);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const auto t = static_cast<std::size_t>(times);
    const auto d = static_cast<std::size_t>(dim);
    CHECK_VIEW(b.tensor.broadcast(t, d), refBroadcast(b.ref, t, d));
    // The usual use: a size-1 dimension repeated.
    const Tensor row = b.tensor.slice(1, 2, d);
    CHECK_VIEW(row.broadcast(t, d), refBroadcast(refSlice(b.ref, 1, 2, d), t, d));
}

void TestEngineTensor::expandAndSqueeze() {
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, Concatenated);
    CHECK_VIEW(b.tensor.expand({0}), withShape(b.ref, {1, 3, 4, 5}));
    CHECK_VIEW(b.tensor.expand({3}), withShape(b.ref, {3, 4, 5, 1}));
    // Dimensions are inserted in increasing order, each into the growing shape.
    CHECK_VIEW(b.tensor.expand({2, 0}), withShape(b.ref, {1, 3, 1, 4, 5}));
    CHECK_VIEW(b.tensor.expand({1, 1}), withShape(b.ref, {3, 1, 1, 4, 5}));
    const Tensor e = b.tensor.expand({0, 2});
    CHECK_VIEW(e.squeeze({0, 2}), b.ref);
    CHECK_VIEW(e.squeeze({2}), withShape(b.ref, {1, 3, 4, 5}));
    CHECK_VIEW(e.squeeze({}), withShape(b.ref, {1, 3, 1, 4, 5}));
    // A size-1 slice squeezed is the same as indexing.
    CHECK_VIEW(b.tensor.slice(2, 3, 1).squeeze({1}),
               refIndex(refDimShuffle(b.ref, {1, 0, 2}), {2}));
}

void TestEngineTensor::concat_data() {
    QTest::addColumn<int>("dim");
    QTest::newRow("d0") << 0;
    QTest::newRow("d1") << 1;
    QTest::newRow("d2") << 2;
}

void TestEngineTensor::concat() {
    QFETCH(int, dim);
    const auto d = static_cast<std::size_t>(dim);
    Graph g(Target::preset("tiles:4"));
    const Built a = makeBase(g, Shuffled);
    const Built b = makeBase(g, Reversed);
    const Built c = makeBase(g, Plain);
    // Three parts of different sizes along d, each a view.
    const Tensor pa = a.tensor.slice(0, 1, d);
    const Tensor pb = b.tensor.slice(1, 3, d);
    const Tensor pc = c.tensor;
    const Ref ra = refSlice(a.ref, 0, 1, d);
    const Ref rb = refSlice(b.ref, 1, 3, d);
    CHECK_VIEW(tessera::concat({pa, pb, pc}, d), refConcat({ra, rb, c.ref}, d));
    CHECK_VIEW(tessera::concat(pa, pb, d), refConcat({ra, rb}, d));
    CHECK_VIEW(tessera::concat({pc}, d), c.ref);
    // Concatenating the two halves of a tensor gives it back, merged into one region.
    const std::size_t half = c.tensor.dim(d) / 2;
    const Tensor whole =
        tessera::concat(c.tensor.slice(0, half, d), c.tensor.slice(half, c.tensor.dim(d), d), d);
    CHECK_VIEW(whole, c.ref);
    QCOMPARE(whole.regions().size(), std::size_t{1});
}

void TestEngineTensor::concatFlattened_data() {
    QTest::addColumn<int>("base");
    for (int kind : {Plain, Shuffled, Concatenated, Reversed}) {
        QTest::newRow(baseName(kind)) << kind;
    }
}

// Blocks of a base (as a matMul takes them: slices in two dimensions), each
// made when asked, against concat of their flattened host models.
void TestEngineTensor::concatFlattened() {
    QFETCH(int, base);
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, base);
    const Shape begins[] = {{0, 1, 0}, {1, 0, 2}, {2, 2, 1}, {0, 0, 0}};
    const Shape ends[] = {{2, 3, 4}, {3, 4, 5}, {3, 4, 3}, {3, 4, 5}};
    std::vector<Ref> refs;
    for (std::size_t i = 0; i < std::size(begins); ++i) {
        Ref r = b.ref;
        for (std::size_t d = 0; d < 3; ++d) {
            r = refSlice(r, begins[i][d], ends[i][d], d);
        }
        refs.push_back(withShape(r, {count(r.shape)}));
    }
    std::vector<std::size_t> made;
    const Tensor t = tessera::concatFlattened(std::size(begins), [&](std::size_t i) {
        made.push_back(i);
        return b.tensor.slice(begins[i], ends[i]);
    });
    CHECK_VIEW(t, refConcat(refs, 0));
    QCOMPARE(made, (std::vector<std::size_t>{0, 1, 2, 3}));
    // One part is its flatten.
    CHECK_VIEW(tessera::concatFlattened(1, [&](std::size_t) { return b.tensor; }),
               withShape(b.ref, {60}));
}

void TestEngineTensor::concatFlattenedRefusesMismatches() {
    QVERIFY_THROWS_EXCEPTION(Error,
                             tessera::concatFlattened(0, [&](std::size_t) { return weights_; }));
    QVERIFY_THROWS_EXCEPTION(Error, tessera::concatFlattened(2, [&](std::size_t i) {
                                 return i == 0 ? weights_ : mask_;
                             }));
    Graph other(Target::preset("tiles:4"));
    const Tensor elsewhere = other.addVariable(Type::Float, {4}, "elsewhere");
    QVERIFY_THROWS_EXCEPTION(Error, tessera::concatFlattened(2, [&](std::size_t i) {
                                 return i == 0 ? bias_ : elsewhere;
                             }));
}

void TestEngineTensor::elementAt() {
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, Shuffled);
    for (std::size_t k = 0; k < 60; ++k) {
        const Tensor e = b.tensor.elementAt(k);
        QCOMPARE(e.rank(), std::size_t{0});
        QCOMPARE(e.numElements(), std::size_t{1});
        CHECK_VIEW(e, (Ref{{}, {b.ref.elems[k]}}));
    }
    // Hand-checked: shuffled = v{5,3,4}.dimShuffle({1,2,0}); position (i,j,k)
    // of the view is v[k][i][j], so flat 7 = (0,1,2) is v[2][0][1] = 2*12+0*4+1.
    QCOMPARE(b.tensor.elementAt(7).regions().front().begin, std::size_t{25});
}

void TestEngineTensor::longChainOfViews() {
    Graph g(Target::preset("tiles:4"));
    const Built b = makeBase(g, Concatenated);
    const Tensor t = b.tensor.dimShuffle({2, 0, 1})
                         .slice(1, 5, 0)
                         .reverse(1)
                         .reshape({4, 12})
                         .transpose()
                         .slice(3, 11, 0)
                         .broadcast(2, 1)
                         .flatten(0, 2)
                         .reverse(0);
    Ref r = refDimShuffle(b.ref, {2, 0, 1});
    r = refSlice(r, 1, 5, 0);
    r = refReverse(r, 1);
    r = withShape(r, {4, 12});
    r = refDimShuffle(r, {1, 0});
    r = refSlice(r, 3, 11, 0);
    r = refBroadcast(r, 2, 1);
    r = withShape(r, {64});
    r = refReverse(r, 0);
    CHECK_VIEW(t, r);
}

void TestEngineTensor::equality() {
    Graph g(Target::preset("tiles:4"));
    Tensor v = g.addVariable(Type::Float, {2, 3}, "v");
    QVERIFY(v == v.reshape({2, 3}));
    QVERIFY(!(v == v.reshape({3, 2})));
    QVERIFY(v.transpose().transpose() == v);
    QVERIFY(!(v == v.reverse(1)));
    QVERIFY(Tensor() == Tensor());
    QVERIFY(!(Tensor() == v));
}

QTEST_APPLESS_MAIN(TestEngineTensor)
#include "tst_engine_tensor.moc"
