// Plugins that must be refused, one per BROKEN_KIND: 1 no entry point,
// 2 a newer ABI version, 3 a workload named like a built-in one.
#include "engine/workloads/PluginApi.h"

namespace {

class Clash : public tessera::workloads::Workload {
public:
    std::string name() const override { return "matmul"; }
    std::string description() const override { return "clashes with the built-in matmul"; }
    std::vector<tessera::workloads::Parameter> parameters() const override { return {}; }
    tessera::workloads::Built build(tessera::Graph&,
                                    const tessera::workloads::Parameters&) const override {
        return {};
    }
};

} // namespace

#if BROKEN_KIND == 1
extern "C" TESSERA_PLUGIN_EXPORT int tessera_something_else() {
    return 1;
}
#else
extern "C" TESSERA_PLUGIN_EXPORT const tessera::workloads::PluginInfo*
tessera_workload_plugin_v1() {
    static const Clash clash;
    static const tessera::workloads::Workload* const list[] = {&clash};
#if BROKEN_KIND == 2
    static const tessera::workloads::PluginInfo info{tessera::workloads::kPluginAbiVersion + 1,
                                                     "future", list, 1};
#else
    static const tessera::workloads::PluginInfo info{tessera::workloads::kPluginAbiVersion, "clash",
                                                     list, 1};
#endif
    return &info;
}
#endif
