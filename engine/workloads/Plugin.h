#pragma once
// Loads workload plugins (PluginApi.h describes how to write one). Loaded
// workloads join the library: workloads::find() finds them by name.
#include "engine/workloads/Workload.h"

#include <string>
#include <vector>

namespace tessera::workloads {

struct LoadedPlugin {
    std::string path; // as given
    std::string name; // PluginInfo::name
    std::vector<const Workload*> workloads;
};

// Loads the plugin at `path` (once per canonical path; a second call returns
// the first load). Throws Error with one clear line: no such file, not
// loadable (with the loader's reason), not a Tessera plugin (no entry point),
// ABI version mismatch, no workloads, or a workload name already taken.
// Thread-safe. Plugins are never unloaded: engines may hold their code.
const LoadedPlugin& loadPlugin(const std::string& path);

// The plugins loaded so far, in load order.
std::vector<const LoadedPlugin*> loadedPlugins();

// The built-in workloads followed by the loaded plugins' workloads.
std::vector<const Workload*> available();

} // namespace tessera::workloads
