// poplin matrix products, property-based: random shapes and values (multiples
// of 1/8, so every product and sum is exact in float and in half), each result
// compared with a host matrix product; transposed operands as views; half
// operands with float and half outputs; float operands with a half output;
// matMulAcc and the grouped forms with constant and tensor scales;
// createMatMulInput*; the errors PopLibs raises.
#include "poplin_check.h"

#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

typedef std::vector<double> Values;

Values randomValues(Lcg& rng, std::size_t n) {
    Values v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = rng.eighth();
    }
    return v;
}

// C[g] = A[g] . B[g] for row-major [G][m][k] and [G][k][n].
Values hostProduct(const Values& a, const Values& b, std::size_t g, std::size_t m, std::size_t k,
                   std::size_t n) {
    Values c(g * m * n, 0.0);
    for (std::size_t q = 0; q < g; ++q)
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                double s = 0;
                for (std::size_t l = 0; l < k; ++l) {
                    s += a[(q * m + i) * k + l] * b[(q * k + l) * n + j];
                }
                c[(q * m + i) * n + j] = s;
            }
    return c;
}

Values transposed(const Values& a, std::size_t rows, std::size_t cols) {
    Values t(a.size());
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) {
            t[j * rows + i] = a[i * cols + j];
        }
    return t;
}

Tensor constant(Graph& graph, const Type& type, const std::vector<std::size_t>& shape,
                const Values& v) {
    std::vector<float> f(v.begin(), v.end());
    Tensor t = graph.addConstant<float>(type, shape, f);
    poputil::mapTensorLinearly(graph, t);
    return t;
}

std::string typeName(const Type& t) {
    return t == FLOAT ? "float" : "half";
}

template <typename F>
void expectError(const std::string& label, F f) {
    try {
        f();
        std::cout << label << ": MISSING ERROR\n";
    } catch (const poplar::invalid_option& e) {
        std::cout << label << ": invalid_option: " << e.what() << "\n";
    } catch (const poplar::poplar_error& e) {
        std::cout << label << ": poplar_error: " << e.what() << "\n";
    } catch (const poputil::poplibs_error& e) {
        std::cout << label << ": poplibs_error: " << e.what() << "\n";
    }
}

} // namespace

