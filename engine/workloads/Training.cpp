// mlp-train: a two-layer perceptron trained with SGD for a few iterations,
// forward, backward and update all on the device; the host repeats the same
// arithmetic in double and compares the final weights.
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/ops/Reduce.h"
#include "engine/ops/Softmax.h"
#include "engine/workloads/Library.h"

#include <algorithm>
#include <cmath>

namespace tessera::workloads {

namespace {

using Matrix = std::vector<double>;

Matrix transposed(const Matrix& a, std::size_t rows, std::size_t cols) {
    Matrix t(a.size());
    for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
            t[c * rows + r] = a[r * cols + c];
    return t;
}

struct HostMlp {
    std::size_t b, d, h, c;
    Matrix w1, b1, w2, b2;
    void step(const Matrix& x, const Matrix& y, double lr) {
        Matrix pre = hostMatMul(x, w1, b, d, h);
        for (std::size_t i = 0; i < b * h; ++i)
            pre[i] += b1[i % h];
        Matrix act(pre.size());
        for (std::size_t i = 0; i < pre.size(); ++i)
            act[i] = pre[i] > 0 ? pre[i] : 0;
        Matrix logits = hostMatMul(act, w2, b, h, c);
        for (std::size_t i = 0; i < b * c; ++i)
            logits[i] += b2[i % c];
        Matrix grad = hostSoftmaxRows(logits, b, c);
        for (std::size_t i = 0; i < grad.size(); ++i)
            grad[i] -= y[i];
        const Matrix dw2 = hostMatMul(transposed(act, b, h), grad, h, b, c);
        Matrix dh = hostMatMul(grad, transposed(w2, h, c), b, c, h);
        for (std::size_t i = 0; i < dh.size(); ++i)
            dh[i] = pre[i] > 0 ? dh[i] : 0;
        const Matrix dw1 = hostMatMul(transposed(x, b, d), dh, d, b, h);
        const double s = -lr / static_cast<double>(b);
        for (std::size_t i = 0; i < w2.size(); ++i)
            w2[i] += s * dw2[i];
        for (std::size_t j = 0; j < c; ++j)
            for (std::size_t r = 0; r < b; ++r)
                b2[j] += s * grad[r * c + j];
        for (std::size_t i = 0; i < w1.size(); ++i)
            w1[i] += s * dw1[i];
        for (std::size_t j = 0; j < h; ++j)
            for (std::size_t r = 0; r < b; ++r)
                b1[j] += s * dh[r * h + j];
    }
};

class MlpTrain : public Workload {
public:
    std::string name() const override { return "mlp-train"; }
    std::string description() const override {
        return "two-layer MLP training: forward, softmax cross-entropy gradient, backward, SGD, "
               "repeated";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("batch", "16", "examples per step", 1, kMaxDim),
                Parameter::integer("inputs", "64", "input features", 1, kMaxDim),
                Parameter::integer("hidden", "64", "hidden units", 1, kMaxDim),
                Parameter::integer("classes", "10", "output classes", 1, kMaxDim),
                Parameter::integer("iterations", "3", "SGD steps", 1, 10000),
                Parameter::number("learning_rate", "0.1", "SGD learning rate", 0, 10)};
    }
    // Inputs, labels, weights and biases (always live), and the working
    // memory of the largest of its matrix products.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t b = p.getSize("batch"), d = p.getSize("inputs"),
                            h = p.getSize("hidden"), c = p.getSize("classes");
        const auto product = [&](std::uint64_t m, std::uint64_t k, std::uint64_t n) {
            return ops::matMulWorkingBytes(target, m, k, n, Type::Float);
        };
        return 4 * (b * d + b * c + d * h + h + h * c + c) +
               std::max({product(b, d, h), product(b, h, c), product(h, b, c), product(b, c, h),
                         product(d, b, h)});
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t b = p.getSize("batch"), d = p.getSize("inputs"), h = p.getSize("hidden"),
                          c = p.getSize("classes"), iterations = p.getSize("iterations");
        const double lr = p.getDouble("learning_rate");
        auto input = [&](std::vector<std::size_t> shape, const std::string& n) {
            Tensor t = g.addVariable(Type::Float, shape, n);
            ops::mapLinearly(g, t, shape.back());
            g.createHostWrite(n, t);
            g.createHostRead(n + "/read", t);
            return t;
        };
        Tensor x = input({b, d}, "x"), y = input({b, c}, "labels");
        Tensor w1 = input({d, h}, "w1"), b1 = input({h}, "b1"), w2 = input({h, c}, "w2"),
               b2 = input({c}, "b2");
        program::Sequence step;
        const Tensor z1 = ops::matMul(g, step, x, w1, "fwd/layer1/matmul");
        const Tensor pre =
            ops::binary(g, step, "Add", z1, b1.expand({0}).broadcast(b, 0), "fwd/layer1/bias");
        const Tensor act = ops::unary(g, step, "Relu", pre, "fwd/layer1/relu");
        const Tensor z2 = ops::matMul(g, step, act, w2, "fwd/layer2/matmul");
        const Tensor logits =
            ops::binary(g, step, "Add", z2, b2.expand({0}).broadcast(b, 0), "fwd/layer2/bias");
        const Tensor probs = ops::softmaxRows(g, step, logits, "fwd/softmax");
        const Tensor grad = ops::binary(g, step, "Sub", probs, y, "bwd/loss_grad");
        const Tensor dw2 = ops::matMul(g, step, act.transpose(), grad, "bwd/layer2/weights_grad");
        const Tensor db2 = ops::reduceColumnsAdd(g, step, grad, "bwd/layer2/bias_grad");
        const Tensor dact = ops::matMul(g, step, grad, w2.transpose(), "bwd/layer2/input_grad");
        const Tensor dpre = ops::binary(g, step, "ReluGrad", dact, pre, "bwd/layer1/relu_grad");
        const Tensor dw1 = ops::matMul(g, step, x.transpose(), dpre, "bwd/layer1/weights_grad");
        const Tensor db1 = ops::reduceColumnsAdd(g, step, dpre, "bwd/layer1/bias_grad");
        const double scale = -lr / static_cast<double>(b);
        ops::scaledAddTo(g, step, w2, dw2, scale, "sgd/w2");
        ops::scaledAddTo(g, step, b2, db2, scale, "sgd/b2");
        ops::scaledAddTo(g, step, w1, dw1, scale, "sgd/w1");
        ops::scaledAddTo(g, step, b1, db1, scale, "sgd/b1");
        program::Sequence prog{program::Repeat(iterations, step, "training")};

