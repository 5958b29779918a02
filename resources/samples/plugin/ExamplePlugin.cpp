// An example workload plugin with a deliberate bug, for learning the
// debugger (docs/debugger.md): "scaled-tanh" computes
//
//     out = tanh((x * x + bias) * weight)      element-wise, rows x cols
//
// in four named steps (square, shift, scale, activate), but the "shift" step
// subtracts the bias instead of adding it. Its verification, which follows the
// formula above, fails; stepping in the debugger shows that square/out is
// still right and shift/out is the first tensor that deviates.
#include "engine/ops/Elementwise.h"
#include "engine/ops/Mapping.h"
#include "engine/workloads/Library.h"
#include "engine/workloads/PluginApi.h"

#include <cmath>

namespace {

using namespace tessera;
using namespace tessera::workloads;

class ScaledTanh : public Workload {
public:
    std::string name() const override { return "scaled-tanh"; }
    std::string description() const override {
        return "example plugin: tanh((x*x + bias) * weight) on a rows x cols grid "
               "(has a deliberate bug in step 'shift')";
    }
    std::vector<Parameter> parameters() const override {
        return {Parameter::integer("rows", "16", "rows", 1, 4096),
                Parameter::integer("cols", "32", "columns", 1, 4096)};
    }
    // x, bias, weight and out are always live.
    std::uint64_t minimumTileMemory(const Parameters& p, const Target&) const override {
        return 4 * 4 * std::uint64_t{p.getSize("rows")} * p.getSize("cols");
    }
    Built build(Graph& g, const Parameters& p) const override {
        const std::size_t rows = p.getSize("rows"), cols = p.getSize("cols");
        auto input = [&](const std::string& name) {
            Tensor t = g.addVariable(Type::Float, {rows, cols}, name);
            ops::mapLinearly(g, t, cols);
            g.createHostWrite(name, t);
            return t;
        };
        Tensor x = input("x"), bias = input("bias"), weight = input("weight");
        program::Sequence prog;
        const Tensor squared = ops::binary(g, prog, "Mul", x, x, "square");
        // The bug: the formula adds the bias.
        const Tensor shifted = ops::binary(g, prog, "Sub", squared, bias, "shift");
        const Tensor scaled = ops::binary(g, prog, "Mul", shifted, weight, "scale");
        Tensor out = ops::unary(g, prog, "Tanh", scaled, "activate");
        g.createHostRead("out", out);

        const std::size_t n = rows * cols;
        const auto xv = randomValues(n, 71, Type::Float), bv = randomValues(n, 72, Type::Float),
                   wv = randomValues(n, 73, Type::Float, 0.5f, 2.0f);
        Built built;
        built.programs = {prog};
        built.setUp = [=](Engine& e) {
            writeFloats(e, x, xv);
            writeFloats(e, bias, bv);
            writeFloats(e, weight, wv);
        };
        built.verify = [=](Engine& e) {
            std::vector<double> ref(n);
            for (std::size_t i = 0; i < n; ++i) {
                const float u = xv[i] * xv[i] + bv[i];
                ref[i] = std::tanh(u * wv[i]);
            }
            return compare(e.readValues(out), ref, 1e-6, 1e-5, "tanh((x*x + bias) * weight)");
        };
        return built;
    }
};

} // namespace

extern "C" TESSERA_PLUGIN_EXPORT const tessera::workloads::PluginInfo*
tessera_workload_plugin_v1() {
    static const ScaledTanh scaledTanh;
    static const tessera::workloads::Workload* const list[] = {&scaledTanh};
    static const tessera::workloads::PluginInfo info{tessera::workloads::kPluginAbiVersion,
                                                     "tessera-example-plugin", list, 1};
    return &info;
}
