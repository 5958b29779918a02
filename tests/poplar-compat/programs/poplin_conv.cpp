// poplin convolutions, property-based: random ConvParams (1-D and 2-D fields,
// batches, groups, input and kernel truncation, dilation, padding and flips,
// output truncation, stride and padding) with random values (multiples of
// 1/8, so the sums are exact), each result compared with a direct host
// convolution written from PopLibs' definition; transposeAndFlipWeights;
// weightsTransposeChansFlipXY; createBiases/addBias; the weight-update pass
// (calculateWeightDeltas, convolutionWeightUpdate) against the gradient worked
// out on the host; ConvParams' sizes; the errors, and what Tessera does not
// support.
#include "poplin_check.h"

#include <poplar/IPUModel.hpp>
#include <poplin/ConvParams.hpp>
#include <poplin/Convolution.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;
using poplin::ConvParams;

namespace {

typedef std::vector<double> Values;
typedef std::vector<std::size_t> Shape;

std::size_t product(const Shape& s) {
    std::size_t p = 1;
    for (std::size_t i = 0; i < s.size(); ++i) {
        p *= s[i];
    }
    return p;
}

// Row-major position -> multi-index.
Shape unflatten(std::size_t flat, const Shape& shape) {
    Shape idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        idx[d] = flat % shape[d];
        flat /= shape[d];
    }
    return idx;
}

std::size_t flatten(const Shape& idx, const Shape& shape) {
    std::size_t flat = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        flat = flat * shape[d] + idx[d];
    }
    return flat;
}

unsigned get(const std::vector<unsigned>& v, std::size_t d, unsigned fallback) {
    return v.empty() ? fallback : v[d];
}

// The element of the original field behind position x of the transformed
// one (truncate, dilate, pad, flip), or -1 for a padding or dilation zero.
long long original(long long x, std::size_t size, const ConvParams::InputTransform& t,
                   std::size_t d) {
    const long long lo = get(t.truncationLower, d, 0), hi = get(t.truncationUpper, d, 0);
    const long long dil = get(t.dilation, d, 1);
    const long long kept = static_cast<long long>(size) - lo - hi;
    const long long dilated = kept <= 0 ? 0 : (kept - 1) * dil + 1;
    const long long total = get(t.paddingLower, d, 0) + dilated + get(t.paddingUpper, d, 0);
    if (!t.flip.empty() && t.flip[d]) {
        x = total - 1 - x;
    }
    const long long u = x - get(t.paddingLower, d, 0);
    if (u < 0 || u >= dilated || u % dil != 0) {
        return -1;
    }
    return u / dil + lo;
}

// out [B][G*Co][outField] of in [B][G*Ci][field] and w [G][Co][Ci][kernel].
Values hostConvolution(const ConvParams& p, const Values& in, const Values& w) {
    const std::size_t nd = p.getNumFieldDims(), B = p.batchSize, G = p.numConvGroups,
                      Ci = p.inputChannels, Co = p.outputChannels;
    Shape tk(nd), untransformed(nd);
    for (std::size_t d = 0; d < nd; ++d) {
        tk[d] = p.getTransformedKernelSize(d);
        untransformed[d] = p.getUntransformedOutputSize(d);
    }
    const Shape outField = p.getOutputFieldShape();
    const std::size_t inFieldSize = product(p.inputFieldShape), kernelSize = product(p.kernelShape),
                      outSize = product(outField);
    Values out(B * G * Co * outSize, 0.0);
    for (std::size_t b = 0; b < B; ++b)
        for (std::size_t g = 0; g < G; ++g)
            for (std::size_t co = 0; co < Co; ++co)
                for (std::size_t o = 0; o < outSize; ++o) {
                    const Shape pos = unflatten(o, outField);
                    // Output transform: padding, then stride and truncation.
                    Shape u(nd);
                    bool padding = false;
                    for (std::size_t d = 0; d < nd; ++d) {
                        const ConvParams::OutputTransform& t = p.outputTransform;
                        const long long s =
                            static_cast<long long>(pos[d]) - get(t.paddingLower, d, 0);
                        const long long strided = static_cast<long long>(outField[d]) -
                                                  get(t.paddingLower, d, 0) -
                                                  get(t.paddingUpper, d, 0);
                        if (s < 0 || s >= strided) {
                            padding = true;
                            break;
                        }
                        u[d] = get(t.truncationLower, d, 0) + s * get(t.stride, d, 1);
                    }
                    if (padding) {
                        continue;
                    }
                    double sum = 0;
                    for (std::size_t ci = 0; ci < Ci; ++ci)
                        for (std::size_t kk = 0; kk < product(tk); ++kk) {
                            const Shape kpos = unflatten(kk, tk);
                            Shape kidx(nd), iidx(nd);
                            bool zero = false;
                            for (std::size_t d = 0; d < nd && !zero; ++d) {
                                const long long kOrig =
                                    original(kpos[d], p.kernelShape[d], p.kernelTransform, d);
                                const long long iOrig =
                                    original(static_cast<long long>(u[d] + kpos[d]),
                                             p.inputFieldShape[d], p.inputTransform, d);
                                zero = kOrig < 0 || iOrig < 0;
                                if (!zero) {
                                    kidx[d] = kOrig;
                                    iidx[d] = iOrig;
                                }
                            }
                            if (zero) {
                                continue;
                            }
                            const double x = in[((b * G + g) * Ci + ci) * inFieldSize +
                                                flatten(iidx, p.inputFieldShape)];
                            const double k = w[((g * Co + co) * Ci + ci) * kernelSize +
                                               flatten(kidx, p.kernelShape)];
                            sum += x * k;
                        }
                    out[((b * G + g) * Co + co) * outSize + o] = sum;
                }
    (void)untransformed;
    return out;
}

