// elementwise, reduce and softmax: the vector workloads.
#include "engine/ops/Elementwise.h"
#include "engine/ops/Reduce.h"
#include "engine/ops/Softmax.h"
#include "engine/workloads/Library.h"

#include <cmath>
#include <cstring>

namespace tessera::workloads {

namespace {

constexpr std::uint64_t kMaxElements = std::uint64_t{1} << 28;

class Elementwise : public Workload {
public:
    std::string name() const override { return "elementwise"; }
    std::string description() const override {
        return "a chain of element-wise ops: sigmoid(relu(a*b + c) - a)";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("n", "65536", "elements per tensor", 1, kMaxElements),
                Parameter::choice("type", "float", "element type", {"float", "half"}),
                Parameter::integer(
                    "grain", "8",
                    "tile mapping: inputs are spread over tiles in whole multiples of this many "
                    "elements (a larger grain uses fewer, fuller tiles)",
                    1, kMaxElements)};
    }
    // a, b, c and out (always live), and a*b while it is made.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target&) const override {
        return 5 * sizeOf(p.getType("type")) * std::uint64_t{p.getSize("n")};
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t n = p.getSize("n");
        const Type type = p.getType("type");
        const std::size_t grain = p.getSize("grain"); // a positive integer
        Tensor a = hostInput(g, type, {n}, "a", grain);
        Tensor b = hostInput(g, type, {n}, "b", grain);
        Tensor c = hostInput(g, type, {n}, "c", grain);
        program::Sequence prog;
        const Tensor ab = ops::binary(g, prog, "Mul", a, b, "mul");
        const Tensor abc = ops::binary(g, prog, "Add", ab, c, "add");
        const Tensor r = ops::unary(g, prog, "Relu", abc, "relu");
        const Tensor d = ops::binary(g, prog, "Sub", r, a, "sub");
        Tensor out = ops::unary(g, prog, "Sigmoid", d, "sigmoid");
        g.createHostRead("out", out);
        // Inputs are made after the engine is (an out-of-memory program is refused
        // before any host data exists), straight into tile memory, and made again
        // element by element to check the result: no host copy of any tensor.
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            fillRandom(e, a, 11);
            fillRandom(e, b, 12);
            fillRandom(e, c, 13);
        };
        built.verify = [=](Engine& e) {
            const CounterRandom as(11, type), bs(12, type), cs(13, type);
            const double atol = type == Type::Half ? 1e-3 : 1e-6;
            auto round = [type](std::span<float> v) {
                if (type == Type::Half) {
                    roundToHalf(v);
                }
            };
            return checkRuns(
                e, out, atol, relativeTolerance(type), "sigmoid(relu(a*b + c) - a)",
                [&](std::size_t first, std::span<const std::byte> bytes, Comparison& comparison) {
                    const std::size_t count = bytes.size() / sizeOf(type);
                    constexpr std::size_t kBlock = 1024;
                    float av[kBlock], bv[kBlock], cv[kBlock], tv[kBlock];
                    for (std::size_t done = 0; done < count; done += kBlock) {
                        const std::size_t block = std::min(kBlock, count - done);
                        as.values(first + done, {av, block});
                        bs.values(first + done, {bv, block});
                        cs.values(first + done, {cv, block});
                        // The chain a block at a time, rounded after each op
                        // as the device stores each result.
                        const std::span<float> t(tv, block);
                        for (std::size_t i = 0; i < block; ++i) {
                            tv[i] = av[i] * bv[i];
                        }
                        round(t);
                        for (std::size_t i = 0; i < block; ++i) {
                            tv[i] += cv[i];
                        }
                        round(t);
                        for (std::size_t i = 0; i < block; ++i) {
                            tv[i] = (tv[i] > 0 ? tv[i] : 0.0f) - av[i]; // relu keeps a half
                        }
                        round(t);
                        for (std::size_t i = 0; i < block; ++i) {
                            tv[i] = 1.0f / (1.0f + std::exp(-tv[i]));
                        }
                        round(t);
                        for (std::size_t i = 0; i < block; ++i) {
                            comparison.check(first + done + i,
                                             deviceFloat(type, bytes.data(), done + i), tv[i]);
                        }
                    }
                });
        };
        return built;
    }
};

