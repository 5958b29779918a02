// popnn's NonLinearity.hpp and LogSoftmax.hpp, property-based: for every
// NonLinearityType on float and half, random shapes and values spread over
// the tiles, each overload (new tensor, in place, into a ComputeSet, the
// scaling out-parameter, the named shorthands) and the input gradient are
// compared with a host reference of PopLibs' formulas; then the error cases.
// One line per check.
#include "popnn_check.h"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/LogSoftmax.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using popnn::NonLinearityType;

namespace {

// A small portable generator, so the shapes are the same everywhere.
const char* nlName(NonLinearityType nl) {
    static const char* names[] = {"SIGMOID",        "HARD_SIGMOID",  "RELU",  "TANH",
                                  "GELU",           "GELU_ERF",      "SWISH", "SOFTMAX",
                                  "SOFTMAX_STABLE", "SOFTMAX_SCALED"};
    return names[static_cast<int>(nl)];
}

bool isSoftmax(NonLinearityType nl) {
    return nl == NonLinearityType::SOFTMAX || nl == NonLinearityType::SOFTMAX_STABLE ||
           nl == NonLinearityType::SOFTMAX_SCALED;
}

double sigmoid(double x) {
    return 1 / (1 + std::exp(-x));
}

double forward(NonLinearityType nl, double x) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return sigmoid(x);
    case NonLinearityType::HARD_SIGMOID:
        return std::min(1.0, std::max(0.0, 0.2 * x + 0.5));
    case NonLinearityType::RELU:
        return x > 0 ? x : 0;
    case NonLinearityType::TANH:
        return std::tanh(x);
    case NonLinearityType::GELU:
        return 0.5 * x * (1 + std::tanh(0.7978845608 * x * (1 + 0.044715 * x * x)));
    case NonLinearityType::GELU_ERF:
        return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
    case NonLinearityType::SWISH:
        return x * sigmoid(x);
    default:
        return 0;
    }
}

double derivative(NonLinearityType nl, double a) {
    switch (nl) {
    case NonLinearityType::SIGMOID:
        return a * (1 - a);
    case NonLinearityType::HARD_SIGMOID:
        return std::fabs(a) <= 2.5 ? 0.2 : 0;
    case NonLinearityType::RELU:
        return a > 0 ? 1 : 0;
    case NonLinearityType::TANH:
        return 1 - a * a;
    case NonLinearityType::GELU: { // a is the input
        const double k = 0.7978845608, b = 0.044715;
        const double t = std::tanh(k * a * (1 + b * a * a));
        return 0.5 * (1 + t + (1 - t * t) * a * (k + 3 * k * b * a * a));
    }
    case NonLinearityType::GELU_ERF: { // a is the input: Phi(a) + a phi(a)
        const double pi = 3.14159265358979323846;
        return 0.5 * (1 + std::erf(a / std::sqrt(2.0))) +
               a * std::exp(-a * a / 2) / std::sqrt(2 * pi);
    }
    case NonLinearityType::SWISH: { // a is the input
        const double s = sigmoid(a);
        return s * (1 + a * (1 - s));
    }
    default:
        return 0;
    }
}

// Softmax (times `scale`) over the innermost dimension of rows of `cols`.
std::vector<double> softmaxRef(const std::vector<float>& x, std::size_t cols, double scale) {
    std::vector<double> out(x.size());
    for (std::size_t r = 0; r < x.size() / cols; ++r) {
        double m = -INFINITY, sum = 0;
        for (std::size_t c = 0; c < cols; ++c) {
            m = std::max(m, double(x[r * cols + c]));
        }
        for (std::size_t c = 0; c < cols; ++c) {
            sum += std::exp(x[r * cols + c] - m);
        }
        for (std::size_t c = 0; c < cols; ++c) {
            out[r * cols + c] = scale * std::exp(x[r * cols + c] - m) / sum;
        }
    }
    return out;
}

std::string shapeText(const std::vector<std::size_t>& shape) {
    std::ostringstream os;
    os << "{";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        os << (i ? "," : "") << shape[i];
    }
    os << "}";
    return os.str();
}

struct Fixture {
    Fixture(Graph& g, Rng& r)
        : graph(g)
        , rng(r) {}
    Graph& graph;
    Rng& rng;
    unsigned counter = 0;
    std::vector<Check> checks;

