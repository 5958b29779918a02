// popops' DynamicSlice, Sort and Encoding as PopLibs defines them,
// property-tested on random shapes, offsets and mappings: dynamic slices and
// updates over one or two dimensions, multiSlice (tensor and constant
// offsets), multiUpdate / multiUpdateAdd / multiUpdateMax, the tensor
// creators, sort and sortKeyValue (stable) in both forms, one-hot encoding
// with and without on/off values, iota; compared with host references
// computed here, and PopLibs' errors.
#include "popops_check.h"

#include <popops/DynamicSlice.hpp>
#include <popops/Encoding.hpp>
#include <popops/EncodingConstants.hpp>
#include <popops/Gather.hpp>
#include <popops/Sort.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>
#include <utility>

using namespace poplar;
using namespace poplar::program;

namespace {

std::vector<double> randomValues(Rng& rng, std::size_t n, const Type& type) {
    std::vector<double> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = type == FLOAT ? toFloat(rng.uniform(-10, 10)) : double(rng.between(-20, 20));
    }
    return v;
}

// Element `coord` of a row-major tensor of `shape`.
std::size_t flatIndex(const std::vector<std::size_t>& coord,
                      const std::vector<std::size_t>& shape) {
    std::size_t i = 0;
    for (std::size_t d = 0; d < shape.size(); ++d) {
        i = i * shape[d] + coord[d];
    }
    return i;
}

std::vector<std::size_t> coordOf(std::size_t i, const std::vector<std::size_t>& shape) {
    std::vector<std::size_t> c(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    return c;
}

void dynamicSlices(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 6; ++trial) {
        const Type type = trial % 2 ? INT : FLOAT;
        std::vector<std::size_t> shape(2 + c.rng.below(2));
        for (std::size_t d = 0; d < shape.size(); ++d) {
            shape[d] = 2 + c.rng.below(5);
        }
        std::vector<std::size_t> dims(1, c.rng.below(unsigned(shape.size())));
        if (trial >= 3) {
            const std::size_t other = (dims[0] + 1) % shape.size();
            dims.push_back(other);
        }
        std::vector<std::size_t> sizes, sliceShape = shape;
        std::vector<double> offsets;
        for (std::size_t k = 0; k < dims.size(); ++k) {
            sizes.push_back(1 + c.rng.below(unsigned(shape[dims[k]])));
            offsets.push_back(c.rng.below(unsigned(shape[dims[k]] - sizes[k] + 1)));
            sliceShape[dims[k]] = sizes[k];
        }
        const std::vector<double> values = randomValues(c.rng, count(shape), type);
        const Tensor t = trial == 0 ? popops::createSliceableTensor(g, type, shape, dims, sizes)
                                    : g.addVariable(type, shape);
        if (trial != 0) {
            c.place(t);
        }
        g.setInitialValue(t, ArrayRef<double>(values));
        const Tensor off = c.variable(UNSIGNED_INT, {dims.size()}, offsets);
        std::vector<double> want(count(sliceShape));
        for (std::size_t i = 0; i < want.size(); ++i) {
            std::vector<std::size_t> coord = coordOf(i, sliceShape);
            for (std::size_t k = 0; k < dims.size(); ++k) {
                coord[dims[k]] += std::size_t(offsets[k]);
            }
            want[i] = values[flatIndex(coord, shape)];
        }
        const std::string group = "dynamicSlice over " + std::to_string(dims.size()) + " dims";
        c.expect(group, "dynamicSlice " + shapeText(shape),
                 popops::dynamicSlice(g, t, off, dims, sizes, c.prog, "ds"), want);
        const Tensor out = g.addVariable(type, sliceShape);
        c.place(out);
        popops::dynamicSliceWithOutput(g, out, t, off, dims, sizes, c.prog);
        c.expect(group, "dynamicSliceWithOutput", out, want);
        // dynamicUpdate: the slice region takes new values, the rest stays.
        const std::vector<double> update = randomValues(c.rng, want.size(), type);
        const Tensor s = c.constant(type, sliceShape, update);
        const Tensor u = c.variable(type, shape, values);
        popops::dynamicUpdate(g, u, s, off, dims, sizes, c.prog);
        std::vector<double> updated = values;
        for (std::size_t i = 0; i < update.size(); ++i) {
            std::vector<std::size_t> coord = coordOf(i, sliceShape);
            for (std::size_t k = 0; k < dims.size(); ++k) {
                coord[dims[k]] += std::size_t(offsets[k]);
            }
            updated[flatIndex(coord, shape)] = update[i];
        }
        c.expect(group, "dynamicUpdate", u, updated);
    }
}

