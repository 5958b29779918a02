// matmul, conv2d (as an im2col view times the weights) and attention.
#include "engine/core/Error.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/ops/MatMul.h"
#include "engine/ops/Softmax.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/MatMulCheck.h"

#include <algorithm>
#include <cmath>

namespace tessera::workloads {

namespace {

// Rows whole on a tile (8-element runs for a vector).
Tensor hostInput(Graph& g, Type type, const std::vector<std::size_t>& shape,
                 const std::string& name) {
    return workloads::hostInput(g, type, shape, name, shape.size() > 1 ? shape.back() : 8);
}

class MatMul : public Workload {
public:
    std::string name() const override { return "matmul"; }
    std::string description() const override {
        return "C = A.B planned across tiles: block copies, partial products, cross-tile reduction";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("m", "256", "rows of A and C", 1, kMaxDim),
                Parameter::integer("k", "256", "columns of A, rows of B", 1, kMaxDim),
                Parameter::integer("n", "256", "columns of B and C", 1, kMaxDim),
                Parameter::choice("type", "float", "element type", {"float", "half"})};
    }
    // A, B, C (always live) and the matMul's block copies and partials,
    // live together while the partial products run.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t m = p.getSize("m"), k = p.getSize("k"), n = p.getSize("n");
        const Type type = p.getType("type");
        return sizeOf(type) * (m * k + k * n + m * n) +
               ops::matMulWorkingBytes(target, m, k, n, type);
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t m = p.getSize("m"), k = p.getSize("k"), n = p.getSize("n");
        const Type type = p.getType("type");
        Tensor a = hostInput(g, type, {m, k}, "A");
        Tensor b = hostInput(g, type, {k, n}, "B");
        program::Sequence prog;
        Tensor c = ops::matMul(g, prog, a, b, "matmul");
        g.createHostRead("C", c);
        // Inputs are made after the engine is (out of memory is known before any
        // host data exists), straight into tile memory.
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            fillRandom(e, a, 1);
            fillRandom(e, b, 2);
        };
        built.verify = [=](Engine& e) { return checkMatMul(e, c, m, k, n, 1, 2); };
        return built;
    }
};

class Conv2d : public Workload {
public:
    std::string name() const override { return "conv2d"; }
    std::string description() const override {
        return "valid 2-D convolution, NHWC, as an im2col tensor view times the weights";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("height", "16", "input height", 1, 256),
                Parameter::integer("width", "16", "input width", 1, 256),
                Parameter::integer("in_channels", "8", "input channels", 1, 4096),
                Parameter::integer("out_channels", "16", "output channels", 1, 4096),
                Parameter::integer("kernel", "3", "kernel height and width (at most the input's)",
                                   1, 16)};
    }
    // Input, weights and output, and the matmul's copies of the im2col
    // patches and of the weights.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t h = p.getSize("height"), w = p.getSize("width");
        const std::uint64_t ci = p.getSize("in_channels"), co = p.getSize("out_channels");
        const std::uint64_t kk = p.getSize("kernel");
        if (kk > h || kk > w) {
            return 0; // build() says what is wrong
        }
        const std::uint64_t rows = (h - kk + 1) * (w - kk + 1), patch = kk * kk * ci;
        return 4 * (h * w * ci + patch * co + rows * co) +
               ops::matMulWorkingBytes(target, rows, patch, co, Type::Float);
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t h = p.getSize("height"), w = p.getSize("width");
        const std::size_t ci = p.getSize("in_channels"), co = p.getSize("out_channels");
        const std::size_t kk = p.getSize("kernel");
        if (kk > h || kk > w) {
            throw Error("conv2d: kernel " + std::to_string(kk) + " is larger than the input");
        }
        const std::size_t oh = h - kk + 1, ow = w - kk + 1, patch = kk * kk * ci;
        Tensor x = hostInput(g, Type::Float, {h, w, ci}, "input");
        Tensor weights = hostInput(g, Type::Float, {patch, co}, "weights");
        std::vector<Tensor> rows;
        for (std::size_t i = 0; i < oh; ++i) {
            for (std::size_t j = 0; j < ow; ++j) {
                std::vector<Tensor> pieces;
                for (std::size_t u = 0; u < kk; ++u) {
                    pieces.push_back(
                        x[i + u].slice(j, j + kk).flatten()); // kk * ci contiguous values
                }
                rows.push_back(concat(pieces).expand({0}));
            }
        }
        const Tensor patches = concat(rows, 0);
        program::Sequence prog;
        Tensor out = ops::matMul(g, prog, patches, weights, "conv2d");
        g.createHostRead("output", out);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            fillRandom(e, x, 3);
            fillRandom(e, weights, 4);
        };
        built.verify = [=](Engine& e) {
            const auto xv = randomValues(h * w * ci, 3, Type::Float),
                       wv = randomValues(patch * co, 4, Type::Float);
            std::vector<double> ref(oh * ow * co, 0.0);
            for (std::size_t i = 0; i < oh; ++i)
                for (std::size_t j = 0; j < ow; ++j)
                    for (std::size_t u = 0; u < kk; ++u)
                        for (std::size_t v = 0; v < kk; ++v)
                            for (std::size_t c = 0; c < ci; ++c)
                                for (std::size_t o = 0; o < co; ++o)
                                    ref[(i * ow + j) * co + o] +=
                                        double(xv[((i + u) * w + j + v) * ci + c]) *
                                        wv[((u * kk + v) * ci + c) * co + o];
            return compare(e.readValues(out), ref, absoluteTolerance(Type::Float, patch), 1e-5,
                           "conv2d output");
        };
        return built;
    }
};

