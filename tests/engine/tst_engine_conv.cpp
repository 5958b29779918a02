// ops::convolution against a reference that materialises each transformation
// (truncate, dilate, pad, flip the input and the kernel; correlate; truncate,
// stride, pad the output) on host arrays, for 1-D and 2-D fields, batches,
// groups and every transformation.
#include "EngineTestSupport.h"
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/ops/Convolution.h"
#include "engine/runtime/Engine.h"

#include <QObject>
#include <QTest>

#include <functional>
#include <numeric>
#include <random>

using namespace tessera;
namespace prog = tessera::program;

namespace {

// A dense host array with a shape, row-major.
struct Grid {
    std::vector<std::size_t> shape;
    std::vector<double> v;
    std::size_t size() const {
        return std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
    }
};

std::size_t get(const std::vector<std::size_t>& v, std::size_t i, std::size_t d) {
    return v.empty() ? d : v[i];
}

// Applies f to every multi-index of `shape`.
void forEach(const std::vector<std::size_t>& shape,
             const std::function<void(const std::vector<std::size_t>&)>& f) {
    std::vector<std::size_t> idx(shape.size(), 0);
    const std::size_t n =
        std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<>());
    for (std::size_t flat = 0; flat < n; ++flat) {
        std::size_t rest = flat;
        for (std::size_t d = shape.size(); d-- > 0;) {
            idx[d] = rest % shape[d];
            rest /= shape[d];
        }
        f(idx);
    }
}

std::size_t offsetOf(const std::vector<std::size_t>& shape, const std::vector<std::size_t>& idx) {
    std::size_t o = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        o = o * shape[d] + idx[d];
    }
    return o;
}

// One field transformation, materialised dimension by dimension.
Grid transformField(const Grid& in, const ops::ConvTransform& t) {
    Grid g = in;
    for (std::size_t d = 0; d < g.shape.size(); ++d) {
        const std::size_t lo = get(t.truncationLower, d, 0), hi = get(t.truncationUpper, d, 0);
        const std::size_t dil = get(t.dilation, d, 1);
        const std::size_t pl = get(t.paddingLower, d, 0), pu = get(t.paddingUpper, d, 0);
        const bool flip = !t.flip.empty() && t.flip[d];
        const std::size_t kept = g.shape[d] - lo - hi;
        const std::size_t dilatedSize = kept == 0 ? 0 : (kept - 1) * dil + 1;
        Grid next;
        next.shape = g.shape;
        next.shape[d] = pl + dilatedSize + pu;
        next.v.assign(next.size(), 0.0);
        forEach(g.shape, [&](const std::vector<std::size_t>& idx) {
            if (idx[d] < lo || idx[d] >= g.shape[d] - hi) {
                return;
            }
            std::vector<std::size_t> to = idx;
            to[d] = pl + (idx[d] - lo) * dil;
            if (flip) {
                to[d] = next.shape[d] - 1 - to[d];
            }
            next.v[offsetOf(next.shape, to)] = g.v[offsetOf(g.shape, idx)];
        });
        g = next;
    }
    return g;
}

// out[b][g*Co+o][p] per PopLibs' definition, from materialised transforms.
std::vector<double> reference(const ops::ConvSpec& s, const std::vector<double>& in,
                              const std::vector<double>& w) {
    const std::size_t field = std::accumulate(s.inputFieldShape.begin(), s.inputFieldShape.end(),
                                              std::size_t{1}, std::multiplies<>());
    const std::size_t kernel = std::accumulate(s.kernelShape.begin(), s.kernelShape.end(),
                                               std::size_t{1}, std::multiplies<>());
    const std::vector<std::size_t> outShape = s.outputShape();
    const std::vector<std::size_t> outField(outShape.begin() + 2, outShape.end());
    const std::size_t positions =
        std::accumulate(outField.begin(), outField.end(), std::size_t{1}, std::multiplies<>());
    std::vector<double> out(s.batchSize * s.numGroups * s.outputChannelsPerGroup * positions, 0);
    for (std::size_t b = 0; b < s.batchSize; ++b) {
        for (std::size_t g = 0; g < s.numGroups; ++g) {
            for (std::size_t o = 0; o < s.outputChannelsPerGroup; ++o) {
                // The raw correlation summed over input channels.
                Grid sum;
                for (std::size_t c = 0; c < s.inputChannelsPerGroup; ++c) {
                    Grid x{s.inputFieldShape, {}}, k{s.kernelShape, {}};
                    const std::size_t ch = g * s.inputChannelsPerGroup + c;
                    x.v.assign(
                        in.begin() + std::ptrdiff_t(
                                         (b * s.numGroups * s.inputChannelsPerGroup + ch) * field),
                        in.begin() +
                            std::ptrdiff_t((b * s.numGroups * s.inputChannelsPerGroup + ch + 1) *
                                           field));
                    const std::size_t wo =
                        ((g * s.outputChannelsPerGroup + o) * s.inputChannelsPerGroup + c) * kernel;
                    k.v.assign(w.begin() + std::ptrdiff_t(wo),
                               w.begin() + std::ptrdiff_t(wo + kernel));
                    const Grid xt = transformField(x, s.input), kt = transformField(k, s.kernel);
                    Grid raw;
                    for (std::size_t d = 0; d < xt.shape.size(); ++d) {
                        raw.shape.push_back(xt.shape[d] - kt.shape[d] + 1);
                    }
                    raw.v.assign(raw.size(), 0.0);
                    forEach(raw.shape, [&](const std::vector<std::size_t>& q) {
                        double acc = 0;
                        forEach(kt.shape, [&](const std::vector<std::size_t>& kk) {
                            std::vector<std::size_t> at = q;
                            for (std::size_t d = 0; d < at.size(); ++d) {
                                at[d] += kk[d];
                            }
                            acc += xt.v[offsetOf(xt.shape, at)] * kt.v[offsetOf(kt.shape, kk)];
                        });
                        raw.v[offsetOf(raw.shape, q)] = acc;
                    });
                    if (sum.v.empty()) {
                        sum = raw;
                    } else {
                        for (std::size_t i = 0; i < sum.v.size(); ++i) {
                            sum.v[i] += raw.v[i];
                        }
                    }
                }
                // Output: truncate, stride, pad.
                forEach(outField, [&](const std::vector<std::size_t>& p) {
                    std::vector<std::size_t> q(p.size());
                    for (std::size_t d = 0; d < p.size(); ++d) {
                        const std::size_t pl = get(s.output.paddingLower, d, 0);
                        const std::size_t kept = sum.shape[d] -
                                                 get(s.output.truncationLower, d, 0) -
                                                 get(s.output.truncationUpper, d, 0);
                        const std::size_t stride = get(s.output.stride, d, 1);
                        if (p[d] < pl || p[d] >= pl + (kept + stride - 1) / stride) {
                            return; // padding stays 0
                        }
                        q[d] = (p[d] - pl) * stride + get(s.output.truncationLower, d, 0);
                    }
                    out[((b * s.numGroups + g) * s.outputChannelsPerGroup + o) * positions +
                        offsetOf(outField, p)] = sum.v[offsetOf(sum.shape, q)];
                });
            }
        }
    }
    return out;
}

} // namespace