Values randomValues(Lcg& rng, std::size_t n) {
    Values v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = rng.eighth();
    }
    return v;
}

std::vector<unsigned> randomVector(Lcg& rng, std::size_t n, int lo, int hi) {
    std::vector<unsigned> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = static_cast<unsigned>(rng.range(lo, hi));
    }
    return v;
}

std::vector<bool> randomFlips(Lcg& rng, std::size_t n) {
    std::vector<bool> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = rng.range(0, 1) == 1;
    }
    return v;
}

// Random parameters whose output is not empty.
ConvParams randomParams(Lcg& rng, bool plain) {
    for (;;) {
        const std::size_t nd = rng.range(1, 2);
        Shape field(nd), kernel(nd);
        for (std::size_t d = 0; d < nd; ++d) {
            field[d] = rng.range(3, 7);
            kernel[d] = rng.range(1, 3);
        }
        ConvParams p(FLOAT, rng.range(1, 2), field, kernel, rng.range(1, 3), rng.range(1, 3),
                     rng.range(1, 2));
        if (!plain) {
            p.inputTransform =
                ConvParams::InputTransform(randomVector(rng, nd, 0, 1), randomVector(rng, nd, 0, 1),
                                           randomVector(rng, nd, 1, 2), randomVector(rng, nd, 0, 2),
                                           randomVector(rng, nd, 0, 2), randomFlips(rng, nd));
            p.kernelTransform = ConvParams::InputTransform(
                std::vector<unsigned>(nd, 0), randomVector(rng, nd, 0, 1),
                randomVector(rng, nd, 1, 2), randomVector(rng, nd, 0, 1),
                randomVector(rng, nd, 0, 1), randomFlips(rng, nd));
            p.outputTransform = ConvParams::OutputTransform(
                randomVector(rng, nd, 0, 1), randomVector(rng, nd, 0, 1),
                randomVector(rng, nd, 1, 2), randomVector(rng, nd, 0, 1),
                randomVector(rng, nd, 0, 1));
        }
        bool ok = true;
        for (std::size_t d = 0; d < nd; ++d) {
            const ConvParams::OutputTransform& t = p.outputTransform;
            ok = ok && p.getTruncatedKernelSize(d) > 0 &&
                 p.getTransformedInputSize(d) >= p.getTransformedKernelSize(d) &&
                 p.getUntransformedOutputSize(d) >
                     get(t.truncationLower, d, 0) + get(t.truncationUpper, d, 0);
        }
        if (ok) {
            return p;
        }
    }
}

std::string describe(const ConvParams& p) {
    std::ostringstream os;
    os << "B" << p.batchSize << " G" << p.numConvGroups << " Ci" << p.inputChannels << " Co"
       << p.outputChannels << " field" << shapeOf(p.inputFieldShape) << " kernel"
       << shapeOf(p.kernelShape) << " -> " << shapeOf(p.getOutputFieldShape());
    return os.str();
}

Tensor constant(Graph& graph, const Shape& shape, const Values& v, const Type& type = FLOAT) {
    std::vector<float> f(v.begin(), v.end());
    Tensor t = graph.addConstant<float>(type, shape, f);
    poputil::mapTensorLinearly(graph, t);
    return t;
}

