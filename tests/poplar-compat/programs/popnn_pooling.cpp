// popnn::pooling, property-based: MAX, AVG and SUM over random 1-, 2- and
// 3-D fields of [batch][channels][field] inputs with random kernels, strides
// and paddings (negative: truncation), on float and half; pool and both
// poolInputGradient overloads (MAX with and without scaled gradients)
// against a host reference; then the error cases. A MAX window of padding
// only gives the type's lowest value. One line per check.
#include "popnn_check.h"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Pooling.hpp>
#include <popnn/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using popnn::PoolingType;
using popnn::pooling::PoolParams;

namespace {

std::string list(const std::vector<std::size_t>& v) {
    std::ostringstream os;
    for (std::size_t i = 0; i < v.size(); ++i) {
        os << (i ? "x" : "") << v[i];
    }
    return os.str();
}
std::string listInt(const std::vector<int>& v) {
    std::ostringstream os;
    for (std::size_t i = 0; i < v.size(); ++i) {
        os << (i ? "," : "") << v[i];
    }
    return os.str();
}

// The host reference: for each output of a plane, the input positions of its
// window (walking the kernel with an odometer), padding left out.
std::vector<std::vector<std::size_t>> windows(const PoolParams& p) {
    const std::vector<std::size_t> out = p.getOutputFieldShape();
    const std::size_t n = out.size();
    std::size_t outCount = 1;
    for (std::size_t d : out) {
        outCount *= d;
    }
    std::vector<std::vector<std::size_t>> result(outCount);
    std::vector<std::size_t> o(n, 0);
    for (std::size_t flat = 0; flat < outCount; ++flat) {
        std::vector<std::size_t> k(n, 0);
        for (;;) {
            bool inside = true;
            std::size_t index = 0;
            for (std::size_t d = 0; d < n; ++d) {
                const int pos = static_cast<int>(o[d] * p.stride[d] + k[d]) -
                                p.inputTruncationOrPaddingLower[d];
                if (pos < 0 || pos >= static_cast<int>(p.inputFieldShape[d])) {
                    inside = false;
                }
                index = index * p.inputFieldShape[d] + (inside ? pos : 0);
            }
            if (inside) {
                result[flat].push_back(index);
            }
            std::size_t d = n;
            while (d > 0 && ++k[d - 1] == p.kernelShape[d - 1]) {
                k[--d] = 0;
            }
            if (d == 0) {
                break;
            }
        }
        for (std::size_t d = n; d > 0 && ++o[d - 1] == out[d - 1];) {
            o[--d] = 0;
        }
    }
    return result;
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popnn::addCodelets(graph);
    Rng rng(0x1234567887654321ull);
    Sequence prog;
    std::vector<Check> checks;
    unsigned counter = 0;
    auto read = [&](const std::string& what, const Tensor& t, std::vector<double> expected,
                    double tol) {
        const std::string handle = "read" + std::to_string(counter++);
        graph.createHostRead(handle, t);
        checks.push_back({what, handle, t.elementType(), std::move(expected), tol});
    };

    unsigned caseNo = 0;
    for (Type type : {FLOAT, HALF}) {
        const double tol = type == HALF ? 4e-3 : 2e-6;
        for (PoolingType pt : {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM}) {
            for (int rep = 0; rep < 3; ++rep) {
                const std::size_t dims = 1 + rng.next(3);
                std::vector<std::size_t> field, kernel;
                std::vector<unsigned> stride;
                std::vector<int> lo, hi;
                for (std::size_t d = 0; d < dims; ++d) {
                    field.push_back(1 + rng.next(dims == 3 ? 4 : 6));
                    lo.push_back(static_cast<int>(rng.next(3)) - 1);
                    hi.push_back(static_cast<int>(rng.next(3)) - 1);
                    const int padded = static_cast<int>(field[d]) + lo[d] + hi[d];
                    if (padded < 1) {
                        lo[d] = hi[d] = 0;
                    }
                    const unsigned maxK =
                        std::min(3u, static_cast<unsigned>(field[d]) + lo[d] + hi[d]);
                    kernel.push_back(1 + rng.next(maxK));
                    stride.push_back(1 + rng.next(2));
                }
                const std::size_t batch = 1 + rng.next(2), channels = 1 + rng.next(3);
                PoolParams params(pt, field, kernel, stride, lo, hi, channels, batch, type);
                const std::vector<std::size_t> outField = params.getOutputFieldShape();
                std::ostringstream tag;
                tag << "case " << caseNo++ << " " << popnn::pooling::asString(pt) << " "
                    << (type == HALF ? "half" : "float") << " B" << batch << " C" << channels
                    << " in " << list(field) << " k " << list(kernel) << " s "
                    << list(std::vector<std::size_t>(stride.begin(), stride.end())) << " pad "
                    << listInt(lo) << "/" << listInt(hi) << " -> " << list(outField);
                std::size_t inPlane = 1, outPlane = 1;
                for (std::size_t d : field) {
                    inPlane *= d;
                }
                for (std::size_t d : outField) {
                    outPlane *= d;
                }
                const std::size_t planes = batch * channels;
                std::vector<std::size_t> inShape = {batch, channels}, outShape = inShape;
                inShape.insert(inShape.end(), field.begin(), field.end());
                outShape.insert(outShape.end(), outField.begin(), outField.end());
                std::vector<float> x(planes * inPlane), dy(planes * outPlane);
                for (float& v : x) {
                    v = (static_cast<int>(rng.next(65)) - 32) / 16.0f; // ties are likely
                }
                for (float& v : dy) {
                    v = (static_cast<int>(rng.next(65)) - 32) / 16.0f;
                }
                Tensor in = graph.addVariable(type, inShape, "in");
                poputil::mapTensorLinearly(graph, in, 1, 1);
                graph.setInitialValue(in, ArrayRef<float>(x));
                Tensor dyT = graph.addVariable(type, outShape, "dy");
                poputil::mapTensorLinearly(graph, dyT, 1, 1);
                graph.setInitialValue(dyT, ArrayRef<float>(dy));

                // Reference forward and gradients.
                const auto win = windows(params);
                std::vector<double> y(planes * outPlane), dxScaled(planes * inPlane, 0.0),
                    dx(planes * inPlane, 0.0);
                for (std::size_t p = 0; p < planes; ++p) {
                    for (std::size_t o = 0; o < outPlane; ++o) {
                        const auto& w = win[o];
                        double v = pt == PoolingType::MAX ? -std::numeric_limits<float>::max() : 0;
                        for (std::size_t i : w) {
                            v = pt == PoolingType::MAX ? std::max(v, double(x[p * inPlane + i]))
                                                       : v + x[p * inPlane + i];
                        }
                        if (pt == PoolingType::AVG && !w.empty()) {
                            v /= double(w.size());
                        }
                        if (pt == PoolingType::MAX && w.empty() && type == HALF) {
                            v = -65504.0; // the lowest half
                        }
                        y[p * outPlane + o] = v;
                        const double g = dy[p * outPlane + o];
                        if (pt == PoolingType::MAX) {
                            std::size_t matches = 0;
                            for (std::size_t i : w) {
                                matches += x[p * inPlane + i] == v;
                            }
                            for (std::size_t i : w) {
                                if (x[p * inPlane + i] == v) {
                                    dx[p * inPlane + i] += g;
                                    dxScaled[p * inPlane + i] += g / double(matches);
                                }
                            }
                        } else {
                            for (std::size_t i : w) {
                                dx[p * inPlane + i] +=
                                    pt == PoolingType::AVG ? g / double(w.size()) : g;
                            }
                        }
                    }
                }
                Tensor out = popnn::pooling::pool(graph, params, in, prog, "pool");
                read(tag.str() + " pool", out, y, tol);
                if (pt == PoolingType::MAX) {
                    read(
                        tag.str() + " poolInputGradient",
                        popnn::pooling::poolInputGradient(graph, params, in, out, dyT, false, prog),
                        dx, tol * 4);
                    read(tag.str() + " poolInputGradient scaled",
                         popnn::pooling::poolInputGradient(graph, params, in, out, dyT, true, prog),
                         dxScaled, tol * 4);
                } else {
                    read(tag.str() + " poolInputGradient",
                         popnn::pooling::poolInputGradient(graph, params, 1, dyT, prog, "grad"), dx,
                         tol * 4);
                    read(
                        tag.str() + " poolInputGradient (with activations)",
                        popnn::pooling::poolInputGradient(graph, params, in, out, dyT, false, prog),
                        dx, tol * 4);
                }
            }
        }
    }
    std::cout << "getFwdFlops 2x3 field 4x4 k 2x2 s 2: "
              << popnn::pooling::getFwdFlops(PoolParams(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2},
                                                        {0, 0}, {0, 0}, 3, 2, FLOAT))
              << "\n";