void multiSlices(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 4; ++trial) {
        const Type type = trial % 2 ? INT : FLOAT;
        const std::size_t rows = 3 + c.rng.below(6), cols = 1 + c.rng.below(5);
        const std::size_t dim = trial < 2 ? 0 : 1;
        const std::size_t entries = dim == 0 ? rows : cols;
        const std::vector<std::size_t> shape = {rows, cols};
        const std::vector<double> values = randomValues(c.rng, rows * cols, type);
        const popops::SlicePlan plan =
            popops::embedding::plan(g, type, rows, cols, {4}, OptionFlags());
        const Tensor t = dim == 0 ? popops::createSliceableTensor(g, type, shape, {dim}, {1}, plan,
                                                                  OptionFlags(), "table")
                                  : g.addVariable(type, shape);
        if (dim != 0) {
            c.place(t);
        }
        g.setInitialValue(t, ArrayRef<double>(values));
        const std::size_t n = 1 + c.rng.below(5);
        std::vector<double> idx(n);
        for (std::size_t i = 0; i < n; ++i) {
            idx[i] = c.rng.below(unsigned(entries));
        }
        const Tensor offsets = popops::createIndicesTensor(g, {dim}, n, plan, OptionFlags());
        g.setInitialValue(offsets, ArrayRef<double>(idx));
        const std::size_t other = dim == 0 ? cols : rows;
        std::vector<double> want;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < other; ++j) {
                const std::size_t r = dim == 0 ? std::size_t(idx[i]) : j;
                const std::size_t col = dim == 0 ? j : std::size_t(idx[i]);
                want.push_back(values[r * cols + col]);
            }
        }
        const std::string group = "multiSlice dim " + std::to_string(dim);
        c.expect(group, "tensor offsets",
                 popops::multiSlice(g, t, offsets, {dim}, {1}, c.prog, plan, OptionFlags(), "ms"),
                 want);
        std::vector<unsigned> constant(idx.begin(), idx.end());
        c.expect(group, "constant offsets", popops::multiSlice(g, t, constant, dim, c.prog), want);
        const Tensor made = popops::createSliceTensor(g, t, {dim}, {1}, n);
        const std::vector<std::size_t> madeShape =
            dim == 0 ? std::vector<std::size_t>{n, 1, cols} : std::vector<std::size_t>{n, rows, 1};
        if (made.shape() != madeShape) {
            c.fail(group, "createSliceTensor shape " + shapeText(made.shape()));
        }

        // multiUpdate (distinct offsets), multiUpdateAdd (repeats add up), multiUpdateMax.
        if (dim != 0) {
            continue;
        }
        std::vector<double> distinct;
        for (std::size_t r = 0; r < rows && distinct.size() < n; r += 2) {
            distinct.push_back(double(r));
        }
        const std::size_t m = distinct.size();
        const Tensor dOff = c.constant(UNSIGNED_INT, {m, 1}, distinct);
        const std::vector<double> upd = randomValues(c.rng, m * cols, type);
        const Tensor s =
            popops::createSliceTensor(g, type, shape, {0}, {1}, m, plan, OptionFlags());
        g.setInitialValue(s, ArrayRef<double>(upd));
        const Tensor a = c.variable(type, shape, values);
        popops::multiUpdate(g, a, s, dOff, {0}, {1}, c.prog, plan, OptionFlags());
        std::vector<double> wantA = values;
        for (std::size_t i = 0; i < m; ++i) {
            for (std::size_t j = 0; j < cols; ++j) {
                wantA[std::size_t(distinct[i]) * cols + j] = upd[i * cols + j];
            }
        }
        c.expect("multiUpdate", "distinct offsets", a, wantA);
        const std::vector<double> addv = randomValues(c.rng, n * cols, type);
        const Tensor sAdd = c.constant(type, {n, 1, cols}, addv);
        const Tensor scale = c.constant(type, {}, std::vector<double>(1, type == FLOAT ? 0.5 : 2));
        const Tensor b = c.variable(type, shape, values);
        popops::multiUpdateAdd(g, b, sAdd, offsets, scale, {0}, {1}, c.prog, plan, OptionFlags());
        std::vector<double> wantB = values;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < cols; ++j) {
                double& x = wantB[std::size_t(idx[i]) * cols + j];
                x = type == FLOAT ? toFloat(x + toFloat(0.5 * addv[i * cols + j]))
                                  : x + 2 * addv[i * cols + j];
            }
        }
        c.expect("multiUpdateAdd", "repeated offsets add up", b, wantB, 1e-6);
        const Tensor d = c.variable(type, shape, values);
        popops::multiUpdateMax(g, d, sAdd, offsets, {0}, {1}, c.prog, plan, OptionFlags());
        std::vector<double> wantD = values;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = 0; j < cols; ++j) {
                double& x = wantD[std::size_t(idx[i]) * cols + j];
                x = std::max(x, addv[i * cols + j]);
            }
        }
        c.expect("multiUpdateMax", "maximum of each", d, wantD);
    }
    // A sliceable tensor made from a slice.
    const Tensor slice = g.addVariable(FLOAT, {2, 3});
    c.place(slice);
    const Tensor big = popops::createSliceableTensorFromSlice(g, slice, {0}, {4});
    if (big.shape() == std::vector<std::size_t>{8, 3}) {
        c.note("createSliceableTensorFromSlice");
    } else {
        c.fail("createSliceableTensorFromSlice", "shape " + shapeText(big.shape()));
    }
    g.setInitialValue(big, ArrayRef<double>(std::vector<double>(24, 1)));
    c.expect("createSliceableTensorFromSlice", "usable",
             popops::dynamicSlice(g, big, c.constant(UNSIGNED_INT, {1}, {2}), {0}, {2}, c.prog),
             std::vector<double>(6, 1));
}