    Tensor input(Type type, const std::vector<std::size_t>& shape, std::vector<float>& values) {
        std::size_t n = 1;
        for (std::size_t d : shape) {
            n *= d;
        }
        values.resize(n);
        for (float& v : values) {
            v = rng.step(256, 64.0f);
        }
        Tensor t = graph.addVariable(type, shape, "in" + std::to_string(counter++));
        poputil::mapTensorLinearly(graph, t, 1, 1);
        graph.setInitialValue(t, ArrayRef<float>(values));
        return t;
    }
    void check(const std::string& what, const Tensor& t, std::vector<double> expected,
               double tolerance) {
        const std::string handle = "out" + std::to_string(counter++);
        graph.createHostRead(handle, t);
        checks.push_back({what, handle, t.elementType(), std::move(expected), tolerance});
    }
};

std::vector<std::size_t> randomShape(Rng& rng) {
    std::vector<std::size_t> shape(1 + rng.next(3));
    for (std::size_t& d : shape) {
        d = 1 + rng.next(6);
    }
    return shape;
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popnn::addCodelets(graph);
    Rng rng(0x9E3779B97F4A7C15ull);
    Fixture fx(graph, rng);
    Sequence prog;
    const NonLinearityType all[] = {
        NonLinearityType::SIGMOID,        NonLinearityType::HARD_SIGMOID,
        NonLinearityType::RELU,           NonLinearityType::TANH,
        NonLinearityType::GELU,           NonLinearityType::GELU_ERF,
        NonLinearityType::SWISH,          NonLinearityType::SOFTMAX,
        NonLinearityType::SOFTMAX_STABLE, NonLinearityType::SOFTMAX_SCALED};

    for (Type type : {FLOAT, HALF}) {
        const bool isHalf = type == HALF;
        const std::string tn = isHalf ? "half" : "float";
        const double tol = isHalf ? 4e-3 : 2e-6;
        for (NonLinearityType nl : all) {
            const std::vector<std::size_t> shape = randomShape(rng);
            const std::string tag = std::string(nlName(nl)) + " " + tn + " " + shapeText(shape);
            const std::size_t cols = shape.back();
            const double scale = nl == NonLinearityType::SOFTMAX_SCALED ? 62000.0 : 1.0;
            auto reference = [&](const std::vector<float>& x) {
                if (isSoftmax(nl)) {
                    return softmaxRef(x, cols, scale);
                }
                std::vector<double> out;
                for (float v : x) {
                    out.push_back(forward(nl, v));
                }
                return out;
            };
            std::vector<float> x;
            // A new tensor, with the scaling out-parameter.
            float scaling = -1;
            Tensor a = fx.input(type, shape, x);
            Tensor out = popnn::nonLinearity(graph, nl, a, scaling, prog, "nl");
            fx.check(tag + " nonLinearity", out, reference(x), tol * scale);
            std::cout << tag << " scaling " << scaling << "\n";
            // In place in a Sequence.
            Tensor b = fx.input(type, shape, x);
            popnn::nonLinearityInPlace(graph, nl, b, prog);
            fx.check(tag + " nonLinearityInPlace", b, reference(x), tol * scale);
            if (!isSoftmax(nl)) {
                // In place into the caller's compute set.
                Tensor c = fx.input(type, shape, x);
                ComputeSet cs = graph.addComputeSet("nl-cs");
                float s2 = -1;
                popnn::nonLinearityInPlace(graph, nl, c, s2, cs);
                prog.add(Execute(cs));
                fx.check(tag + " nonLinearityInPlace(ComputeSet)", c, reference(x), tol);
            }
            // The input gradient from act and the output gradient.
            std::vector<float> act, grad;
            Tensor actT = fx.input(type, shape, act);
            Tensor gradT = fx.input(type, shape, grad);
            std::vector<double> expected(act.size());
            if (isSoftmax(nl)) {
                for (std::size_t r = 0; r < act.size() / cols; ++r) {
                    double sum = 0;
                    for (std::size_t c = 0; c < cols; ++c) {
                        sum += double(act[r * cols + c]) * grad[r * cols + c];
                    }
                    for (std::size_t c = 0; c < cols; ++c) {
                        const double y = act[r * cols + c];
                        expected[r * cols + c] = grad[r * cols + c] * y - y * sum;
                    }
                }
            } else {
                for (std::size_t i = 0; i < act.size(); ++i) {
                    expected[i] = derivative(nl, act[i]) * grad[i];
                }
            }
            Tensor inGrad = popnn::nonLinearityInputGradient(graph, nl, actT, gradT, prog, "grad");
            fx.check(tag + " nonLinearityInputGradient", inGrad, expected, isHalf ? 2e-2 : 2e-5);
            if (!isSoftmax(nl)) {
                ComputeSet cs = graph.addComputeSet("grad-cs");
                Tensor g2 = popnn::nonLinearityInputGradient(graph, nl, actT, gradT, cs);
                prog.add(Execute(cs));
                fx.check(tag + " nonLinearityInputGradient(ComputeSet)", g2, expected,
                         isHalf ? 2e-2 : 2e-5);
            }
        }
        // The shorthands of NonLinearity.hpp.
        {
            std::vector<float> x;
            const std::vector<std::size_t> shape = randomShape(rng);
            const std::string tag = std::string("shorthands ") + tn + " " + shapeText(shape);
            Tensor t = fx.input(type, shape, x);
            std::vector<double> relu, sig;
            for (float v : x) {
                relu.push_back(forward(NonLinearityType::RELU, v));
                sig.push_back(forward(NonLinearityType::SIGMOID, v));
            }
            fx.check(tag + " relu", popnn::relu(graph, t, prog), relu, tol);
            fx.check(tag + " softmaxStable", popnn::softmaxStable(graph, t, prog),
                     softmaxRef(x, shape.back(), 1), tol);
            float s = 0;
            fx.check(tag + " scaledSoftmaxStable", popnn::scaledSoftmaxStable(graph, t, s, prog),
                     softmaxRef(x, shape.back(), 62000), tol * 62000);
            std::cout << tag << " scaledSoftmaxStable scaling " << s << "\n";
            popnn::sigmoidInPlace(graph, t, prog);
            fx.check(tag + " sigmoidInPlace", t, sig, tol);
        }
        // logSoftmax and logSoftmaxInPlace.
        for (int inPlace = 0; inPlace < 2; ++inPlace) {
            std::vector<float> x;
            const std::vector<std::size_t> shape = randomShape(rng);
            Tensor t = fx.input(type, shape, x);
            std::vector<double> expected = softmaxRef(x, shape.back(), 1);
            for (double& v : expected) {
                v = std::log(v);
            }
            const std::string tag = std::string(inPlace ? "logSoftmaxInPlace " : "logSoftmax ") +
                                    tn + " " + shapeText(shape);
            if (inPlace) {
                popnn::logSoftmaxInPlace(graph, t, prog);
                fx.check(tag, t, expected, tol * 4);
            } else {
                fx.check(tag, popnn::logSoftmax(graph, t, prog), expected, tol * 4);
            }
        }
    }

    // Error cases, as PopLibs reports them.
    Tensor v = graph.addVariable(FLOAT, {2, 3}, "v");
    poputil::mapTensorLinearly(graph, v);
    Tensor scalar = graph.addVariable(FLOAT, {}, "scalar");
    graph.setTileMapping(scalar, 0);
    Tensor ints = graph.addVariable(INT, {4}, "ints");
    graph.setTileMapping(ints, 0);
    Tensor other = graph.addVariable(FLOAT, {3, 2}, "other");
    poputil::mapTensorLinearly(graph, other);
    Sequence unused;
    ComputeSet cs = graph.addComputeSet("errors");
    expectError("SOFTMAX into a ComputeSet",
                [&] { popnn::nonLinearityInPlace(graph, NonLinearityType::SOFTMAX, v, cs); });
    expectError("SOFTMAX gradient into a ComputeSet", [&] {
        popnn::nonLinearityInputGradient(graph, NonLinearityType::SOFTMAX_STABLE, v, v, cs);
    });
    expectError("SOFTMAX of a scalar",
                [&] { popnn::nonLinearity(graph, NonLinearityType::SOFTMAX, scalar, unused); });
    expectError("logSoftmax of a scalar", [&] { popnn::logSoftmax(graph, scalar, unused); });
    expectError("RELU of INT",
                [&] { popnn::nonLinearity(graph, NonLinearityType::RELU, ints, unused); });
    expectError("softmax gradient of different shapes", [&] {
        popnn::nonLinearityInputGradient(graph, NonLinearityType::SOFTMAX, v, other, unused);
    });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    reportChecks(engine, fx.checks);
    return 0;
}