        const auto xv = randomValues(b * d, 41, Type::Float);
        std::vector<float> yv(b * c, 0.0f);
        for (std::size_t r = 0; r < b; ++r) {
            yv[r * c + (r * 7 + 3) % c] = 1.0f;
        }
        const auto w1v = randomValues(d * h, 42, Type::Float, -0.3f, 0.3f);
        const auto w2v = randomValues(h * c, 43, Type::Float, -0.3f, 0.3f);
        const auto b1v = randomValues(h, 44, Type::Float, -0.1f, 0.1f);
        const auto b2v = randomValues(c, 45, Type::Float, -0.1f, 0.1f);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            writeFloats(e, x, xv);
            writeFloats(e, y, yv);
            writeFloats(e, w1, w1v);
            writeFloats(e, w2, w2v);
            writeFloats(e, b1, b1v);
            writeFloats(e, b2, b2v);
        };
        built.verify = [=](Engine& e) {
            HostMlp ref{b, d, h, c, toDouble(w1v), toDouble(b1v), toDouble(w2v), toDouble(b2v)};
            for (std::size_t i = 0; i < iterations; ++i) {
                ref.step(toDouble(xv), toDouble(yv), lr);
            }
            std::vector<double> device, expected;
            for (const auto& [t, r] :
                 {std::pair{w1, ref.w1}, {b1, ref.b1}, {w2, ref.w2}, {b2, ref.b2}}) {
                const auto v = e.readValues(t);
                device.insert(device.end(), v.begin(), v.end());
                expected.insert(expected.end(), r.begin(), r.end());
            }
            return compare(device, expected, 1e-5, 1e-4,
                           "weights after " + std::to_string(iterations) + " SGD steps");
        };
        return built;
    }
};

} // namespace

const Workload& mlpTrainWorkload() {
    static const MlpTrain w;
    return w;
}

} // namespace tessera::workloads