void sorts(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 4; ++trial) {
        const Type type = trial % 2 ? INT : FLOAT;
        const std::vector<std::size_t> shape = {2 + c.rng.below(4), 2 + c.rng.below(6)};
        const unsigned dim = trial < 2 ? 1 : 0;
        std::vector<double> keys = randomValues(c.rng, count(shape), type);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            keys[i] = std::floor(keys[i] / 4); // repeats, for stability
        }
        const std::vector<double> vals = randomValues(c.rng, count(shape), INT);
        // Host: sort each line along dim, stably by key.
        std::vector<double> wantK = keys, wantV = vals;
        const std::size_t lines = shape[1 - dim], len = shape[dim];
        for (std::size_t l = 0; l < lines; ++l) {
            std::vector<std::pair<double, double>> line;
            std::vector<std::size_t> at;
            for (std::size_t k = 0; k < len; ++k) {
                const std::size_t i = dim == 1 ? l * shape[1] + k : k * shape[1] + l;
                at.push_back(i);
                line.push_back(std::make_pair(keys[i], vals[i]));
            }
            std::stable_sort(line.begin(), line.end(),
                             [](const std::pair<double, double>& a,
                                const std::pair<double, double>& b) { return a.first < b.first; });
            for (std::size_t k = 0; k < len; ++k) {
                wantK[at[k]] = line[k].first;
                wantV[at[k]] = line[k].second;
            }
        }
        const std::string group = "sort " + type.toString() + " dim " + std::to_string(dim);
        const Tensor k = c.constant(type, shape, keys);
        c.expect(group, "sort", popops::sort(g, k, dim, c.prog, "sort"), wantK);
        const Tensor k2 = c.variable(type, shape, keys);
        popops::sortInPlace(g, k2, dim, c.prog);
        c.expect(group, "sortInPlace", k2, wantK);
        const Tensor v = c.constant(INT, shape, vals);
        c.expect(group, "sortKeyValue (stable)", popops::sortKeyValue(g, k, v, dim, c.prog), wantV);
        const Tensor k3 = c.variable(type, shape, keys);
        const Tensor v3 = c.variable(INT, shape, vals);
        popops::sortKeyValueInPlace(g, k3, v3, dim, c.prog);
        c.expect(group, "sortKeyValueInPlace keys", k3, wantK);
        c.expect(group, "sortKeyValueInPlace values", v3, wantV);
    }
}