template <typename F>
void expectError(const std::string& label, F f) {
    try {
        f();
        std::cout << label << ": MISSING ERROR\n";
    } catch (const poputil::poplibs_error& e) {
        std::cout << label << ": " << e.what() << "\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << label << ": poplar_error: " << e.what() << "\n";
    }
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 16;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    Sequence prog;
    Checks checks(graph);
    Lcg rng(7031);
    poplin::PlanningCache cache;

    // ConvParams' sizes, worked by hand: field 7, truncation 1+0 -> 6,
    // dilation 2 -> 11, padding 1+2 -> 14; kernel 3 dilated by 2 -> 5;
    // output 14-5+1 = 10, truncated 1+1 -> 8, stride 3 -> 3, padded 0+1 -> 4.
    {
        ConvParams p(FLOAT, FLOAT, 1, {7}, {3}, 1, 1, 1,
                     ConvParams::InputTransform({1}, {0}, {2}, {1}, {2}, {false}),
                     ConvParams::InputTransform({0}, {0}, {2}, {0}, {0}, {true}),
                     ConvParams::OutputTransform({1}, {1}, {3}, {0}, {1}));
        std::cout << "ConvParams sizes: truncated " << p.getTruncatedInputSize(0)
                  << ", transformed input " << p.getTransformedInputSize(0)
                  << ", transformed kernel " << p.getTransformedKernelSize(0)
                  << ", untransformed output " << p.getUntransformedOutputSize(0) << ", output "
                  << p.getOutputSize(0) << "\n";
        ConvParams q = p;
        std::cout << "ConvParams compare: equal " << (p == q) << ", hash equal "
                  << (std::hash<ConvParams>()(p) == std::hash<ConvParams>()(q));
        q.outputTransform.stride[0] = 2;
        std::cout << ", after a change equal " << (p == q) << ", ordered " << ((p < q) != (q < p))
                  << "\n";
    }

    for (int trial = 0; trial < 12; ++trial) {
        const ConvParams p = randomParams(rng, trial < 3);
        Tensor in = poplin::createInput(graph, p, "in", {}, &cache);
        Tensor w = poplin::createWeights(graph, p, "w", {}, &cache);
        const Values inV = randomValues(rng, in.numElements());
        const Values wV = randomValues(rng, w.numElements());
        prog.add(Copy(constant(graph, in.shape(), inV), in));
        prog.add(Copy(constant(graph, w.shape(), wV), w));
        Tensor out = poplin::convolution(graph, in, w, p, false, prog, "conv", {}, &cache);
        checks.expect("convolution " + describe(p) + (trial < 3 ? "" : " (transformed)"), out,
                      hostConvolution(p, inV, wV));
        if (trial == 0) {
            std::cout << "createInput " << shapeOf(in.shape()) << ", createWeights "
                      << shapeOf(w.shape()) << ", output " << shapeOf(out.shape()) << "\n";
        }
    }

    // Half: the inputs are exact in half; sums are formed in float and
    // rounded to half once (relative error at most 2^-11).
    for (int trial = 0; trial < 2; ++trial) {
        ConvParams p = randomParams(rng, trial == 0);
        p.inputType = p.outputType = HALF;
        Tensor in = poplin::createInput(graph, p, "inHalf");
        Tensor w = poplin::createWeights(graph, p, "wHalf");
        const Values inV = randomValues(rng, in.numElements());
        const Values wV = randomValues(rng, w.numElements());
        prog.add(Copy(constant(graph, in.shape(), inV, HALF), in));
        prog.add(Copy(constant(graph, w.shape(), wV, HALF), w));
        Tensor out = poplin::convolution(graph, in, w, p, false, prog, "convHalf");
        Tensor biases = poplin::createBiases(graph, out);
        prog.add(
            Copy(constant(graph, biases.shape(), Values(biases.numElements(), 0.5), HALF), biases));
        poplin::addBias(graph, out, biases, prog);
        Values want = hostConvolution(p, inV, wV);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] += 0.5;
        }
        checks.expect("convolution half + bias 0.5 " + describe(p) +
                          (trial == 0 ? "" : " (transformed)"),
                      out, want, 1.0 / 2048);
    }

    // transposeAndFlipWeights: weights given as [G][Ci][Co][kernel] are
    // used as [G][Co][Ci][reversed kernel]; weightsTransposeChansFlipXY
    // writes that arrangement.
    for (int trial = 0; trial < 3; ++trial) {
        const ConvParams p = randomParams(rng, false);
        const std::size_t G = p.numConvGroups, Ci = p.inputChannels, Co = p.outputChannels;
        const std::size_t K = product(p.kernelShape);
        Tensor in = poplin::createInput(graph, p, "in");
        const Values inV = randomValues(rng, in.numElements());
        prog.add(Copy(constant(graph, in.shape(), inV), in));
        Shape fwdShape;
        fwdShape.push_back(G);
        fwdShape.push_back(Ci);
        fwdShape.push_back(Co);
        fwdShape.insert(fwdShape.end(), p.kernelShape.begin(), p.kernelShape.end());
        const Values fwdV = randomValues(rng, product(fwdShape));
        Tensor fwd = constant(graph, fwdShape, fwdV);
        Values w(fwdV.size());
        for (std::size_t g = 0; g < G; ++g)
            for (std::size_t co = 0; co < Co; ++co)
                for (std::size_t ci = 0; ci < Ci; ++ci)
                    for (std::size_t k = 0; k < K; ++k) {
                        Shape idx = unflatten(k, p.kernelShape);
                        for (std::size_t d = 0; d < idx.size(); ++d) {
                            idx[d] = p.kernelShape[d] - 1 - idx[d];
                        }
                        w[((g * Co + co) * Ci + ci) * K + k] =
                            fwdV[((g * Ci + ci) * Co + co) * K + flatten(idx, p.kernelShape)];
                    }
        Tensor out = poplin::convolution(graph, in, fwd, p, true, prog, "convT");
        checks.expect("convolution transposeAndFlipWeights " + describe(p), out,
                      hostConvolution(p, inV, w));
        Tensor arranged = poplin::createWeights(graph, p, "arranged");
        poplin::weightsTransposeChansFlipXY(graph, fwd, arranged, prog);
        checks.expect("  weightsTransposeChansFlipXY " + shapeOf(fwd.shape()) + " -> " +
                          shapeOf(arranged.shape()),
                      arranged, w);
    }

    // Biases: one per output channel, added over batch and field.
    {
        const ConvParams p(FLOAT, 2, {4, 3}, {2, 2}, 2, 3, 2); // 6 output channels
        Tensor in = poplin::createInput(graph, p, "in");
        Tensor w = poplin::createWeights(graph, p, "w");
        const Values inV = randomValues(rng, in.numElements()),
                     wV = randomValues(rng, w.numElements());
        prog.add(Copy(constant(graph, in.shape(), inV), in));
        prog.add(Copy(constant(graph, w.shape(), wV), w));
        Tensor out = poplin::convolution(graph, in, w, p, false, prog, "conv");
        Tensor biases = poplin::createBiases(graph, out);
        const Values bV = randomValues(rng, biases.numElements());
        prog.add(Copy(constant(graph, biases.shape(), bV), biases));
        poplin::addBias(graph, out, biases, prog, "bias");
        Values want = hostConvolution(p, inV, wV);
        const std::size_t C = out.dim(1), per = out.numElements() / (out.dim(0) * C);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] += bV[(i / per) % C];
        }
        // convolutionBiasUpdate: biases2 += scale * (out summed over batch and
        // field), with out's values before addBias as zDeltas.
        Tensor biases2 = poplin::createBiases(graph, out, "biases2");
        prog.add(Copy(constant(graph, biases.shape(), bV), biases2));
        Tensor zd = graph.addVariable(FLOAT, out.shape(), "zd");
        poputil::mapTensorLinearly(graph, zd);
        prog.add(Copy(constant(graph, out.shape(), hostConvolution(p, inV, wV)), zd));
        poplin::convolutionBiasUpdate(graph, zd, biases2, -0.5f, {}, prog, "biasUpdate");
        Tensor scaleT = graph.addConstant<float>(FLOAT, {1}, {2.0f});
        graph.setTileMapping(scaleT, 7);
        poplin::convolutionBiasUpdate(graph, zd, biases2, scaleT, {}, prog, "biasUpdateT");
        Values bWant = bV;
        const Values z0 = hostConvolution(p, inV, wV);
        for (std::size_t i = 0; i < z0.size(); ++i) {
            bWant[(i / per) % C] += 1.5 * z0[i]; // -0.5 then 2
        }
        checks.expect("convolutionBiasUpdate scales -0.5 then 2 (tensor) " +
                          shapeOf(biases2.shape()),
                      biases2, bWant);
        checks.expect("addBias createBiases " + shapeOf(biases.shape()) + " to " +
                          shapeOf(out.shape()),
                      out, want);
    }
    // The weight-update pass: dW[i] = sum over outputs of zDeltas times the
    // output's derivative by weight i (the forward pass with a one-hot kernel).
    for (int trial = 0; trial < 6; ++trial) {
        const ConvParams p = randomParams(rng, trial < 2);
        Tensor acts = poplin::createInput(graph, p, "acts");
        Tensor w = poplin::createWeights(graph, p, "wu");
        const Values aV = randomValues(rng, acts.numElements());
        const Values w0 = randomValues(rng, w.numElements());
        prog.add(Copy(constant(graph, acts.shape(), aV), acts));
        prog.add(Copy(constant(graph, w.shape(), w0), w));
        Shape zShape;
        zShape.push_back(p.batchSize);
        zShape.push_back(p.getNumOutputChans());
        const Shape outField = p.getOutputFieldShape();
        zShape.insert(zShape.end(), outField.begin(), outField.end());
        const Values zV = randomValues(rng, product(zShape));
        Tensor z = constant(graph, zShape, zV);
        Values dW(w0.size());
        for (std::size_t i = 0; i < dW.size(); ++i) {
            Values oneHot(w0.size(), 0.0);
            oneHot[i] = 1;
            const Values d = hostConvolution(p, aV, oneHot);
            double sum = 0;
            for (std::size_t j = 0; j < d.size(); ++j) {
                sum += d[j] * zV[j];
            }
            dW[i] = sum;
        }
        Tensor deltas = poplin::calculateWeightDeltas(graph, z, acts, p, prog, "wuDeltas");
        checks.expect("calculateWeightDeltas " + describe(p) + (trial < 2 ? "" : " (transformed)"),
                      deltas, dW);
        Values updated(w0.size());
        const double scale = trial % 2 ? -0.25 : 0.5;
        for (std::size_t i = 0; i < w0.size(); ++i) {
            updated[i] = w0[i] + scale * dW[i];
        }
        if (trial % 2) {
            Tensor s = graph.addConstant<float>(FLOAT, {}, static_cast<float>(scale));
            graph.setTileMapping(s, 5);
            poplin::convolutionWeightUpdate(graph, z, w, acts, p, s, prog, "wuUpdate");
        } else {
            poplin::convolutionWeightUpdate(graph, z, w, acts, p, static_cast<float>(scale), prog,
                                            "wuUpdate");
        }
        std::ostringstream label;
        label << "  convolutionWeightUpdate scale " << scale << (trial % 2 ? " (tensor)" : "");
        checks.expect(label.str(), w, updated);
    }

    std::cout << "planning cache used " << cache.size() << " times\n";
    std::cout << "getFwdFlops of 1x1 conv, 4 positions, 2 in, 3 out: "
              << poplin::getFwdFlops(ConvParams(FLOAT, 1, {2, 2}, {1, 1}, 2, 3, 1)) << "\n";

    // Errors and what Tessera does not support.
    const ConvParams p(FLOAT, 1, {5, 5}, {3, 3}, 2, 2, 1);
    Tensor in = poplin::createInput(graph, p, "in");
    Tensor w = poplin::createWeights(graph, p, "w");
    Sequence scratch;
    expectError("weights of the wrong shape", [&] {
        poplin::convolution(graph, in, w.slice(0, 1, 1), p, false, scratch, "bad");
    });
    expectError("stride 0", [&] {
        ConvParams q = p;
        q.outputTransform.stride = {0, 1};
        poplin::convolution(graph, in, w, q, false, scratch);
    });
    expectError("kernel larger than input", [&] {
        poplin::createInput(graph, ConvParams(FLOAT, 1, {2, 2}, {3, 3}, 1, 1, 1));
    });
    expectError("float to half", [&] {
        poplin::convolution(graph, in, w, ConvParams(FLOAT, HALF, 1, {5, 5}, {3, 3}, 2, 2, 1),
                            false, scratch);
    });
    expectError("unknown option", [&] {
        poplin::convolution(graph, in, w, p, false, scratch, "x", {{"noSuchOption", "1"}});
    });
    expectError("addBias channels", [&] {
        Tensor b = graph.addVariable(FLOAT, {3});
        poputil::mapTensorLinearly(graph, b);
        poplin::addBias(graph, in, b, scratch);
    });
    expectError("calculateWeightDeltas zDeltas shape",
                [&] { poplin::calculateWeightDeltas(graph, in, in, p, scratch); });
    expectError("convolutionBiasUpdate channels", [&] {
        Tensor b = graph.addVariable(FLOAT, {3});
        poputil::mapTensorLinearly(graph, b);
        poplin::convolutionBiasUpdate(graph, in, b, 1.0f, {}, scratch);
    });
    expectError("fullyConnectedWeightTranspose",
                [&] { poplin::fullyConnectedWeightTranspose(graph, in, p, scratch); });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    return checks.report(engine) == 0 ? 0 : 1;
}
