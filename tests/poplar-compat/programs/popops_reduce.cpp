// popops reductions as PopLibs defines them, property-tested: every
// operation over random dimensions of random shapes and mappings, on the
// types and type pairs PopLibs allows, through every overload (reduce with and
// without an output type, reduceWithOutput, each appending to a Sequence or
// to a std::vector<ComputeSet>), with update and constant or tensor scales,
// reduceMany and allTrue; and the errors PopLibs throws. Every result is
// compared with a host reference computed here.
#include "popops_check.h"

#include <popops/AllTrue.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>

using namespace poplar;
using namespace poplar::program;
using popops::Operation;

namespace {

struct Case {
    std::vector<std::size_t> shape, dims, outShape;
    std::vector<double> in;
};

Case randomCase(Rng& rng, const Type& type, Operation op) {
    Case c;
    c.shape.resize(1 + rng.below(3));
    for (std::size_t i = 0; i < c.shape.size(); ++i) {
        c.shape[i] = 1 + rng.below(op == Operation::MUL ? 4 : 9);
    }
    for (std::size_t d = 0; d < c.shape.size(); ++d) {
        if (rng.below(2) == 0) {
            c.dims.push_back(d);
        }
    }
    if (rng.below(4) == 0 && !c.dims.empty()) {
        std::reverse(c.dims.begin(), c.dims.end()); // any order
    }
    for (std::size_t d = 0; d < c.shape.size(); ++d) {
        if (std::find(c.dims.begin(), c.dims.end(), d) == c.dims.end()) {
            c.outShape.push_back(c.shape[d]);
        }
    }
    const std::size_t n = count(c.shape);
    for (std::size_t i = 0; i < n; ++i) {
        if (type == BOOL) {
            c.in.push_back(rng.below(op == Operation::LOGICAL_AND ? 8 : 2) != 0 ? 1 : 0);
        } else if (type == FLOAT || type == HALF) {
            // Halves of small integers: exact in half and in float sums.
            c.in.push_back(op == Operation::MUL ? rng.uniform(0.5, 1.5)
                                                : rng.between(-64, 64) / 2.0);
        } else if (type == INT) {
            c.in.push_back(
                rng.between(op == Operation::MUL ? -3 : -1000, op == Operation::MUL ? 3 : 1000));
        } else {
            c.in.push_back(rng.between(0, op == Operation::MUL ? 3 : 2000));
        }
    }
    return c;
}

// The host reduction: out[o] = op over the elements that only differ in dims.
std::vector<double> reference(const Case& c, Operation op, double scale, const Type& outType) {
    const std::size_t n = count(c.shape);
    std::vector<double> out(count(c.outShape), 0);
    std::vector<bool> seen(out.size(), false);
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t rem = i, o = 0, stride = 1;
        std::vector<std::size_t> coord(c.shape.size());
        for (std::size_t d = c.shape.size(); d-- > 0;) {
            coord[d] = rem % c.shape[d];
            rem /= c.shape[d];
        }
        for (std::size_t d = c.shape.size(); d-- > 0;) {
            if (std::find(c.dims.begin(), c.dims.end(), d) == c.dims.end()) {
                o += coord[d] * stride;
                stride *= c.shape[d];
            }
        }
        const double x = c.in[i];
        double& r = out[o];
        if (!seen[o]) {
            seen[o] = true;
            r = op == Operation::SQUARE_ADD ? x * x : x;
            continue;
        }
        switch (op) {
        case Operation::ADD:
            r += x;
            break;
        case Operation::SQUARE_ADD:
            r += x * x;
            break;
        case Operation::MUL:
            r *= x;
            break;
        case Operation::MIN:
            r = std::min(r, x);
            break;
        case Operation::MAX:
            r = std::max(r, x);
            break;
        case Operation::LOGICAL_AND:
            r = (r != 0 && x != 0) ? 1 : 0;
            break;
        case Operation::LOGICAL_OR:
            r = (r != 0 || x != 0) ? 1 : 0;
            break;
        case Operation::LOG_ADD: // log(e^r + e^x), directly in double
            r = std::log(std::exp(r) + std::exp(x));
            break;
        default:
            break;
        }
    }
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (outType == INT) {
            out[i] = double(std::int32_t(std::uint32_t(std::int64_t(out[i] * scale))));
        } else if (outType == UNSIGNED_INT) {
            out[i] = double(std::uint32_t(std::int64_t(out[i] * scale)));
        } else {
            out[i] *= scale;
        }
    }
    return out;
}

const char* opName(Operation op) {
    static std::string names[8];
    std::ostringstream s;
    s << op;
    names[int(op)] = s.str();
    return names[int(op)].c_str();
}

std::string dimsText(const std::vector<std::size_t>& d) {
    return shapeText(d);
}

