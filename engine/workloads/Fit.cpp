// Refusing a workload that cannot fit before it is built (checkFits), so an
// out-of-memory verdict takes no time and no host memory.
#include "engine/core/Error.h"
#include "engine/workloads/Workload.h"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace tessera::workloads {

std::string formatBytes(std::uint64_t bytes) {
    if (bytes < 1024) {
        return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    }
    const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = static_cast<double>(bytes) / 1024.0;
    std::size_t unit = 0;
    while (value >= 1024.0 && unit + 1 < std::size(units)) {
        value /= 1024.0;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, std::floor(value) == value ? "%.0f %s" : "%.1f %s", value,
                  units[unit]);
    return text;
}

void checkFits(const Workload& workload, const Parameters& params, const Target& target,
               bool allowOutOfMemory) {
    const std::uint64_t need = workload.minimumTileMemory(params, target);
    const std::string needs =
        workload.name() + " needs at least " + formatBytes(need) + " of tile memory";
    if (need > kMaxWorkloadTileMemory) {
        throw Error(needs + " with these parameters, more than the " +
                    formatBytes(kMaxWorkloadTileMemory) +
                    " a workload may use (the engine holds all tile memory in host memory); use "
                    "smaller parameters");
    }
    const std::uint64_t holds = std::uint64_t{target.numTiles()} * target.bytesPerTile;
    if (need > holds && !allowOutOfMemory) {
        throw Error(needs + " with these parameters, but target '" + target.name + "' holds " +
                    formatBytes(holds) + " (" + std::to_string(target.numTiles()) +
                    (target.numTiles() == 1 ? " tile of " : " tiles of ") +
                    formatBytes(target.bytesPerTile) +
                    "); use a larger target or smaller parameters, or allowOutOfMemory "
                    "(--allow-out-of-memory) to build it anyway and record the overflow");
    }
}

} // namespace tessera::workloads
