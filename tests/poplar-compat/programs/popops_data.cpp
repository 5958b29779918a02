// popops' Cast, Fill, Zero, ScaledAdd, ElementWiseUtil and Loop as PopLibs
// defines them, property-tested on random shapes, values and mappings: every
// overload (Sequence, Program and ComputeSet forms), every scaled-add form
// with constant and tensor scales and mixed types, counted loops; compared
// with host references computed here, and PopLibs' errors.
#include "popops_check.h"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>
#include <popops/Fill.hpp>
#include <popops/Loop.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>

using namespace poplar;
using namespace poplar::program;

namespace {

double toHalf(double v) {
    if (v == 0) {
        return 0;
    }
    int e = 0;
    const double m = std::frexp(v, &e);
    return std::ldexp(std::nearbyint(std::ldexp(m, 11)), e - 11);
}

// What a cast to `to` gives (truncation toward zero for integers).
double castRef(double v, const Type& to) {
    if (to == FLOAT) {
        return toFloat(v);
    }
    if (to == HALF) {
        return toHalf(v);
    }
    if (to == BOOL) {
        return v != 0 ? 1 : 0;
    }
    const std::int64_t t = static_cast<std::int64_t>(std::trunc(v));
    return to == INT ? double(std::int32_t(std::uint32_t(t))) : double(std::uint32_t(t));
}

std::vector<std::size_t> randomShape(Rng& rng) {
    std::vector<std::size_t> shape(1 + rng.below(3));
    for (std::size_t i = 0; i < shape.size(); ++i) {
        shape[i] = 1 + rng.below(6);
    }
    return shape;
}

std::vector<double> valuesFor(Rng& rng, const Type& type, std::size_t n) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = type == BOOL           ? double(rng.below(2))
               : type == UNSIGNED_INT ? double(rng.between(0, 60000))
               : type == INT          ? double(rng.between(-60000, 60000))
               : type == HALF         ? toHalf(rng.uniform(-50, 50))
                                      : toFloat(rng.uniform(-50, 50));
    }
    return v;
}

void casts(Checker& c) {
    const Type types[] = {FLOAT, HALF, INT, UNSIGNED_INT, BOOL};
    for (const Type& from : types) {
        for (const Type& to : types) {
            const std::string group = "cast " + from.toString() + " to " + to.toString();
            const std::vector<std::size_t> shape = randomShape(c.rng);
            std::vector<double> x = valuesFor(c.rng, from, count(shape));
            if (to == UNSIGNED_INT && (from == FLOAT || from == HALF || from == INT)) {
                for (std::size_t i = 0; i < x.size(); ++i) {
                    x[i] = std::fabs(x[i]); // negative floats to unsigned: not defined
                }
            }
            std::vector<double> want(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
                want[i] = castRef(x[i], to);
            }
            const Tensor t = c.constant(from, shape, x);
            c.expect(group, "cast(prog)", popops::cast(c.graph, t, to, c.prog), want);
            const Tensor out = c.graph.addVariable(to, shape);
            c.place(out);
            popops::castWithOutput(c.graph, t, out, c.prog);
            c.expect(group, "castWithOutput", out, want);
            const Tensor out2 = c.graph.addVariable(to, shape);
            c.place(out2);
            c.prog.add(popops::cast(c.graph, t, out2, "castProgram"));
            c.expect(group, "cast() -> Program", out2, want);
            const ComputeSet cs = c.graph.addComputeSet("casts");
            const Tensor out3 = popops::cast(c.graph, t, to, cs);
            const Tensor out4 = c.graph.addVariable(to, shape);
            c.place(out4);
            popops::cast(c.graph, t, out4, cs);
            c.prog.add(Execute(cs));
            c.expect(group, "cast(cs) new", out3, want);
            c.expect(group, "cast(cs) into", out4, want);
        }
    }
    const Tensor exact = c.constant(FLOAT, {1}, {0.5});
    const Tensor inexact = c.constant(FLOAT, {1}, {1.0 / 3});
    c.expect("checkAccuracyWhenCast", "0.5",
             popops::checkAccuracyWhenCast(c.graph, exact, HALF, 1e-6, c.prog),
             std::vector<double>(1, 1));
    c.expect("checkAccuracyWhenCast", "1/3",
             popops::checkAccuracyWhenCast(c.graph, inexact, HALF, 1e-6, c.prog),
             std::vector<double>(1, 0));
    c.expect("checkAccuracyWhenCast", "1/3 tolerance 1e-3",
             popops::checkAccuracyWhenCast(c.graph, inexact, HALF, 1e-3, c.prog),
             std::vector<double>(1, 1));
}