// One operation on one type pair, through each overload in turn.
void testOp(Checker& c, Operation op, const Type& inType, const Type& outType) {
    Graph& g = c.graph;
    const std::string group = std::string("reduce ") + opName(op) + " " + inType.toString() +
                              (outType == inType ? "" : " to " + outType.toString());
    const double tol = op == Operation::LOG_ADD && outType == HALF ? 2e-3
                       : inType == FLOAT || inType == HALF         ? 1e-5
                                                                   : 0;
    for (int form = 0; form < 6; ++form) {
        const Case k = randomCase(c.rng, inType, op);
        const Tensor in = c.constant(inType, k.shape, k.in);
        const std::vector<double> want = reference(k, op, 1, outType);
        const std::string what = std::string("form ") + std::to_string(form) + " " +
                                 shapeText(k.shape) + " over " + dimsText(k.dims);
        switch (form) {
        case 0: // reduce(graph, in, outType, dims, params, prog)
            c.expect(group, what, popops::reduce(g, in, outType, k.dims, {op}, c.prog, "r"), want,
                     tol);
            break;
        case 1: // reduce(graph, in, dims, params, prog): the input's type
            if (outType == inType) {
                c.expect(group, what, popops::reduce(g, in, k.dims, {op}, c.prog), want, tol);
            }
            break;
        case 2: { // reduce(..., std::vector<ComputeSet>&), then executed in order
            std::vector<ComputeSet> css;
            const Tensor out = popops::reduce(g, in, outType, k.dims, {op}, css, "css");
            for (std::size_t i = 0; i < css.size(); ++i) {
                c.prog.add(Execute(css[i]));
            }
            c.expect(group, what, out, want, tol);
            break;
        }
        case 3: { // reduceWithOutput(..., prog) into a mapped output
            const Tensor out = g.addVariable(outType, k.outShape);
            c.place(out);
            popops::reduceWithOutput(g, in, out, k.dims, popops::ReduceParams(op), c.prog);
            c.expect(group, what, out, want, tol);
            break;
        }
        case 4: { // reduceWithOutput(..., css) into an unmapped output (mapped for us)
            const Tensor out = g.addVariable(outType, k.outShape);
            std::vector<ComputeSet> css;
            popops::reduceWithOutput(g, in, out, k.dims, {op}, css);
            for (std::size_t i = 0; i < css.size(); ++i) {
                c.prog.add(Execute(css[i]));
            }
            c.expect(group, what, out, want, tol);
            break;
        }
        case 5: { // update and scale: ADD and SQUARE_ADD only
            if (op != Operation::ADD && op != Operation::SQUARE_ADD) {
                break;
            }
            const std::vector<double> initial = std::vector<double>(count(k.outShape), 3);
            const Tensor out = c.variable(outType, k.outShape, initial);
            const bool tensorScale = c.rng.below(2) == 0;
            const double scale = outType == INT || outType == UNSIGNED_INT ? 2 : 0.5;
            if (tensorScale) {
                const Tensor s = c.constant(FLOAT, {1}, {scale});
                popops::reduceWithOutput(g, in, out, k.dims, popops::ReduceParams(op, true, s),
                                         c.prog);
            } else {
                popops::reduceWithOutput(g, in, out, k.dims,
                                         popops::ReduceParams(op, true, float(scale)), c.prog);
            }
            std::vector<double> updated = reference(k, op, scale, outType);
            for (std::size_t i = 0; i < updated.size(); ++i) {
                updated[i] += 3;
            }
            c.expect(group, what + (tensorScale ? " update, tensor scale" : " update, scale"), out,
                     updated, tol);
            // A scale without update.
            c.expect(group, what + " scaled",
                     popops::reduce(g, in, outType, k.dims,
                                    popops::ReduceParams(op, false, float(scale)), c.prog),
                     reference(k, op, scale, outType), tol);
            break;
        }
        }
    }
}

void reductions(Checker& c) {
    const Operation numeric[] = {Operation::ADD, Operation::SQUARE_ADD, Operation::MUL,
                                 Operation::MIN, Operation::MAX};
    for (Operation op : numeric) {
        testOp(c, op, FLOAT, FLOAT);
        testOp(c, op, INT, INT);
        testOp(c, op, UNSIGNED_INT, UNSIGNED_INT);
    }
    testOp(c, Operation::ADD, HALF, FLOAT);
    testOp(c, Operation::ADD, FLOAT, HALF);
    testOp(c, Operation::MAX, HALF, HALF);
    testOp(c, Operation::LOGICAL_AND, BOOL, BOOL);
    testOp(c, Operation::LOGICAL_OR, BOOL, BOOL);
    testOp(c, Operation::LOG_ADD, FLOAT, FLOAT);
    testOp(c, Operation::LOG_ADD, HALF, HALF);
    testOp(c, Operation::LOG_ADD, FLOAT, HALF);
    testOp(c, Operation::LOG_ADD, HALF, FLOAT);
    // Log-probabilities of zero (-inf) and large ones (no overflow).
    const double inf = HUGE_VAL;
    const Tensor lp = c.constant(FLOAT, {3, 2}, {-inf, -inf, -inf, 0.5, 200, 200});
    c.expect("reduce LOG_ADD edges", "-inf and 200",
             popops::reduce(c.graph, lp, {1}, {Operation::LOG_ADD}, c.prog),
             {-inf, 0.5, 200 + std::log(2.0)}, 1e-6);
}

