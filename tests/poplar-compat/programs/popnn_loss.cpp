// popnn's Loss.hpp, property-based: random batches and class counts on float
// and half, UNSIGNED_INT and INT labels (some masked with MASKED_LABEL_CODE),
// both loss types, every calcLoss overload (numCorrect, deltasScale and
// modelOutputScaling), calcAccuracy accumulating, argMax / argMin /
// maxAndArgMax / minAndArgMin (the first index on ties) and topK, each
// compared with a host reference of PopLibs' formulas; then the error cases.
// One line per check.
#include "popnn_check.h"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/Loss.hpp>
#include <popnn/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

struct Fixture {
    Fixture(Graph& g, Rng& r)
        : graph(g)
        , rng(r) {}
    Graph& graph;
    Rng& rng;
    unsigned counter = 0;
    std::vector<Check> checks;

    std::string name(const char* prefix) { return prefix + std::to_string(counter++); }
    Tensor variable(Type type, const std::vector<std::size_t>& shape) {
        Tensor t = graph.addVariable(type, shape, name("v"));
        poputil::mapTensorLinearly(graph, t, 1, 1);
        return t;
    }
    void check(const std::string& what, const Tensor& t, std::vector<double> expected,
               double tolerance) {
        const std::string handle = name("read");
        graph.createHostRead(handle, t);
        checks.push_back({what, handle, t.elementType(), std::move(expected), tolerance});
    }
};

