// popops/Pad.hpp as PopLibs defines it, property-tested on random shapes,
// paddings (negative ones truncate) and types: constant padding with a float,
// an int and a one-element tensor value, per dimension and for one dimension;
// EDGE and REFLECT padding; the three mapping methods; compared with a host
// reference of numpy.pad computed here; then PopLibs' errors.
#include "popops_check.h"

#include <popops/Pad.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>

using namespace poplar;
using namespace poplar::program;

namespace {

enum Mode { CONSTANT, EDGE, REFLECT };

// Element `i` of a row-major tensor of `shape` as coordinates.
std::vector<std::size_t> coordOf(std::size_t i, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> c(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    return c;
}

// numpy.pad of `x` (shape `shape`) after truncating negative paddings.
std::vector<double> padRef(const std::vector<double>& x, const std::vector<std::size_t>& shape,
                           const std::vector<std::ptrdiff_t>& lower,
                           const std::vector<std::ptrdiff_t>& upper, Mode mode, double value,
                           std::vector<std::size_t>& outShape) {
    const std::size_t rank = shape.size();
    std::vector<std::ptrdiff_t> first(rank), kept(rank), before(rank);
    outShape.assign(rank, 0);
    for (std::size_t d = 0; d < rank; ++d) {
        first[d] = std::max<std::ptrdiff_t>(0, -lower[d]);
        kept[d] = std::ptrdiff_t(shape[d]) - first[d] - std::max<std::ptrdiff_t>(0, -upper[d]);
        before[d] = std::max<std::ptrdiff_t>(0, lower[d]);
        outShape[d] = std::size_t(before[d] + kept[d] + std::max<std::ptrdiff_t>(0, upper[d]));
    }
    std::vector<double> out(count(outShape));
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::vector<std::size_t> o = coordOf(i, outShape);
        bool inside = true;
        std::size_t src = 0;
        for (std::size_t d = 0; d < rank; ++d) {
            std::ptrdiff_t j = std::ptrdiff_t(o[d]) - before[d];
            if (j < 0 || j >= kept[d]) {
                inside = false;
                if (mode == EDGE) {
                    j = j < 0 ? 0 : kept[d] - 1;
                } else if (mode == REFLECT) {
                    j = j < 0 ? -j : 2 * (kept[d] - 1) - j;
                }
            }
            src = src * shape[d] + std::size_t(first[d] + j);
        }
        out[i] = (inside || mode != CONSTANT) ? x[src] : value;
    }
    return out;
}

std::vector<std::size_t> randomShape(Rng& rng) {
    std::vector<std::size_t> shape(1 + rng.below(3));
    for (std::size_t d = 0; d < shape.size(); ++d) {
        shape[d] = 1 + rng.below(5);
    }
    return shape;
}

// Paddings in [-(n-1), 3] for constant and EDGE; REFLECT pads less than the
// kept size.
void randomPaddings(Rng& rng, const std::vector<std::size_t>& shape, Mode mode,
                    std::vector<std::ptrdiff_t>& lower, std::vector<std::ptrdiff_t>& upper) {
    lower.assign(shape.size(), 0);
    upper.assign(shape.size(), 0);
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const int n = int(shape[d]);
        if (rng.below(3) == 0 && n > 1) { // truncate one side, keep at least one element
            const int cut = 1 + int(rng.below(unsigned(n - 1)));
            (rng.below(2) ? lower : upper)[d] = -cut;
        }
        const int kept = n + int(std::min<std::ptrdiff_t>(0, lower[d])) +
                         int(std::min<std::ptrdiff_t>(0, upper[d]));
        const int most = mode == REFLECT ? kept - 1 : 3;
        if (lower[d] == 0 && most > 0) {
            lower[d] = rng.between(0, most);
        }
        if (upper[d] == 0 && most > 0) {
            upper[d] = rng.between(0, most);
        }
    }
}

