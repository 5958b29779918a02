// popops/TopK.hpp as PopLibs defines it, property-tested on random shapes
// and values with many ties: topK, topKWithPermutation and topKKeyValue for
// the largest and the smallest k in every SortOrder, on float, half, int and
// unsigned; compared with a stable host sort computed here (equal values keep
// their index order); createTopKInput and TopKParams' printing; then
// PopLibs' errors.
#include "popops_check.h"

#include <popops/SortOrder.hpp>
#include <popops/TopK.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <functional>
#include <utility>

using namespace poplar;
using namespace poplar::program;
using popops::SortOrder;

namespace {

struct Entry {
    double value;
    std::size_t index;
};

bool greaterValue(const Entry& a, const Entry& b) {
    return a.value > b.value;
}
bool lessValue(const Entry& a, const Entry& b) {
    return a.value < b.value;
}

// Per row of `x` (rows of n): the k entries PopLibs' stable top-k returns.
std::vector<Entry> topKRef(const std::vector<double>& x, std::size_t n, unsigned k, bool largest,
                           SortOrder order) {
    std::vector<Entry> out;
    for (std::size_t r = 0; n > 0 && r < x.size() / n; ++r) {
        std::vector<Entry> row(n);
        for (std::size_t i = 0; i < n; ++i) {
            row[i].value = x[r * n + i];
            row[i].index = i;
        }
        std::stable_sort(row.begin(), row.end(), largest ? greaterValue : lessValue);
        row.resize(k);
        if (order == SortOrder::ASCENDING) {
            std::stable_sort(row.begin(), row.end(), lessValue);
        } else if (order == SortOrder::DESCENDING) {
            std::stable_sort(row.begin(), row.end(), greaterValue);
        }
        out.insert(out.end(), row.begin(), row.end());
    }
    return out;
}

const char* orderName(SortOrder o) {
    return o == SortOrder::NONE ? "NONE" : o == SortOrder::ASCENDING ? "ASCENDING" : "DESCENDING";
}

void topKs(Checker& c) {
    Graph& g = c.graph;
    const Type types[] = {FLOAT, HALF, INT, UNSIGNED_INT};
    const SortOrder orders[] = {SortOrder::NONE, SortOrder::ASCENDING, SortOrder::DESCENDING};
    for (int trial = 0; trial < 24; ++trial) {
        const Type type = types[trial % 4];
        const bool largest = (trial / 4) % 2 == 0;
        const SortOrder order = orders[trial / 8]; // each order with both kinds and all types
        std::vector<std::size_t> shape(1 + c.rng.below(3));
        for (std::size_t d = 0; d < shape.size(); ++d) {
            shape[d] = 1 + c.rng.below(4);
        }
        shape.back() = 1 + c.rng.below(12);
        const std::size_t n = shape.back();
        const unsigned k = 1 + c.rng.below(unsigned(n));
        std::vector<double> x(count(shape)), other(count(shape));
        for (std::size_t i = 0; i < x.size(); ++i) {
            x[i] = c.rng.between(0, 6); // few distinct values: many ties
            other[i] = c.rng.between(-50, 50);
        }
        const popops::TopKParams params(k, largest, order, c.rng.below(2) == 0);
        const std::string group =
            std::string("topK ") + (largest ? "largest " : "smallest ") + orderName(order);
        const std::string what =
            shapeText(shape) + " " + type.toString() + " k=" + std::to_string(k);
        const std::vector<Entry> ref = topKRef(x, n, k, largest, order);
        std::vector<double> values, indices, permuted;
        for (std::size_t i = 0; i < ref.size(); ++i) {
            values.push_back(ref[i].value);
            indices.push_back(double(ref[i].index));
            permuted.push_back(other[(i / std::max(1u, k)) * n + ref[i].index]);
        }
        std::vector<std::size_t> outShape = shape;
        outShape.back() = k;
        const Tensor t = c.variable(type, shape, x);
        const Tensor top = popops::topK(g, c.prog, t, params, "topK");
        if (top.shape() != outShape) {
            c.fail(group, what + ": shape " + shapeText(top.shape()));
            continue;
        }
        c.expect(group, what + " topK", top, values);
        const std::pair<Tensor, Tensor> withPerm =
            popops::topKWithPermutation(g, c.prog, t, params);
        c.expect(group, what + " topKWithPermutation values", withPerm.first, values);
        c.expect(group, what + " topKWithPermutation indices", withPerm.second, indices);
        if (withPerm.second.elementType() != UNSIGNED_INT) {
            c.fail(group, "indices are " + withPerm.second.elementType().toString());
        }
        const Tensor v = c.variable(FLOAT, shape, other);
        const std::pair<Tensor, Tensor> kv = popops::topKKeyValue(g, c.prog, t, v, params);
        c.expect(group, what + " topKKeyValue keys", kv.first, values);
        c.expect(group, what + " topKKeyValue values", kv.second, permuted);
        c.expect(group, what + " input unchanged", t, x);
    }
    // Repeated: the indices start again from 0..n-1 every run.
    const Tensor t = c.variable(INT, {2, 5}, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3});
    Sequence body;
    const std::pair<Tensor, Tensor> r =
        popops::topKWithPermutation(g, body, t, popops::TopKParams(2, true, SortOrder::DESCENDING));
    c.prog.add(Repeat(3, body));
    c.expect("topK in a loop", "values", r.first, {5, 4, 9, 6});
    c.expect("topK in a loop", "indices", r.second, {4, 2, 0, 2});
}

