#pragma once
// Writing a workload plugin: a shared library that adds workloads to Tessera
// (the GUI's Debugger, `tessera-cli workloads|capture|debug --plugin LIB.so`).
//
// A plugin is built against this source tree's engine headers and defines one
// C function, the documented entry point:
//
//     #include "engine/workloads/PluginApi.h"
//     extern "C" TESSERA_PLUGIN_EXPORT const tessera::workloads::PluginInfo*
//     tessera_workload_plugin_v1() {
//         static const MyWorkload w;
//         static const tessera::workloads::Workload* const list[] = {&w};
//         static const tessera::workloads::PluginInfo info{
//             tessera::workloads::kPluginAbiVersion, "my-plugin", list, 1};
//         return &info;
//     }
//
// The workloads are the ordinary Workload interface (Workload.h); declare each
// parameter's range (Parameter::integer, ::number, ::choice) so a bad value
// is refused before build(), and override minimumTileMemory() so a program
// that cannot fit is refused before anything is allocated. The plugin
// does not link the engine: it uses the engine of the program that loads it
// (tessera and tessera-cli export it), so build it as a MODULE library with
// the engine's include directories only; resources/samples/plugin is a
// complete example. Loaded plugins stay loaded until the process exits.
// A plugin must be built from the same Tessera version as the program
// loading it: the ABI version below changes whenever this contract does.
#include "engine/workloads/Workload.h"

#include <cstddef>
#include <cstdint>

#define TESSERA_PLUGIN_EXPORT __attribute__((visibility("default")))
#define TESSERA_PLUGIN_ENTRY_POINT "tessera_workload_plugin_v1"

namespace tessera::workloads {

inline constexpr std::uint32_t kPluginAbiVersion = 2; // 2: parameter ranges, minimumTileMemory

// What the entry point returns; it must stay valid while the process runs.
// abiVersion comes first so any future layout can still be told apart.
struct PluginInfo {
    std::uint32_t abiVersion = kPluginAbiVersion;
    const char* name = nullptr;                 // shown by `tessera-cli workloads`
    const Workload* const* workloads = nullptr; // `count` workloads
    std::size_t count = 0;
};

} // namespace tessera::workloads

extern "C" {
using TesseraWorkloadPluginEntry = const tessera::workloads::PluginInfo* (*)();
}