// The first index of each row's max (or min).
std::vector<double> argRef(const std::vector<float>& x, std::size_t cols, bool max,
                           std::vector<double>* values = nullptr) {
    std::vector<double> out;
    for (std::size_t r = 0; r < x.size() / cols; ++r) {
        std::size_t best = 0;
        for (std::size_t c = 1; c < cols; ++c) {
            const float v = x[r * cols + c], b = x[r * cols + best];
            if (max ? v > b : v < b) {
                best = c;
            }
        }
        out.push_back(double(best));
        if (values) {
            values->push_back(x[r * cols + best]);
        }
    }
    return out;
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 8;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    popnn::addCodelets(graph);
    Rng rng(0x2545F4914F6CDD1Dull);
    Fixture fx(graph, rng);
    Sequence prog;

    // Per case: a type, label type, loss type and overload.
    unsigned caseNo = 0;
    for (Type type : {FLOAT, HALF}) {
        const bool isHalf = type == HALF;
        const double tol = isHalf ? 4e-3 : 2e-6;
        for (Type labelType : {UNSIGNED_INT, INT}) {
            for (int lt = 0; lt < 2; ++lt) {
                const popnn::LossType lossType =
                    lt == 0 ? popnn::SUM_SQUARED_LOSS : popnn::CROSS_ENTROPY_LOSS;
                const bool ce = lossType == popnn::CROSS_ENTROPY_LOSS;
                for (int overload = 0; overload < 4; ++overload) {
                    const bool withCount = overload == 1 || overload == 3;
                    const bool withScales = overload >= 2;
                    const std::size_t batch = 1 + rng.next(6), classes = 2 + rng.next(6);
                    std::ostringstream tag;
                    tag << "case " << caseNo++ << " " << (isHalf ? "half" : "float") << " "
                        << (labelType == INT ? "int" : "unsigned") << " "
                        << (ce ? "CROSS_ENTROPY_LOSS" : "SUM_SQUARED_LOSS") << " {" << batch << ","
                        << classes << "}" << (withCount ? " numCorrect" : "")
                        << (withScales ? " scaled" : "");
                    // Probabilities k / 64 in (0, 2]; labels in range, one
                    // masked in cross-entropy batches.
                    std::vector<float> p(batch * classes);
                    for (float& v : p) {
                        v = (1 + rng.next(128)) / 64.0f;
                    }
                    std::vector<unsigned> labels(batch);
                    for (unsigned& l : labels) {
                        l = rng.next(static_cast<unsigned>(classes));
                    }
                    if (ce && batch > 1) {
                        labels[rng.next(static_cast<unsigned>(batch))] = MASKED_LABEL_CODE;
                    }
                    Tensor pT = fx.variable(type, {batch, classes});
                    graph.setInitialValue(pT, ArrayRef<float>(p));
                    Tensor lT = fx.variable(labelType, {batch});
                    if (labelType == INT) {
                        std::vector<int> li(labels.begin(), labels.end());
                        graph.setInitialValue(lT, ArrayRef<int>(li));
                    } else {
                        graph.setInitialValue(lT, ArrayRef<unsigned>(labels));
                    }
                    Tensor loss = fx.variable(type, {batch});
                    Tensor deltas = fx.variable(type, {batch, classes});
                    Tensor count = graph.addVariable(UNSIGNED_INT, {}, fx.name("count"));
                    graph.setTileMapping(count, 7);
                    graph.setInitialValue(count, 1000u); // it is added to
                    const double ds = withScales ? 2.0 : 1.0, mos = withScales ? 4.0 : 1.0;
                    Tensor dsT = graph.addConstant(type, {}, ds, fx.name("deltasScale"));
                    Tensor mosT = graph.addConstant(type, {1}, mos, fx.name("scaling"));
                    graph.setTileMapping(dsT, 2);
                    graph.setTileMapping(mosT, 3);
                    Program step;
                    if (overload == 0) {
                        step = popnn::calcLoss(graph, pT, lT, loss, deltas, lossType, "loss");
                    } else if (overload == 1) {
                        step = popnn::calcLoss(graph, pT, lT, loss, deltas, count, lossType);
                    } else if (overload == 2) {
                        step = popnn::calcLoss(graph, pT, lT, loss, deltas, dsT, mosT, lossType);
                    } else {
                        step = popnn::calcLoss(graph, pT, lT, loss, deltas, dsT, mosT, count,
                                               lossType, "loss");
                    }
                    prog.add(step);
                    prog.add(step); // numCorrect accumulates over runs of the program
                    // The reference.
                    const double eps = isHalf ? 0.000000059605 : 1.17549435e-38;
                    std::vector<double> lossRef(batch, 0.0), deltaRef(batch * classes);
                    const std::vector<double> arg = argRef(p, classes, true);
                    unsigned correct = 0;
                    for (std::size_t b = 0; b < batch; ++b) {
                        const bool masked = labels[b] == MASKED_LABEL_CODE;
                        correct += !masked && arg[b] == labels[b];
                        for (std::size_t c = 0; c < classes; ++c) {
                            const double x = p[b * classes + c];
                            const double hot = !masked && c == labels[b] ? 1 : 0;
                            if (ce) {
                                deltaRef[b * classes + c] =
                                    masked && batch > 1 ? 0 : ds / mos * (x - hot * mos);
                                lossRef[b] += -hot * (std::log(x + eps) - std::log(mos));
                            } else {
                                deltaRef[b * classes + c] = x - hot;
                                lossRef[b] += 0.5 * (x - hot) * (x - hot);
                            }
                        }
                    }
                    fx.check(tag.str() + " loss", loss, lossRef, tol * 4);
                    fx.check(tag.str() + " deltas", deltas, deltaRef, tol * 2);
                    if (withCount) {
                        fx.check(tag.str() + " numCorrect = 1000 + 2 * " + std::to_string(correct),
                                 count, {1000.0 + 2 * correct}, 0);
                    }
                }
            }
        }
    }

    // calcAccuracy alone, into a one-element tensor, accumulating.
    {
        const std::size_t batch = 5, classes = 4;
        std::vector<float> p(batch * classes);
        for (float& v : p) {
            v = static_cast<float>(rng.next(4)); // many ties: the first max counts
        }
        std::vector<unsigned> labels = {0, 1, 2, 3, MASKED_LABEL_CODE};
        Tensor pT = fx.variable(FLOAT, {batch, classes});
        graph.setInitialValue(pT, ArrayRef<float>(p));
        Tensor lT = fx.variable(UNSIGNED_INT, {batch});
        graph.setInitialValue(lT, ArrayRef<unsigned>(labels));
        Tensor count = graph.addVariable(UNSIGNED_INT, {1}, "accuracy");
        graph.setTileMapping(count, 5);
        graph.setInitialValue(count, 7u);
        prog.add(Repeat(3, popnn::calcAccuracy(graph, pT, lT, count, "accuracy")));
        const std::vector<double> arg = argRef(p, classes, true);
        unsigned correct = 0;
        for (std::size_t b = 0; b < batch; ++b) {
            correct += labels[b] != MASKED_LABEL_CODE && arg[b] == labels[b];
        }
        fx.check("calcAccuracy x3: 7 + 3 * " + std::to_string(correct), count, {7.0 + 3 * correct},
                 0);
    }

    // argMax, argMin, maxAndArgMax, minAndArgMin, topK on random rows.
    for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT}) {
        const std::size_t rows = 1 + rng.next(5), cols = 1 + rng.next(9);
        std::vector<float> x(rows * cols);
        for (float& v : x) {
            v = static_cast<float>(rng.next(8)); // ties are likely
        }
        Tensor t = fx.variable(type, {rows, cols});
        if (type == INT || type == UNSIGNED_INT) {
            std::vector<int> xi(x.begin(), x.end());
            graph.setInitialValue(t, ArrayRef<int>(xi));
        } else {
            graph.setInitialValue(t, ArrayRef<float>(x));
        }
        std::ostringstream tag;
        tag << (type == FLOAT  ? "float"
                : type == HALF ? "half"
                : type == INT  ? "int"
                               : "unsigned")
            << " {" << rows << "," << cols << "}";
        std::vector<double> maxV, minV;
        const std::vector<double> argMaxRef = argRef(x, cols, true, &maxV);
        const std::vector<double> argMinRef = argRef(x, cols, false, &minV);
        fx.check("argMax " + tag.str(), popnn::argMax(graph, t, prog), argMaxRef, 0);
        fx.check("argMin " + tag.str(), popnn::argMin(graph, t, prog), argMinRef, 0);
        std::pair<Tensor, Tensor> mx = popnn::maxAndArgMax(graph, t, prog);
        std::pair<Tensor, Tensor> mn = popnn::minAndArgMin(graph, t, prog, "minAndArgMin");
        fx.check("maxAndArgMax values " + tag.str(), mx.first, maxV, 0);
        fx.check("maxAndArgMax indices " + tag.str(), mx.second, argMaxRef, 0);
        fx.check("minAndArgMin values " + tag.str(), mn.first, minV, 0);
        fx.check("minAndArgMin indices " + tag.str(), mn.second, argMinRef, 0);
        const unsigned k = 1 + rng.next(static_cast<unsigned>(cols));
        Tensor indices;
        Tensor top = popnn::topK(graph, t, indices, k, true, prog, "topK");
        std::vector<double> topV, topI;
        for (std::size_t r = 0; r < rows; ++r) {
            std::vector<std::size_t> order(cols);
            for (std::size_t c = 0; c < cols; ++c) {
                order[c] = c;
            }
            std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
                return x[r * cols + a] > x[r * cols + b];
            });
            for (unsigned i = 0; i < k; ++i) {
                topV.push_back(x[r * cols + order[i]]);
                topI.push_back(double(order[i]));
            }
        }
        std::ostringstream shape;
        shape << "{" << top.dim(0) << "," << top.dim(1) << "," << top.dim(2) << "}";
        fx.check("topK K=" + std::to_string(k) + " values " + shape.str() + " " + tag.str(), top,
                 topV, 0);
        fx.check("topK K=" + std::to_string(k) + " indices " + tag.str(), indices, topI, 0);
    }

    // Error cases.
    Tensor p = fx.variable(FLOAT, {3, 4});
    Tensor labels = fx.variable(UNSIGNED_INT, {3});
    Tensor fl = fx.variable(FLOAT, {3});
    Tensor loss = fx.variable(FLOAT, {3});
    Tensor deltas = fx.variable(FLOAT, {3, 4});
    Tensor badDeltas = fx.variable(FLOAT, {4, 3});
    Tensor two = fx.variable(UNSIGNED_INT, {2});
    Tensor p3 = fx.variable(FLOAT, {3, 4, 1});
    Tensor b2 = fx.variable(BOOL, {3, 4});
    Sequence unused;
    expectError("calcLoss of 3-D outputs", [&] {
        popnn::calcLoss(graph, p3, labels, loss, deltas, popnn::CROSS_ENTROPY_LOSS);
    });
    expectError("calcLoss with deltas of another shape", [&] {
        popnn::calcLoss(graph, p, labels, loss, badDeltas, popnn::SUM_SQUARED_LOSS);
    });
    expectError("calcLoss with float labels",
                [&] { popnn::calcLoss(graph, p, fl, loss, deltas, popnn::CROSS_ENTROPY_LOSS); });
    expectError("calcLoss with 2 labels for 3 rows",
                [&] { popnn::calcLoss(graph, p, two, loss, deltas, popnn::CROSS_ENTROPY_LOSS); });
    expectError("calcAccuracy into 2 elements",
                [&] { popnn::calcAccuracy(graph, p, labels, two); });
    expectError("argMax of 3-D", [&] { popnn::argMax(graph, p3, unused); });
    expectError("argMin of BOOL", [&] { popnn::argMin(graph, b2, unused); });
    Tensor idx;
    expectError("topK with K > columns", [&] { popnn::topK(graph, p, idx, 5, true, unused); });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    reportChecks(engine, fx.checks);
    return 0;
}