void encodings(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 4; ++trial) {
        const Type indexType = trial % 2 ? INT : UNSIGNED_INT;
        const Type type = trial < 2 ? FLOAT : INT;
        const std::size_t n = 1 + c.rng.below(6), classes = 2 + c.rng.below(6);
        std::vector<double> idx(n);
        for (std::size_t i = 0; i < n; ++i) {
            idx[i] = c.rng.below(unsigned(classes));
        }
        if (indexType == UNSIGNED_INT && n > 1) {
            idx[n - 1] = MASKED_LABEL_CODE; // an all-off row
        }
        const Tensor indices = c.constant(indexType, {n}, idx);
        const std::string group = "encodeOneHot " + indexType.toString() + " to " + type.toString();
        std::vector<double> want(n * classes, 0), wantOnOff(n * classes, -1);
        for (std::size_t i = 0; i < n; ++i) {
            if (idx[i] < classes) {
                want[i * classes + std::size_t(idx[i])] = 1;
                wantOnOff[i * classes + std::size_t(idx[i])] = 5;
            }
        }
        const Tensor e = g.addVariable(type, {n, classes});
        c.place(e);
        popops::encodeOneHot(g, indices, e, c.prog, "oneHot");
        c.expect(group, "1 and 0", e, want);
        const Tensor e2 = g.addVariable(type, {n, classes});
        c.place(e2);
        popops::encodeOneHot(g, indices, e2, c.prog, c.constant(type, {1}, {5}),
                             c.constant(type, {1}, {-1}));
        c.expect(group, "on 5, off -1", e2, wantOnOff);
    }
    const Tensor u = g.addVariable(UNSIGNED_INT, {7});
    c.place(u);
    popops::iota(g, u, 3u, c.prog);
    c.expect("iota", "unsigned from 3", u, {3, 4, 5, 6, 7, 8, 9});
    const Tensor s = g.addVariable(INT, {5});
    c.place(s);
    popops::iota(g, s, -2, c.prog, "iota");
    c.expect("iota", "int from -2", s, {-2, -1, 0, 1, 2});
}