void many(Checker& c) {
    const Case a = randomCase(c.rng, FLOAT, Operation::ADD);
    const Case b = randomCase(c.rng, INT, Operation::MAX);
    const Tensor ta = c.constant(FLOAT, a.shape, a.in);
    const Tensor tb = c.constant(INT, b.shape, b.in);
    std::vector<popops::SingleReduceOp> ops;
    ops.push_back(popops::SingleReduceOp(ta, a.dims, {Operation::ADD}, "sum"));
    ops.push_back(popops::SingleReduceOp(tb, b.dims, {Operation::MAX}, INT, "max"));
    std::vector<Tensor> outs;
    popops::reduceMany(c.graph, ops, outs, c.prog, "many");
    c.expect("reduceMany", "sum", outs.at(0), reference(a, Operation::ADD, 1, FLOAT), 1e-5);
    c.expect("reduceMany", "max", outs.at(1), reference(b, Operation::MAX, 1, INT));

    for (int trial = 0; trial < 3; ++trial) {
        Case k = randomCase(c.rng, BOOL, Operation::LOGICAL_AND);
        if (trial == 0) {
            std::fill(k.in.begin(), k.in.end(), 1.0);
        }
        double all = 1;
        for (std::size_t i = 0; i < k.in.size(); ++i) {
            all = (all != 0 && k.in[i] != 0) ? 1 : 0;
        }
        c.expect("allTrue", shapeText(k.shape),
                 popops::allTrue(c.graph, c.constant(BOOL, k.shape, k.in), c.prog),
                 std::vector<double>(1, all));
    }
}

void errors(Checker& c) {
    Graph& g = c.graph;
    const Tensor f = c.constant(FLOAT, {2, 3}, {1, 2, 3, 4, 5, 6});
    const Tensor b = c.constant(BOOL, {2}, {1, 0});
    Sequence scratch;
    const Checker::ErrorCase cases[] = {
        {"MIN from float to half",
         [&] { popops::reduce(g, f, HALF, {0}, {Operation::MIN}, scratch); }},
        {"ADD of bool", [&] { popops::reduce(g, b, {0}, {Operation::ADD}, scratch); }},
        {"LOGICAL_AND of float",
         [&] { popops::reduce(g, f, {0}, {Operation::LOGICAL_AND}, scratch); }},
        {"dimension 2 of a 2-D tensor",
         [&] { popops::reduce(g, f, {2}, {Operation::ADD}, scratch); }},
        {"MAX with a scale",
         [&] {
             popops::reduce(g, f, {0}, popops::ReduceParams(Operation::MAX, false, 2.0f), scratch);
         }},
        {"reduce() with update",
         [&] { popops::reduce(g, f, {0}, popops::ReduceParams(Operation::ADD, true), scratch); }},
        {"an output of the wrong shape",
         [&] {
             const Tensor out = g.addVariable(FLOAT, {2});
             c.place(out);
             popops::reduceWithOutput(g, f, out, {0}, {Operation::ADD}, scratch);
         }},
        {"allTrue of float", [&] { popops::allTrue(g, f, scratch); }},
        {"LOG_ADD of int",
         [&] {
             popops::reduce(g, c.constant(INT, {2}, {1, 2}), {0}, {Operation::LOG_ADD}, scratch);
         }},
        {"LOG_ADD with a scale",
         [&] {
             popops::reduce(g, f, {0}, popops::ReduceParams(Operation::LOG_ADD, false, 2.0f),
                            scratch);
         }},
        {"LOG_ADD update",
         [&] {
             const Tensor out = g.addVariable(FLOAT, {3});
             c.place(out);
             popops::reduceWithOutput(g, f, out, {0},
                                      popops::ReduceParams(Operation::LOG_ADD, true), scratch);
         }},
    };
    c.expectPoplibsErrors("errors", cases);
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 6;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    Rng rng(7);
    Checker c(graph, prog, rng);
    errors(c);
    reductions(c);
    many(c);
    return c.run(device);
}