void createAndPrint(Checker& c) {
    const popops::TopKParams p(3, false, SortOrder::ASCENDING, true);
    const Tensor in = popops::createTopKInput(c.graph, HALF, {4, 6}, p, "in");
    std::size_t mapped = 0;
    const std::vector<std::vector<Interval>> m = c.graph.getTileMapping(in);
    for (std::size_t tile = 0; tile < m.size(); ++tile) {
        for (std::size_t i = 0; i < m[tile].size(); ++i) {
            mapped += m[tile][i].size();
        }
    }
    if (in.shape() != std::vector<std::size_t>({4, 6}) || in.elementType() != HALF ||
        mapped != 24) {
        c.fail("createTopKInput", "shape " + shapeText(in.shape()) + ", " + std::to_string(mapped) +
                                      " elements mapped");
    }
    c.graph.setInitialValue(in, std::vector<float>(24, 0.0f));
    c.note("createTopKInput");
    std::ostringstream s;
    s << p << " " << SortOrder::NONE << " " << SortOrder::DESCENDING;
    std::cout << "TopKParams: " << s.str() << "\n";
}

void errors(Checker& c) {
    Graph& g = c.graph;
    Sequence scratch;
    const Tensor t = c.constant(FLOAT, {2, 3}, std::vector<double>(6, 1));
    const Tensor b = c.constant(BOOL, {2, 3}, std::vector<double>(6, 1));
    const Tensor scalar = c.constant(FLOAT, {}, std::vector<double>(1, 1));
    const Tensor other = c.constant(FLOAT, {2, 2}, std::vector<double>(4, 1));
    const popops::TopKParams two(2, true, SortOrder::NONE);
    const Checker::ErrorCase cases[] = {
        {"k larger than the innermost dimension",
         [&] { popops::topK(g, scratch, t, popops::TopKParams(4, true, SortOrder::NONE)); }},
        {"topK of bool", [&] { popops::topK(g, scratch, b, two); }},
        {"topK of a scalar", [&] { popops::topK(g, scratch, scalar, two); }},
        {"topKKeyValue with values of another shape",
         [&] { popops::topKKeyValue(g, scratch, t, other, two); }},
        {"createTopKInput with k too large",
         [&] {
             popops::createTopKInput(g, FLOAT, {2, 1}, two);
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
    Rng rng(53);
    Checker c(graph, prog, rng);
    errors(c);
    createAndPrint(c);
    topKs(c);
    return c.run(device);
}