// gather along an axis: input's shape with the axis replaced by the indices'.
void gathers(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 3; ++trial) {
        const std::vector<std::size_t> shape = {2 + c.rng.below(3), 2 + c.rng.below(3),
                                                1 + c.rng.below(3)};
        const unsigned axis = unsigned(trial);
        const std::vector<double> values = randomValues(c.rng, count(shape), FLOAT);
        const Tensor input = popops::createGatherInput(g, FLOAT, shape, axis);
        g.setInitialValue(input, ArrayRef<double>(values));
        const std::vector<std::size_t> ishape = {2, 1 + c.rng.below(3)};
        std::vector<double> idx(count(ishape));
        for (std::size_t i = 0; i < idx.size(); ++i) {
            idx[i] = c.rng.below(unsigned(shape[axis]));
        }
        const Tensor indices = c.constant(trial == 1 ? INT : UNSIGNED_INT, ishape, idx);
        std::vector<std::size_t> outShape(shape.begin(), shape.begin() + axis);
        outShape.insert(outShape.end(), ishape.begin(), ishape.end());
        outShape.insert(outShape.end(), shape.begin() + axis + 1, shape.end());
        std::vector<double> want(count(outShape));
        for (std::size_t i = 0; i < want.size(); ++i) {
            const std::vector<std::size_t> oc = coordOf(i, outShape);
            std::vector<std::size_t> ic(oc.begin(), oc.begin() + axis);
            std::vector<std::size_t> ix(oc.begin() + axis, oc.begin() + axis + ishape.size());
            ic.push_back(std::size_t(idx[flatIndex(ix, ishape)]));
            ic.insert(ic.end(), oc.begin() + axis + ishape.size(), oc.end());
            want[i] = values[flatIndex(ic, shape)];
        }
        const Tensor out = popops::gather(g, input, indices, axis, c.prog, popops::GatherParams());
        if (out.shape() != outShape) {
            c.fail("gather",
                   "shape " + shapeText(out.shape()) + ", expected " + shapeText(outShape));
        } else {
            c.expect("gather", "axis " + std::to_string(axis), out, want);
        }
    }
    // The XLA form of the same: rows 2 and 0 of a 3x3 tensor.
    const Tensor m = c.constant(FLOAT, {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    const Tensor rows = c.constant(UNSIGNED_INT, {2}, {2, 0});
    c.expect("gather (XLA form)", "rows",
             popops::gather(g, m, rows, 1, {1}, {1, 3}, {0}, {0}, c.prog), {7, 8, 9, 1, 2, 3});
    try {
        const Tensor coords = c.constant(UNSIGNED_INT, {2, 2}, {1, 1, 2, 1});
        popops::gather(g, m, coords, 1, {}, {1, 1}, {0, 1}, {0, 1}, c.prog);
        c.fail("gather (XLA form)", "elements by coordinates: no exception");
    } catch (const poplar_error& e) {
        std::cout << "caught poplar_error: " << e.what() << "\n";
    }
}

// multiSlice and multiUpdate over two or three dimensions: each row of the
// offsets [n, dims] a slice of `sizes` (offsets clamped so the slice fits,
// as dynamicSlice clamps); multiUpdate writes the slices in order.
void multiDimSlices(Checker& c) {
    Graph& g = c.graph;
    for (int trial = 0; trial < 6; ++trial) {
        const Type type = trial % 2 ? INT : FLOAT;
        std::vector<std::size_t> shape(3);
        for (std::size_t d = 0; d < 3; ++d) {
            shape[d] = 2 + c.rng.below(4);
        }
        const std::vector<std::size_t> dims =
            trial < 3 ? std::vector<std::size_t>{0, 2} : std::vector<std::size_t>{2, 0, 1};
        std::vector<std::size_t> sizes(dims.size());
        for (std::size_t k = 0; k < dims.size(); ++k) {
            sizes[k] = 1 + c.rng.below(unsigned(shape[dims[k]]));
        }
        const std::vector<double> values = randomValues(c.rng, count(shape), type);
        const Tensor t = c.variable(type, shape, values);
        const std::size_t n = 1 + c.rng.below(4);
        std::vector<double> idx(n * dims.size());
        for (std::size_t i = 0; i < idx.size(); ++i) {
            idx[i] =
                c.rng.below(unsigned(shape[dims[i % dims.size()]] - sizes[i % dims.size()] + 1));
        }
        const Tensor offsets = c.constant(UNSIGNED_INT, {n, dims.size()}, idx);
        std::vector<std::size_t> sliceShape = shape;
        for (std::size_t k = 0; k < dims.size(); ++k) {
            sliceShape[dims[k]] = sizes[k];
        }
        // The reference: slice i's element at coordinate x is t at x + offset.
        std::vector<double> want;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t e = 0; e < count(sliceShape); ++e) {
                std::vector<std::size_t> x = coordOf(e, sliceShape);
                for (std::size_t k = 0; k < dims.size(); ++k) {
                    x[dims[k]] += std::size_t(idx[i * dims.size() + k]);
                }
                want.push_back(values[flatIndex(x, shape)]);
            }
        }
        const std::string group = "multiSlice over " + std::to_string(dims.size()) + " dims";
        const std::string what = shapeText(shape) + " sizes " + shapeText(sizes);
        const Tensor out = popops::multiSlice(g, t, offsets, dims, sizes, c.prog,
                                              popops::SlicePlan(), OptionFlags(), "msMulti");
        c.expect(group, what, out, want);

        // multiUpdate into a copy: later slices overwrite earlier ones.
        const Tensor u = c.variable(type, shape, values);
        std::vector<double> sv = randomValues(c.rng, n * count(sliceShape), type);
        std::vector<std::size_t> sShape(1, n);
        sShape.insert(sShape.end(), sliceShape.begin(), sliceShape.end());
        const Tensor slices = c.constant(type, sShape, sv);
        popops::multiUpdate(g, u, slices, offsets, dims, sizes, c.prog, popops::SlicePlan(),
                            OptionFlags(), "muMulti");
        std::vector<double> updated = values;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t e = 0; e < count(sliceShape); ++e) {
                std::vector<std::size_t> x = coordOf(e, sliceShape);
                for (std::size_t k = 0; k < dims.size(); ++k) {
                    x[dims[k]] += std::size_t(idx[i * dims.size() + k]);
                }
                updated[flatIndex(x, shape)] = sv[i * count(sliceShape) + e];
            }
        }
        c.expect("multiUpdate over several dims", what, u, updated);
    }
}