    // Error cases.
    Tensor t = graph.addVariable(FLOAT, {1, 2, 4, 4}, "t");
    poputil::mapTensorLinearly(graph, t);
    Sequence unused;
    expectError("kernel larger than the padded field", [&] {
        popnn::pooling::pool(
            graph,
            PoolParams(PoolingType::MAX, {4, 4}, {5, 1}, {1, 1}, {0, 0}, {0, 0}, 2, 1, FLOAT), t,
            unused);
    });
    expectError("input of another shape", [&] {
        popnn::pooling::pool(
            graph,
            PoolParams(PoolingType::AVG, {4, 4}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, 3, 1, FLOAT), t,
            unused);
    });
    expectError("stride list of the wrong length", [&] {
        popnn::pooling::pool(
            graph, PoolParams(PoolingType::SUM, {4, 4}, {2, 2}, {1}, {0, 0}, {0, 0}, 2, 1, FLOAT),
            t, unused);
    });
    expectError("MAX gradient without activations", [&] {
        popnn::pooling::poolInputGradient(
            graph,
            PoolParams(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, FLOAT), 1, t,
            unused);
    });
    expectError("INT pooling", [&] {
        popnn::pooling::pool(
            graph, PoolParams(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 2, 1, INT),
            t, unused);
    });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    reportChecks(engine, checks);

    // A compiled program that pools, serialised and run from the stream: the
    // pooling codelets are popnn's own and are found again.
    std::stringstream stream;
    {
        Graph g2(device.getTarget());
        popnn::addCodelets(g2);
        Tensor t = g2.addVariable(FLOAT, {1, 1, 4}, "t");
        poputil::mapTensorLinearly(g2, t, 1, 1);
        g2.setInitialValue(t, std::vector<float>{1, 5, 2, 3});
        Sequence p2;
        Tensor o = popnn::pooling::pool(
            g2, PoolParams(PoolingType::MAX, {4}, {2}, {2}, {0}, {0}, 1, 1, FLOAT), t, p2);
        p2.add(PrintTensor("MAX pool of {1,5,2,3}, k 2, s 2, after deserialize", o.flatten()));
        compileGraph(g2, {p2}).serialize(stream);
    }
    Engine restored(Executable::deserialize(stream));
    restored.load(device);
    restored.run(0);
    return 0;
}