// Values of `t` near 2^24, 2^31 and 2^32, negative and fractional: where a
// conversion through float would lose them.
std::vector<double> edgeValues(const Type& t) {
    std::vector<double> v;
    if (t == FLOAT) {
        const double f[] = {2.7,          -2.7,         -0.5,         16777216, 16777218,
                            2147483520.0, 2147483648.0, 4294967040.0, 5e9,      -3e9};
        v.assign(f, f + 10);
    } else if (t == HALF) {
        const double h[] = {1.5, -2.5, 65504, -65504, 2048, -0.75};
        v.assign(h, h + 6);
    } else if (t == INT) {
        const double i[] = {-1,         16777217,      16777219, -16777217,
                            2147483647, -2147483648.0, 33554435, 2049};
        v.assign(i, i + 8);
    } else if (t == UNSIGNED_INT) {
        const double u[] = {1, 16777217, 2147483648.0, 2147483649.0, 4294967295.0, 33554435, 2049};
        v.assign(u, u + 7);
    } else {
        v.push_back(0);
        v.push_back(1);
    }
    return v;
}

// A PopLibs cast of the exact value x: integers wrap modulo 2^32, floating
// values truncate and saturate, float rounds once (half through float).
double castEdgeRef(double x, const Type& from, const Type& to) {
    if (to == FLOAT) {
        return toFloat(x);
    }
    if (to == HALF) {
        const double h = toHalf(toFloat(x));
        return std::fabs(h) > 65504 ? (h < 0 ? -HUGE_VAL : HUGE_VAL) : h;
    }
    if (to == BOOL) {
        return x != 0 ? 1 : 0;
    }
    const double lo = to == INT ? -2147483648.0 : 0.0;
    const double hi = to == INT ? 2147483647.0 : 4294967295.0;
    if (from == FLOAT || from == HALF) {
        return std::trunc(std::min(hi, std::max(lo, x)));
    }
    double m = std::fmod(x, 4294967296.0);
    if (m < 0) {
        m += 4294967296.0;
    }
    return to == INT && m >= 2147483648.0 ? m - 4294967296.0 : m;
}

// Every pair at the edges, through each cast overload.
void castEdges(Checker& c) {
    const Type types[] = {FLOAT, HALF, INT, UNSIGNED_INT, BOOL};
    for (const Type& from : types) {
        for (const Type& to : types) {
            const std::string group = "cast edges " + from.toString() + " to " + to.toString();
            const std::vector<double> x = edgeValues(from);
            std::vector<double> want(x.size());
            for (std::size_t i = 0; i < x.size(); ++i) {
                want[i] = castEdgeRef(x[i], from, to);
            }
            const std::vector<std::size_t> shape(1, x.size());
            const Tensor t = c.constant(from, shape, x);
            c.expect(group, "cast(prog)", popops::cast(c.graph, t, to, c.prog), want);
            const ComputeSet cs = c.graph.addComputeSet("edge casts");
            const Tensor out = popops::cast(c.graph, t, to, cs);
            c.prog.add(Execute(cs));
            c.expect(group, "cast(cs)", out, want);
        }
    }
}