void errors(Checker& c) {
    Graph& g = c.graph;
    const Tensor t = c.constant(FLOAT, {4, 3}, std::vector<double>(12, 1));
    const Tensor fOff = c.constant(FLOAT, {1}, {1});
    const Tensor uOff = c.constant(UNSIGNED_INT, {2, 2}, {0, 1, 1, 0});
    const Tensor f5 = g.addVariable(FLOAT, {5});
    c.place(f5);
    Sequence scratch;
    const Checker::ErrorCase cases[] = {
        {"dynamicSlice with float offsets",
         [&] { popops::dynamicSlice(g, t, fOff, {0}, {1}, scratch); }},
        {"dynamicSlice larger than the dimension",
         [&] {
             popops::dynamicSlice(g, t, c.constant(UNSIGNED_INT, {1}, {0}), {1}, {4}, scratch);
         }},
        {"sort along dimension 2 of a 2-D tensor", [&] { popops::sort(g, t, 2, scratch); }},
        {"iota of a float tensor", [&] { popops::iota(g, f5, 0u, scratch); }},
        {"iota(int) of an unsigned tensor",
         [&] {
             const Tensor u = g.addVariable(UNSIGNED_INT, {2});
             c.place(u);
             popops::iota(g, u, 0, scratch);
         }},
        {"encodeOneHot into a 1-D tensor",
         [&] {
             popops::encodeOneHot(g, c.constant(UNSIGNED_INT, {5}, {0, 1, 2, 3, 4}), f5, scratch);
         }},
    };
    c.expectPoplibsErrors("errors", cases);
    const Tensor scale = c.constant(FLOAT, {}, std::vector<double>(1, 1));
    const Tensor s2 = c.constant(FLOAT, {2, 1, 1}, std::vector<double>(2, 1));
    const Checker::ErrorCase multiDim[] = {
        {"multiSlice with offsets [2, 2] for one dimension",
         [&] {
             popops::multiSlice(g, t, uOff, {0}, {1}, scratch, popops::SlicePlan(), OptionFlags());
         }},
        {"multiSlice over two dimensions with offsets [2, 1]",
         [&] {
             popops::multiSlice(g, t, c.constant(UNSIGNED_INT, {2, 1}, {0, 1}), {0, 1}, {1, 1},
                                scratch, popops::SlicePlan(), OptionFlags());
         }},
        {"multiUpdateAdd over two dimensions",
         [&] {
             const Tensor v = g.addVariable(FLOAT, {4, 3});
             c.place(v);
             popops::multiUpdateAdd(g, v, s2, uOff, scale, {0, 1}, {1, 1}, scratch,
                                    popops::SlicePlan(), OptionFlags());
         }},
    };
    c.expectPoplibsErrors("errors", multiDim);
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 6;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popops::addCodelets(graph);
    Sequence prog;
    Rng rng(31);
    Checker c(graph, prog, rng);
    errors(c);
    dynamicSlices(c);
    multiSlices(c);
    multiDimSlices(c);
    sorts(c);
    encodings(c);
    gathers(c);
    return c.run(device);
}