std::string padText(const std::vector<std::ptrdiff_t>& p) {
    std::ostringstream s;
    for (std::size_t i = 0; i < p.size(); ++i) {
        s << (i ? "," : "") << p[i];
    }
    return s.str();
}

// A copy of the (view) result in a new variable, for reading back.
Tensor readable(Checker& c, const Tensor& t) {
    Tensor v = c.graph.addVariable(t.elementType(), t.shape());
    poputil::mapTensorLinearly(c.graph, v);
    c.prog.add(Copy(t, v));
    return v;
}

void pads(Checker& c) {
    Graph& g = c.graph;
    const Type types[] = {FLOAT, HALF, INT, UNSIGNED_INT};
    for (int trial = 0; trial < 24; ++trial) {
        const Mode mode = Mode(trial % 3);
        const Type type = types[c.rng.below(4)];
        const std::vector<std::size_t> shape = randomShape(c.rng);
        std::vector<std::ptrdiff_t> lower, upper;
        randomPaddings(c.rng, shape, mode, lower, upper);
        std::vector<double> x(count(shape));
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = c.rng.between(0, 40);
        }
        const Tensor t = c.variable(type, shape, x);
        const std::string what = shapeText(shape) + " " + type.toString() + " lower {" +
                                 padText(lower) + "} upper {" + padText(upper) + "}";
        std::vector<std::size_t> outShape;
        if (mode == CONSTANT) {
            const std::string group = "pad constant";
            const double value = double(c.rng.between(1, 9));
            const std::vector<double> want =
                padRef(x, shape, lower, upper, CONSTANT, value, outShape);
            const Tensor a = type == INT || type == UNSIGNED_INT
                                 ? popops::pad(g, t, lower, upper, int(value))
                                 : popops::pad(g, t, lower, upper, float(value));
            if (a.shape() != outShape) {
                c.fail(group, what + ": shape " + shapeText(a.shape()));
                continue;
            }
            c.expect(group, what + " (value)", readable(c, a), want);
            const Tensor v =
                c.constant(type, std::vector<std::size_t>(1, 1), std::vector<double>(1, value));
            c.expect(group, what + " (tensor value)",
                     readable(c, popops::pad(g, t, lower, upper, v)), want);
            // One dimension at a time gives the same.
            Tensor b = t;
            for (unsigned d = 0; d < shape.size(); ++d) {
                b = type == INT || type == UNSIGNED_INT
                        ? popops::pad(g, b, lower[d], upper[d], d, int(value))
                        : popops::pad(g, b, lower[d], upper[d], d, float(value));
            }
            c.expect(group, what + " (per dimension)", readable(c, b), want);
        } else {
            const std::string group = mode == EDGE ? "pad EDGE" : "pad REFLECT";
            const popops::padding::Type pt =
                mode == EDGE ? popops::padding::Type::EDGE : popops::padding::Type::REFLECT;
            const std::vector<double> want = padRef(x, shape, lower, upper, mode, 0, outShape);
            c.expect(group, what, readable(c, popops::pad(t, lower, upper, pt)), want);
            Tensor b = t;
            for (unsigned d = 0; d < shape.size(); ++d) {
                b = popops::pad(b, lower[d], upper[d], d, pt);
            }
            c.expect(group, what + " (per dimension)", readable(c, b), want);
        }
    }
}

// The tile of each element of `t` (tile count when unmapped).
std::vector<unsigned> tilesOf(Graph& g, const Tensor& t) {
    std::vector<unsigned> tiles(t.numElements(), g.getTarget().getNumTiles());
    const std::vector<std::vector<Interval>> m = g.getTileMapping(t);
    for (std::size_t tile = 0; tile < m.size(); ++tile) {
        for (std::size_t k = 0; k < m[tile].size(); ++k) {
            for (std::size_t i = m[tile][k].begin(); i < m[tile][k].end(); ++i) {
                tiles[i] = unsigned(tile);
            }
        }
    }
    return tiles;
}