void fills(Checker& c) {
    const Type types[] = {FLOAT, HALF, INT, UNSIGNED_INT, BOOL};
    for (const Type& type : types) {
        const std::string group = "fill and zero " + type.toString();
        const std::vector<std::size_t> shape = randomShape(c.rng);
        const std::vector<double> x = valuesFor(c.rng, type, count(shape));
        const double v = type == BOOL ? 1 : type == UNSIGNED_INT ? 7 : -3.5;
        const double held = castRef(v, type);
        // Sequence form.
        const Tensor a = c.variable(type, shape, x);
        if (type == FLOAT || type == HALF) {
            popops::fill(c.graph, a, c.prog, float(v), "fill");
        } else if (type == INT) {
            popops::fill(c.graph, a, c.prog, int(v));
        } else if (type == UNSIGNED_INT) {
            popops::fill(c.graph, a, c.prog, unsigned(v));
        } else {
            popops::fill(c.graph, a, c.prog, true);
        }
        c.expect(group, "fill(prog)", a, std::vector<double>(x.size(), held));
        const Tensor z = c.variable(type, shape, x);
        popops::zero(c.graph, z, c.prog, "zero");
        c.expect(group, "zero(prog)", z, std::vector<double>(x.size(), 0));
        // Compute-set forms: the whole mapping, one tile, regions of one tile.
        const Tensor b = c.variable(type, shape, x);
        const Tensor d = c.variable(type, shape, x);
        const Tensor e = c.variable(type, {6}, valuesFor(c.rng, type, 6));
        c.graph.setTileMapping(e, 3);
        const ComputeSet cs = c.graph.addComputeSet("fills");
        popops::fill(c.graph, b, c.graph.getTileMapping(b), cs, 2);
        popops::zero(c.graph, d, c.graph.getTileMapping(d), cs);
        popops::fill(c.graph, e, std::vector<Interval>{Interval(1, 3)}, 3, cs, 1);
        popops::zero(c.graph, e, std::vector<Interval>{Interval(4, 6)}, 3, cs);
        c.prog.add(Execute(cs));
        c.expect(group, "fill(mapping, cs)", b, std::vector<double>(x.size(), castRef(2, type)));
        c.expect(group, "zero(mapping, cs)", d, std::vector<double>(x.size(), 0));
        // e: [e0, 1, 1, e3, 0, 0]
        const Tensor f = c.variable(type, {4}, valuesFor(c.rng, type, 4));
        c.graph.setTileMapping(f, 5);
        const ComputeSet cs2 = c.graph.addComputeSet("fill on a tile");
        popops::fill(c.graph, f, 5u, cs2, 1);
        c.prog.add(Execute(cs2));
        c.expect(group, "fill(tile, cs)", f, std::vector<double>(4, 1));
        const Tensor g = c.variable(type, {4}, valuesFor(c.rng, type, 4));
        c.graph.setTileMapping(g, 4);
        const ComputeSet cs3 = c.graph.addComputeSet("zero on a tile");
        popops::zero(c.graph, g, 4u, cs3);
        c.prog.add(Execute(cs3));
        c.expect(group, "zero(tile, cs)", g, std::vector<double>(4, 0));
        c.expect(group, "fill/zero(regions, tile, cs)", e.slice(1, 3), std::vector<double>(2, 1));
        c.expect(group, "zero(regions, tile, cs)", e.slice(4, 6), std::vector<double>(2, 0));
    }
    // A large integer fill is exact.
    const Tensor big = c.variable(INT, {5}, std::vector<double>(5, 0));
    popops::fill(c.graph, big, c.prog, 16777217);
    c.expect("fill INT 16777217", "exact", big, std::vector<double>(5, 16777217));
    // Every fill form holds the value in the tensor's type: exact beyond 2^24.
    const Tensor ints = c.variable(INT, {4}, std::vector<double>(4, 0));
    const Tensor uints = c.variable(UNSIGNED_INT, {4}, std::vector<double>(4, 0));
    const Tensor intsCs = c.variable(INT, {4}, std::vector<double>(4, 0));
    const Tensor uintsCs = c.variable(UNSIGNED_INT, {4}, std::vector<double>(4, 0));
    popops::fill(c.graph, ints, c.prog, -2147483647);
    popops::fill(c.graph, uints, c.prog, 4294967295u);
    const ComputeSet cs = c.graph.addComputeSet("large fills");
    popops::fill(c.graph, intsCs, c.graph.getTileMapping(intsCs), cs, 33554435);
    popops::fill(c.graph, uintsCs, c.graph.getTileMapping(uintsCs), cs, 2147483649u);
    c.prog.add(Execute(cs));
    c.expect("fill edges", "INT -2147483647", ints, std::vector<double>(4, -2147483647.0));
    c.expect("fill edges", "UNSIGNED_INT 4294967295", uints, std::vector<double>(4, 4294967295.0));
    c.expect("fill edges", "INT 33554435 (cs)", intsCs, std::vector<double>(4, 33554435));
    c.expect("fill edges", "UNSIGNED_INT 2147483649 (cs)", uintsCs,
             std::vector<double>(4, 2147483649.0));
}