Q_DECLARE_METATYPE(ops::ConvSpec)

class TestEngineConv : public QObject {
    Q_OBJECT

private slots:
    void againstReference_data() {
        QTest::addColumn<ops::ConvSpec>("spec");
        ops::ConvSpec basic;
        basic.batchSize = 2;
        basic.inputFieldShape = {5, 6};
        basic.kernelShape = {3, 2};
        basic.inputChannelsPerGroup = 3;
        basic.outputChannelsPerGroup = 4;
        QTest::newRow("2-D valid, batch 2") << basic;

        ops::ConvSpec padded = basic;
        padded.input.paddingLower = {1, 2};
        padded.input.paddingUpper = {1, 0};
        padded.output.stride = {2, 3};
        QTest::newRow("padding and stride") << padded;

        ops::ConvSpec dilated = basic;
        dilated.batchSize = 1;
        dilated.input.dilation = {2, 1};
        dilated.kernel.dilation = {1, 2};
        dilated.kernel.flip = {true, false};
        QTest::newRow("input and kernel dilation, kernel flip") << dilated;

        ops::ConvSpec grouped;
        grouped.batchSize = 1;
        grouped.inputFieldShape = {7};
        grouped.kernelShape = {3};
        grouped.numGroups = 3;
        grouped.inputChannelsPerGroup = 2;
        grouped.outputChannelsPerGroup = 2;
        QTest::newRow("1-D, 3 groups") << grouped;

        ops::ConvSpec truncated = grouped;
        truncated.numGroups = 1;
        truncated.input.truncationLower = {1};
        truncated.input.truncationUpper = {1};
        truncated.input.flip = {true};
        truncated.kernel.truncationUpper = {1};
        truncated.output.truncationLower = {1};
        truncated.output.paddingLower = {2};
        truncated.output.paddingUpper = {1};
        QTest::newRow("1-D truncations, flips, output padding") << truncated;
    }

    void againstReference() {
        QFETCH(ops::ConvSpec, spec);
        Graph g(Target::preset("tiles:4"));
        const Tensor in = ops::createConvInput(g, spec, "in");
        const Tensor w = ops::createConvWeights(g, spec, "w");
        prog::Sequence seq;
        const Tensor out = ops::convolution(g, seq, in, w, spec, "conv");
        QCOMPARE(out.shape(), spec.outputShape());
        g.createHostRead("out", out);
        Engine engine(g, seq);
        std::mt19937 rng(5);
        std::vector<double> iv(in.numElements()), wv(w.numElements());
        for (double& x : iv) {
            x = double(int(rng() % 17) - 8) / 4;
        }
        for (double& x : wv) {
            x = double(int(rng() % 9) - 4) / 2;
        }
        engine.writeValues(in, iv);
        engine.writeValues(w, wv);
        engine.run();
        const std::vector<double> got = engine.readValues(out);
        const std::vector<double> want = reference(spec, iv, wv);
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QVERIFY2(
                std::fabs(got[i] - want[i]) < 1e-4,
                qPrintable(
                    QStringLiteral("out[%1] = %2, expected %3").arg(i).arg(got[i]).arg(want[i])));
        }
    }

    void errors() {
        Graph g(Target::preset("tiles:4"));
        ops::ConvSpec s;
        s.inputFieldShape = {3};
        s.kernelShape = {4};
        TESSERA_EXPECT_ERROR(Error, ops::createConvInput(g, s, "c"),
                             (QStringList{"kernel", "larger than the input"}));
        s.kernelShape = {2, 2};
        TESSERA_EXPECT_ERROR(Error, ops::createConvInput(g, s, "c"),
                             (QStringList{"2 field dimensions", "the input 1"}));
        ops::ConvSpec ok;
        ok.inputFieldShape = {4};
        ok.kernelShape = {2};
        const Tensor in = ops::createConvInput(g, ok, "in");
        const Tensor bad = g.addVariable(Type::Float, {1, 1, 3}, "bad");
        prog::Sequence seq;
        TESSERA_EXPECT_ERROR(Error, ops::convolution(g, seq, in, bad, ok, "c"),
                             (QStringList{"bad", "weights", "{1,1,1,2}"}));
    }
};

QTEST_GUILESS_MAIN(TestEngineConv)
#include "tst_engine_conv.moc"