void mappings(Checker& c) {
    Graph& g = c.graph;
    const unsigned unmapped = g.getTarget().getNumTiles();
    // [3, 4] with row r on tile r + 2; two padding rows above, one below.
    const Tensor t = g.addVariable(FLOAT, {3, 4});
    for (unsigned r = 0; r < 3; ++r) {
        g.setTileMapping(t[r], r + 2);
    }
    const std::vector<std::ptrdiff_t> lower = {2, 0}, upper = {1, 0};
    const Tensor padNone =
        popops::pad(g, t, lower, upper, 0.0f, popops::padding::MappingMethod::NONE);
    const std::vector<unsigned> none = tilesOf(g, padNone);
    const std::vector<unsigned> zero =
        tilesOf(g, popops::pad(g, t, lower, upper, 0.0f, popops::padding::MappingMethod::ZERO));
    const std::vector<unsigned> edge =
        tilesOf(g, popops::pad(g, t, lower, upper, 0.0f, popops::padding::MappingMethod::EDGE));
    // Hand-derived: rows 0-1 padding, 2-4 the tensor (tiles 2, 3, 4), 5 padding.
    const unsigned rowTiles[][6] = {
        {unmapped, unmapped, 2, 3, 4, unmapped}, {0, 0, 2, 3, 4, 0}, {2, 2, 2, 3, 4, 4}};
    const std::vector<unsigned>* got[] = {&none, &zero, &edge};
    const char* names[] = {"NONE", "ZERO", "EDGE"};
    for (int m = 0; m < 3; ++m) {
        for (std::size_t i = 0; i < got[m]->size(); ++i) {
            if ((*got[m])[i] != rowTiles[m][i / 4]) {
                c.fail("pad mapping methods", std::string(names[m]) + ": element " +
                                                  std::to_string(i) + " on tile " +
                                                  std::to_string((*got[m])[i]));
                break;
            }
        }
    }
    c.note("pad mapping methods");
    // Unmapped padding cannot be compiled: map it now it has been checked.
    g.setTileMapping(padNone.slice(0, 2), 0);
    g.setTileMapping(padNone.slice(5, 6), 0);
}

void errors(Checker& c) {
    Graph& g = c.graph;
    const Tensor t = c.constant(FLOAT, {3, 2}, std::vector<double>(6, 1));
    const Tensor two = c.constant(FLOAT, {2}, std::vector<double>(2, 1));
    const Tensor empty = g.addVariable(FLOAT, {0, 2});
    const Tensor unmappedT = g.addVariable(FLOAT, {2, 2});
    typedef std::vector<std::ptrdiff_t> P;
    const Checker::ErrorCase cases[] = {
        {"truncating more than the dimension",
         [&] {
             popops::pad(g, t, P{-4, 0}, P{0, 0});
         }},
        {"truncating both sides past each other",
         [&] {
             popops::pad(g, t, P{-2, 0}, P{-2, 0});
         }},
        {"paddings of the wrong rank", [&] { popops::pad(g, t, P{1}, P{1}); }},
        {"dimension out of range", [&] { popops::pad(g, t, 1, 1, 2u, 0.0f); }},
        {"a two-element value tensor",
         [&] {
             popops::pad(g, t, P{1, 0}, P{0, 0}, two);
         }},
        {"REFLECT by the dimension's size",
         [&] {
             popops::pad(t, P{0, 2}, P{0, 0}, popops::padding::Type::REFLECT);
         }},
        {"EDGE of an empty dimension",
         [&] { popops::pad(empty, 1, 0, 0u, popops::padding::Type::EDGE); }},
        {"MappingMethod::EDGE of an unmapped tensor",
         [&] {
             popops::pad(g, unmappedT, P{1, 0}, P{0, 0}, 0.0f,
                         popops::padding::MappingMethod::EDGE);
         }},
    };
    c.expectPoplibsErrors("errors", cases);
    g.setTileMapping(unmappedT, 0);
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 6;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    Rng rng(47);
    Checker c(graph, prog, rng);
    errors(c);
    pads(c);
    mappings(c);
    return c.run(device);
}