// A = scaleA' * A + / - scaleB * B, computed in A's type (float for half).
void scaledAdds(Checker& c) {
    struct Pair {
        Type a, b;
    };
    const Pair pairs[] = {{FLOAT, FLOAT}, {HALF, HALF}, {HALF, FLOAT}, {FLOAT, HALF}, {INT, INT}};
    for (const Pair& p : pairs) {
        const std::string group = "scaledAdd " + p.a.toString() + " += " + p.b.toString();
        for (int form = 0; form < 9; ++form) {
            const std::vector<std::size_t> shape = randomShape(c.rng);
            const std::vector<double> a = valuesFor(c.rng, p.a, count(shape));
            const std::vector<double> b = valuesFor(c.rng, p.b, count(shape));
            const bool ints = p.a == INT;
            const double sa = ints ? 3 : 0.25, sb = ints ? -2 : 1.5;
            const Tensor A = c.variable(p.a, shape, a);
            const Tensor B = c.constant(p.b, shape, b);
            const Tensor tsa =
                c.constant(p.a == HALF ? HALF : FLOAT, {}, std::vector<double>(1, sa));
            const Tensor tsb = c.constant(FLOAT, {1}, std::vector<double>(1, sb));
            const Tensor tsaInt = c.constant(INT, {}, std::vector<double>(1, sa));
            const Tensor tsbInt = c.constant(INT, {}, std::vector<double>(1, sb));
            double ka = 1, kb = sb;
            std::string what;
            switch (form) {
            case 0:
                popops::scaledAddTo(c.graph, A, B, float(sb), c.prog, "sgd");
                what = "A += k B";
                break;
            case 1:
                popops::scaledAddTo(c.graph, A, B, ints ? tsbInt : tsb, c.prog);
                what = "A += t B";
                break;
            case 2:
                popops::scaledSubtractFrom(c.graph, A, B, float(sb), c.prog);
                kb = -sb;
                what = "A -= k B";
                break;
            case 3:
                popops::scaledSubtractFrom(c.graph, A, B, ints ? tsbInt : tsb, c.prog);
                kb = -sb;
                what = "A -= t B";
                break;
            case 4:
                popops::scaledAddTo(c.graph, A, float(sa), B, float(sb), c.prog);
                ka = sa;
                what = "A = ka A + kb B";
                break;
            case 5:
                popops::scaledAddTo(c.graph, A, ints ? tsaInt : tsa, B, ints ? tsbInt : tsb,
                                    c.prog);
                ka = sa;
                what = "A = ta A + tb B";
                break;
            case 6:
                popops::scaledAddTo(c.graph, A, float(sa), B, float(sb), c.prog,
                                    popops::ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
                ka = 1 - sa;
                what = "A = A - ka A + kb B";
                break;
            case 7:
                popops::scaledSubtractFrom(c.graph, A, float(sa), B, float(sb), c.prog);
                ka = sa;
                kb = -sb;
                what = "A = ka A - kb B";
                break;
            case 8:
                popops::scaledSubtractFrom(c.graph, A, ints ? tsaInt : tsa, B, ints ? tsbInt : tsb,
                                           c.prog);
                ka = sa;
                kb = -sb;
                what = "A = ta A - tb B";
                break;
            }
            std::vector<double> want(a.size());
            for (std::size_t i = 0; i < a.size(); ++i) {
                want[i] = castRef(ka * a[i] + kb * b[i], p.a);
            }
            // Float: |a|, |b| <= 50, so a rounding of the scaled operands
            // (not of the result) can be up to 75 * 2^-24 ~ 4.5e-6.
            c.expect(group, what, A, want, p.a == HALF ? 1e-3 : 1e-5);
        }
    }
}

void utilAndLoops(Checker& c) {
    const std::vector<std::size_t> shape = randomShape(c.rng);
    const Tensor a = c.constant(FLOAT, shape, valuesFor(c.rng, FLOAT, count(shape)));
    const Tensor unmapped = c.graph.addVariable(INT, shape);
    const Tensor out = popops::createOutputForElementWiseOp(c.graph, {unmapped, a}, HALF, "out");
    const bool sameLayout = out.elementType() == HALF && out.shape() == shape &&
                            c.graph.getTileMapping(out) == c.graph.getTileMapping(a);
    if (sameLayout) {
        c.note("createOutputForElementWiseOp (mapped like the mapped input)");
    } else {
        c.fail("createOutputForElementWiseOp (mapped like the mapped input)", "layout differs");
    }
    c.graph.setTileMapping(unmapped, 0);

    // countedLoop: the body sees the counter.
    const Tensor acc = c.variable(UNSIGNED_INT, {}, std::vector<double>(1, 0));
    Graph& g = c.graph;
    c.prog.add(popops::countedLoop(g, 5, [&](const Tensor& i) {
        Sequence body;
        popops::addInPlace(g, acc, i, body);
        return body;
    }));
    c.expect("countedLoop", "sum of 0..4", acc, std::vector<double>(1, 10));
    const Tensor acc2 = c.variable(UNSIGNED_INT, {}, std::vector<double>(1, 100));
    c.prog.add(popops::countedLoop(
        g, 2, 11, 3,
        [&](const Tensor& i) {
            Sequence body;
            popops::addInPlace(g, acc2, i, body);
            return body;
        },
        "stepped"));
    c.expect("countedLoop", "100 + 2 + 5 + 8", acc2, std::vector<double>(1, 115));
    const Tensor none = c.variable(UNSIGNED_INT, {}, std::vector<double>(1, 9));
    c.prog.add(popops::countedLoop(g, 0, [&](const Tensor&) {
        Sequence body;
        popops::addInPlace(g, none, 1u, body);
        return body;
    }));
    c.expect("countedLoop", "no passes", none, std::vector<double>(1, 9));
    // countedForLoop: a run-time limit.
    const Tensor count = g.addVariable(INT, {});
    g.setTileMapping(count, 1);
    const Tensor limit = c.variable(INT, {}, std::vector<double>(1, 7));
    const Tensor acc3 = c.variable(INT, {}, std::vector<double>(1, 0));
    Sequence body3;
    popops::addInPlace(g, acc3, count, body3);
    c.prog.add(popops::countedForLoop(g, count, 1, limit, 2, body3));
    c.expect("countedForLoop", "1 + 3 + 5", acc3, std::vector<double>(1, 9));
    c.expect("countedForLoop", "the counter ends at the limit", count, std::vector<double>(1, 7));
    const Tensor acc4 = c.variable(UNSIGNED_INT, {}, std::vector<double>(1, 0));
    const Tensor limit4 = c.variable(UNSIGNED_INT, {}, std::vector<double>(1, 4));
    Sequence body4;
    popops::addInPlace(g, acc4, 1u, body4);
    c.prog.add(popops::countedForLoop(g, 0, limit4, 1, body4, "four"));
    c.expect("countedForLoop", "four passes", acc4, std::vector<double>(1, 4));
}

void errors(Checker& c) {
    Graph& g = c.graph;
    const Tensor f4 = c.constant(FLOAT, {4}, {1, 2, 3, 4});
    const Tensor f3 = c.constant(FLOAT, {3}, {1, 2, 3});
    const Tensor b4 = c.constant(BOOL, {4}, {1, 0, 1, 0});
    const Tensor i3 = c.graph.addVariable(INT, {3});
    c.place(i3);
    Sequence scratch;
    const Checker::ErrorCase cases[] = {
        {"cast between shapes", [&] { popops::castWithOutput(g, f4, i3, scratch); }},
        {"scaledAddTo with B of another shape",
         [&] { popops::scaledAddTo(g, f4, f3, 1.0f, scratch); }},
        {"scaledAddTo of bool", [&] { popops::scaledAddTo(g, b4, b4, 1.0f, scratch); }},
        {"scaledAddTo with a two-element scale",
         [&] { popops::scaledAddTo(g, f3, f3, f3.slice(0, 2), scratch); }},
        {"checkAccuracyWhenCast to INT",
         [&] { popops::checkAccuracyWhenCast(g, f4.slice(0, 1), INT, 1e-3, scratch); }},
        {"createOutputForElementWiseOp of two shapes",
         [&] {
             popops::createOutputForElementWiseOp(g, {f4, f3}, FLOAT);
         }},
        {"countedLoop with step 0",
         [&] { popops::countedLoop(g, 0, 4, 0, [](const Tensor&) { return Sequence(); }); }},
        {"countedForLoop with a float counter",
         [&] { popops::countedForLoop(g, f4[0], 0, f4[1], 1, Sequence()); }},
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
    Rng rng(99);
    Checker c(graph, prog, rng);
    errors(c);
    casts(c);
    castEdges(c);
    fills(c);
    scaledAdds(c);
    utilAndLoops(c);
    return c.run(device);
}