int main() {
    IPUModel model;
    model.tilesPerIPU = 16;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    poplin::addCodelets(graph);
    Sequence prog;
    Checks checks(graph);
    Lcg rng(20261125);
    poplin::PlanningCache cache;

    // Plain products, every type combination, random shapes.
    const Type types[][2] = {{FLOAT, FLOAT}, {HALF, FLOAT}, {HALF, HALF}, {FLOAT, HALF}};
    for (int trial = 0; trial < 8; ++trial) {
        const std::size_t m = rng.range(1, 9), k = rng.range(1, 12), n = rng.range(1, 9);
        const Type in = types[trial % 4][0], out = types[trial % 4][1];
        const Values a = randomValues(rng, m * k), b = randomValues(rng, k * n);
        Tensor A = constant(graph, in, {m, k}, a);
        Tensor B = constant(graph, in, {k, n}, b);
        OptionFlags options;
        if (trial == 1) {
            options.set("partialsType", "float");
            options.set("availableMemoryProportion", "0.3");
            options.set("fullyConnectedPass", "INFERENCE_FWD");
        }
        Tensor C = trial % 4 == 0 ? poplin::matMul(graph, A, B, prog, "mm", options, &cache)
                                  : poplin::matMul(graph, A, B, prog, out, "mm", options, &cache);
        std::ostringstream label;
        label << "matMul " << typeName(in) << " " << shapeOf(A.shape()) << "x" << shapeOf(B.shape())
              << " -> " << typeName(C.elementType()) << " " << shapeOf(C.shape());
        checks.expect(label.str(), C, hostProduct(a, b, 1, m, k, n));
    }

    // Half operands accumulate in float: 2048 + 1 is 2049 in float, and
    // rounds to 2048 (even) only when the output is half.
    {
        Tensor A = constant(graph, HALF, {1, 2}, Values{2048, 1});
        Tensor B = constant(graph, HALF, {2, 1}, Values{1, 1});
        checks.expect("matMul half [2048,1].[1,1] -> float is 2049",
                      poplin::matMul(graph, A, B, prog, FLOAT), Values{2049});
        checks.expect("matMul half [2048,1].[1,1] -> half is 2048",
                      poplin::matMul(graph, A, B, prog, HALF), Values{2048});
    }

    // Transposed operands are views.
    {
        const std::size_t m = 5, k = 7, n = 3;
        const Values at = randomValues(rng, k * m), bt = randomValues(rng, n * k);
        Tensor At = constant(graph, FLOAT, {k, m}, at);
        Tensor Bt = constant(graph, FLOAT, {n, k}, bt);
        Tensor C = poplin::matMul(graph, At.transpose(), Bt.transpose(), prog, "mmT");
        checks.expect("matMul A^T . B^T {5,7}x{7,3}", C,
                      hostProduct(transposed(at, k, m), transposed(bt, n, k), 1, m, k, n));
    }

    // matMulAcc: C += k.A.B, constant and tensor k, float and half C.
    for (int trial = 0; trial < 4; ++trial) {
        const std::size_t m = rng.range(1, 6), k = rng.range(1, 8), n = rng.range(1, 6);
        const Type type = trial < 2 ? FLOAT : HALF;
        const Values a = randomValues(rng, m * k), b = randomValues(rng, k * n);
        const Values c0 = randomValues(rng, m * n);
        Tensor A = constant(graph, type, {m, k}, a);
        Tensor B = constant(graph, type, {k, n}, b);
        Tensor C = graph.addVariable(type, {m, n}, "C");
        poputil::mapTensorLinearly(graph, C);
        prog.add(Copy(constant(graph, type, {m, n}, c0), C));
        const double scale = trial % 2 ? -0.5 : 2.0;
        if (trial % 2) {
            Tensor kt = graph.addConstant<float>(FLOAT, {1}, {static_cast<float>(scale)});
            graph.setTileMapping(kt, 3);
            poplin::matMulAcc(graph, C, kt, A, B, prog, "acc");
        } else {
            poplin::matMulAcc(graph, C, static_cast<float>(scale), A, B, prog, "acc");
        }
        Values want = hostProduct(a, b, 1, m, k, n);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] = c0[i] + scale * want[i];
        }
        std::ostringstream label;
        label << "matMulAcc " << typeName(type) << " k=" << scale << (trial % 2 ? " (tensor)" : "")
              << " " << shapeOf(C.shape());
        checks.expect(label.str(), C, want);
    }

    // Grouped products and accumulation.
    for (int trial = 0; trial < 3; ++trial) {
        const std::size_t g = rng.range(1, 4), m = rng.range(1, 5), k = rng.range(1, 6),
                          n = rng.range(1, 5);
        const Values a = randomValues(rng, g * m * k), b = randomValues(rng, g * k * n);
        Tensor A =
            poplin::createMatMulGroupedInputLHS(graph, FLOAT, FLOAT, {g, m, k}, {g, k, n}, "gA");
        Tensor B =
            poplin::createMatMulGroupedInputRHS(graph, FLOAT, FLOAT, {g, m, k}, {g, k, n}, "gB");
        prog.add(Copy(constant(graph, FLOAT, {g, m, k}, a), A));
        prog.add(Copy(constant(graph, FLOAT, {g, k, n}, b), B));
        Tensor C = poplin::matMulGrouped(graph, A, B, prog, FLOAT, "grouped");
        checks.expect("matMulGrouped " + shapeOf(A.shape()) + "x" + shapeOf(B.shape()) + " -> " +
                          shapeOf(C.shape()),
                      C, hostProduct(a, b, g, m, k, n));
        Tensor D = graph.addVariable(FLOAT, {g, m, n}, "D");
        poputil::mapTensorLinearly(graph, D);
        prog.add(Copy(C, D));
        poplin::matMulGroupedAcc(graph, D, 0.25f, A, B, prog, "groupedAcc");
        Values want = hostProduct(a, b, g, m, k, n);
        for (std::size_t i = 0; i < want.size(); ++i) {
            want[i] *= 1.25;
        }
        checks.expect("  matMulGroupedAcc k=0.25", D, want);
        Tensor At = poplin::transposeGroupedMatrix(A);
        std::cout << "transposeGroupedMatrix " << shapeOf(A.shape()) << " -> "
                  << shapeOf(At.shape()) << "\n";
    }

    // Groups run side by side: each group's output on its own tiles (4 groups
    // of 16 tiles: disjoint sets), more groups than tiles share them, and
    // half operands with a float output are products in float.
    {
        const std::size_t shapes[][4] = {{4, 6, 8, 5}, {20, 3, 4, 2}, {3, 5, 7, 4}};
        for (int trial = 0; trial < 3; ++trial) {
            const std::size_t g = shapes[trial][0], m = shapes[trial][1], k = shapes[trial][2],
                              n = shapes[trial][3];
            const Type type = trial == 2 ? HALF : FLOAT;
            const Values a = randomValues(rng, g * m * k), b = randomValues(rng, g * k * n);
            Tensor A = constant(graph, type, {g, m, k}, a);
            Tensor B = constant(graph, type, {g, k, n}, b);
            Tensor C = poplin::matMulGrouped(graph, A, B, prog, FLOAT, "groupedTiles");
            checks.expect("matMulGrouped on tiles " + typeName(type) + " " + shapeOf(A.shape()) +
                              "x" + shapeOf(B.shape()),
                          C, hostProduct(a, b, g, m, k, n));
            std::vector<int> owner(graph.getTarget().getNumTiles(), -1);
            bool disjoint = true;
            std::size_t used = 0;
            for (std::size_t i = 0; i < g; ++i) {
                const std::vector<std::vector<Interval>> mapping = graph.getTileMapping(C[i]);
                for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
                    if (mapping[tile].empty()) {
                        continue;
                    }
                    if (owner[tile] == -1) {
                        owner[tile] = int(i);
                        ++used;
                    } else if (owner[tile] != int(i)) {
                        disjoint = false;
                    }
                }
            }
            std::cout << "  " << g << " groups: outputs on " << (used > 1 ? "several" : "one")
                      << " tiles, " << (disjoint ? "disjoint" : "shared") << " between groups\n";
        }
    }

    // createMatMulInputLHS/RHS give the shapes asked for, mapped and usable.
    {
        Tensor L = poplin::createMatMulInputLHS(graph, FLOAT, {4, 6}, {6, 2}, "L");
        Tensor R = poplin::createMatMulInputRHS(graph, HALF, FLOAT, {4, 6}, {6, 2}, "R");
        std::cout << "createMatMulInputLHS " << shapeOf(L.shape()) << " "
                  << typeName(L.elementType()) << ", RHS " << shapeOf(R.shape()) << " "
                  << typeName(R.elementType()) << "\n";
        const Values l = randomValues(rng, 24), r = randomValues(rng, 12);
        prog.add(Copy(constant(graph, FLOAT, {4, 6}, l), L));
        Tensor Lh = constant(graph, HALF, {4, 6}, l);
        prog.add(Copy(constant(graph, HALF, {6, 2}, r), R));
        checks.expect("  product of created operands", poplin::matMul(graph, Lh, R, prog, FLOAT),
                      hostProduct(l, r, 1, 4, 6, 2));
    }
    std::cout << "planning cache used " << cache.size() << " times\n";
    std::ostringstream plan;
    poplin::matMulReportPlan(plan, graph, FLOAT, FLOAT, {64, 64}, {64, 64});
    std::cout << "matMulReportPlan writes a plan: "
              << (plan.str().find("tiles") != std::string::npos ? "yes" : "no") << "\n";

    // Errors.
    Tensor f23 = constant(graph, FLOAT, {2, 3}, Values(6, 1));
    Tensor f43 = constant(graph, FLOAT, {4, 3}, Values(12, 1));
    Tensor h32 = constant(graph, HALF, {3, 2}, Values(6, 1));
    Tensor i32 = graph.addConstant<int>(INT, {3, 2}, {1, 2, 3, 4, 5, 6});
    poputil::mapTensorLinearly(graph, i32);
    Sequence scratch;
    expectError("inner dimensions differ", [&] { poplin::matMul(graph, f23, f43, scratch); });
    expectError("types differ", [&] { poplin::matMul(graph, f23, h32, scratch); });
    expectError("int operands", [&] { poplin::matMul(graph, i32.transpose(), i32, scratch); });
    expectError("unknown option", [&] {
        poplin::matMul(graph, f23, f23.transpose(), scratch, "x", {{"noSuchOption", "1"}});
    });
    expectError("bad partialsType", [&] {
        poplin::matMul(graph, f23, f23.transpose(), scratch, "x", {{"partialsType", "int"}});
    });
    expectError("grouped needs 3-D",
                [&] { poplin::matMulGrouped(graph, f23, f23.transpose(), scratch, FLOAT); });
    expectError("matMulAcc C shape",
                [&] { poplin::matMulAcc(graph, f43, 1.0f, f23, f23.transpose(), scratch); });

    Engine engine(graph, prog);
    engine.load(device);
    engine.run(0);
    return checks.report(engine) == 0 ? 0 : 1;
}
