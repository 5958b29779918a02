#include "engine/workloads/Plugin.h"

#include "engine/core/Error.h"
#include "engine/workloads/PluginApi.h"

#include <dlfcn.h>

#include <filesystem>
#include <list>
#include <mutex>

namespace tessera::workloads {

namespace {

struct Registry {
    std::mutex mutex;
    std::list<LoadedPlugin> plugins; // a list: references handed out stay valid
    std::vector<std::string> canonicalPaths;
};

Registry& registry() {
    static Registry r;
    return r;
}

std::string quoted(const std::string& path) {
    return "plugin '" + path + "'";
}

// Everything but dlopen itself: checks what the entry point returns.
LoadedPlugin describe(const std::string& path, void* handle) {
    void* symbol = dlsym(handle, TESSERA_PLUGIN_ENTRY_POINT);
    if (symbol == nullptr) {
        throw Error(quoted(path) + " is not a Tessera workload plugin (it has no '" +
                    TESSERA_PLUGIN_ENTRY_POINT +
                    "' entry point; see engine/workloads/PluginApi.h)");
    }
    // POSIX guarantees a data pointer from dlsym converts to a function pointer.
    auto entry = reinterpret_cast<TesseraWorkloadPluginEntry>(symbol);
    const PluginInfo* info = entry();
    if (info == nullptr) {
        throw Error(quoted(path) + ": its entry point returned no plugin information");
    }
    if (info->abiVersion != kPluginAbiVersion) {
        throw Error(quoted(path) + " was built for plugin ABI version " +
                    std::to_string(info->abiVersion) + ", but this Tessera loads version " +
                    std::to_string(kPluginAbiVersion) + "; rebuild it against this version");
    }
    if (info->count == 0 || info->workloads == nullptr) {
        throw Error(quoted(path) + " declares no workloads");
    }
    LoadedPlugin loaded;
    loaded.path = path;
    loaded.name = info->name != nullptr ? info->name : std::filesystem::path(path).stem().string();
    for (std::size_t i = 0; i < info->count; ++i) {
        if (info->workloads[i] == nullptr) {
            throw Error(quoted(path) + ": workload " + std::to_string(i) + " is null");
        }
        loaded.workloads.push_back(info->workloads[i]);
    }
    return loaded;
}

void checkNamesFree(const std::string& path, const LoadedPlugin& plugin,
                    const std::list<LoadedPlugin>& others) {
    for (const Workload* w : plugin.workloads) {
        const std::string name = w->name();
        for (const Workload* b : all()) {
            if (b->name() == name) {
                throw Error(quoted(path) + ": workload '" + name +
                            "' has the name of a built-in workload");
            }
        }
        for (const LoadedPlugin& o : others) {
            for (const Workload* ow : o.workloads) {
                if (ow->name() == name) {
                    throw Error(quoted(path) + ": workload '" + name +
                                "' is already defined by plugin '" + o.path + "'");
                }
            }
        }
    }
}

} // namespace

const LoadedPlugin& loadPlugin(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw Error(quoted(path) + ": no such file");
    }
    const std::string canonical = std::filesystem::canonical(path, ec).string();
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    auto it = r.plugins.begin();
    for (const std::string& c : r.canonicalPaths) {
        if (c == canonical) {
            return *it;
        }
        ++it;
    }
    // Relative paths without a slash would make dlopen search the library path.
    void* handle = dlopen(canonical.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        const char* why = dlerror();
        throw Error(quoted(path) + " cannot be loaded: " + (why ? why : "unknown reason") +
                    " (a plugin must be a shared library built against this Tessera)");
    }
    try {
        LoadedPlugin loaded = describe(path, handle);
        checkNamesFree(path, loaded, r.plugins);
        r.plugins.push_back(std::move(loaded));
        r.canonicalPaths.push_back(canonical);
        return r.plugins.back();
    } catch (...) {
        dlclose(handle); // nothing of it is in use yet
        throw;
    }
}

std::vector<const LoadedPlugin*> loadedPlugins() {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    std::vector<const LoadedPlugin*> out;
    for (const LoadedPlugin& p : r.plugins) {
        out.push_back(&p);
    }
    return out;
}

std::vector<const Workload*> available() {
    std::vector<const Workload*> out = all();
    for (const LoadedPlugin* p : loadedPlugins()) {
        out.insert(out.end(), p->workloads.begin(), p->workloads.end());
    }
    return out;
}

} // namespace tessera::workloads