class Attention : public Workload {
public:
    std::string name() const override { return "attention"; }
    std::string description() const override {
        return "single-head self-attention: softmax(Q.K^T / sqrt(d)).V with Q, K, V projections";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("sequence", "32", "sequence length", 1, 8192),
                Parameter::integer("dmodel", "32", "model width", 1, 8192)};
    }
    // x, the three projections, the output and the scale (always live), and
    // the working memory of the largest of its matrix products.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target& target) const override {
        const std::uint64_t s = p.getSize("sequence"), d = p.getSize("dmodel");
        const std::uint64_t products =
            std::max({ops::matMulWorkingBytes(target, s, d, d, Type::Float),
                      ops::matMulWorkingBytes(target, s, d, s, Type::Float),
                      ops::matMulWorkingBytes(target, s, s, d, Type::Float)});
        return 4 * (2 * s * d + 3 * d * d + s) + products;
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t s = p.getSize("sequence"), d = p.getSize("dmodel");
        Tensor x = hostInput(g, Type::Float, {s, d}, "x");
        Tensor wq = hostInput(g, Type::Float, {d, d}, "wq");
        Tensor wk = hostInput(g, Type::Float, {d, d}, "wk");
        Tensor wv = hostInput(g, Type::Float, {d, d}, "wv");
        program::Sequence prog;
        const Tensor q = ops::matMul(g, prog, x, wq, "attention/q");
        const Tensor k = ops::matMul(g, prog, x, wk, "attention/k");
        const Tensor v = ops::matMul(g, prog, x, wv, "attention/v");
        const Tensor scores = ops::matMul(g, prog, q, k.transpose(), "attention/scores");
        const double scale = 1.0 / std::sqrt(static_cast<double>(d));
        Tensor scales = g.addConstant(Type::Float, {s}, scale, "attention/scale");
        ops::mapLinearly(g, scales);
        const Tensor scaled =
            ops::binaryRowScalar(g, prog, "Mul", scores, scales, "attention/scaled");
        const Tensor probs = ops::softmaxRows(g, prog, scaled, "attention/softmax");
        Tensor out = ops::matMul(g, prog, probs, v, "attention/out");
        g.createHostRead("out", out);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            fillRandom(e, x, 5);
            fillRandom(e, wq, 6);
            fillRandom(e, wk, 7);
            fillRandom(e, wv, 8);
        };
        built.verify = [=](Engine& e) {
            const auto X = toDouble(randomValues(s * d, 5, Type::Float));
            const auto Q = hostMatMul(X, toDouble(randomValues(d * d, 6, Type::Float)), s, d, d);
            const auto K = hostMatMul(X, toDouble(randomValues(d * d, 7, Type::Float)), s, d, d);
            const auto V = hostMatMul(X, toDouble(randomValues(d * d, 8, Type::Float)), s, d, d);
            std::vector<double> kt(d * s);
            for (std::size_t i = 0; i < s; ++i)
                for (std::size_t j = 0; j < d; ++j)
                    kt[j * s + i] = K[i * d + j];
            auto sc = hostMatMul(Q, kt, s, d, s);
            for (double& vsc : sc) {
                vsc *= scale;
            }
            const auto ref = hostMatMul(hostSoftmaxRows(sc, s, s), V, s, s, d);
            return compareFloats(readFloats(e, out), ref, absoluteTolerance(Type::Float, d * s),
                                 1e-4, "attention output");
        };
        return built;
    }
};

} // namespace

const Workload& matmulWorkload() {
    static const MatMul w;
    return w;
}
const Workload& conv2dWorkload() {
    static const Conv2d w;
    return w;
}
const Workload& attentionWorkload() {
    static const Attention w;
    return w;
}

} // namespace tessera::workloads