class Reduce : public Workload {
public:
    std::string name() const override { return "reduce"; }
    std::string description() const override {
        return "row sums, row maxima and the total of a matrix spread over tiles (two-stage "
               "reductions)";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("rows", "64", "rows", 1, kMaxDim),
                Parameter::integer("cols", "1024", "columns", 1, kMaxDim),
                Parameter::choice("type", "float", "element type", {"float", "half"})};
    }
    // The matrix and the three results.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target&) const override {
        const std::uint64_t rows = p.getSize("rows"), cols = p.getSize("cols");
        return sizeOf(p.getType("type")) * (rows * cols + 2 * rows + 1);
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t rows = p.getSize("rows"), cols = p.getSize("cols");
        const Type type = p.getType("type");
        Tensor x = hostInput(g, type, {rows, cols}, "x", 64);
        program::Sequence prog;
        Tensor sums = ops::reduceRows(g, prog, x, "Add", "rowSums");
        Tensor maxima = ops::reduceRows(g, prog, x, "Max", "rowMax");
        Tensor total = ops::reduceAll(g, prog, x, "Add", "total");
        g.createHostRead("sums", sums);
        g.createHostRead("maxima", maxima);
        g.createHostRead("total", total);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) { fillRandom(e, x, 21); };
        built.verify = [=](Engine& e) {
            const auto xv = randomValues(rows * cols, 21, type);
            std::vector<double> s(rows, 0.0), m(rows, -INFINITY), t(1, 0.0);
            for (std::size_t r = 0; r < rows; ++r) {
                for (std::size_t c = 0; c < cols; ++c) {
                    s[r] += xv[r * cols + c];
                    m[r] = std::max(m[r], double(xv[r * cols + c]));
                    t[0] += xv[r * cols + c];
                }
            }
            // Half partial sums round at every stage: allow for it.
            const double atol =
                type == Type::Half ? 0.02 * std::sqrt(double(cols)) : absoluteTolerance(type, cols);
            Verification v =
                compare(e.readValues(sums), s, atol, relativeTolerance(type), "row sums");
            for (Verification next :
                 {compare(e.readValues(maxima), m, 0, 0, "row maxima"),
                  compare(e.readValues(total), t, atol * std::sqrt(double(rows)),
                          relativeTolerance(type), "total")}) {
                v.maxAbsError = std::max(v.maxAbsError, next.maxAbsError);
                if (v.passed && !next.passed) {
                    v.detail = next.detail;
                }
                v.passed = v.passed && next.passed;
            }
            return v;
        };
        return built;
    }
};

class Softmax : public Workload {
public:
    std::string name() const override { return "softmax"; }
    std::string description() const override {
        return "row-wise softmax: max, shift, exp, sum, normalise";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("rows", "64", "rows", 1, kMaxDim),
                Parameter::integer("cols", "256", "columns", 1, kMaxDim)};
    }
    // The logits and the probabilities.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target&) const override {
        return 4 * 2 * std::uint64_t{p.getSize("rows")} * p.getSize("cols");
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t rows = p.getSize("rows"), cols = p.getSize("cols");
        Tensor x = hostInput(g, Type::Float, {rows, cols}, "logits", 32);
        program::Sequence prog;
        Tensor out = ops::softmaxRows(g, prog, x, "softmax");
        g.createHostRead("probabilities", out);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) { fillRandom(e, x, 31, -4, 4); };
        built.verify = [=](Engine& e) {
            const auto xv = randomValues(rows * cols, 31, Type::Float, -4, 4);
            return compare(e.readValues(out), hostSoftmaxRows(toDouble(xv), rows, cols), 1e-6, 1e-4,
                           "softmax");
        };
        return built;
    }
};

} // namespace

const Workload& elementwiseWorkload() {
    static const Elementwise w;
    return w;
}
const Workload& reduceWorkload() {
    static const Reduce w;
    return w;
}
const Workload& softmaxWorkload() {
    static const Softmax w;
    return w;
}

} // namespace tessera::workloads
