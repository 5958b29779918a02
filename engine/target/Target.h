#pragma once
// The simulated machine. Presets carry parameters from public sources (see
// docs/engine.md); every field can be overridden by name ("key=value").
#include "engine/graph/Ids.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera {

// A contiguous address range of tile memory with its own name (mk2 tiles have
// a non-interleaved and an interleaved region).
struct MemoryRegion {
    std::string name;
    std::uint32_t offset = 0; // from the memory base
    std::uint32_t bytes = 0;
};

struct Target {
    std::string name = "custom";
    std::uint32_t numIPUs = 1;
    std::uint32_t tilesPerIPU = 16;
    std::uint32_t bytesPerTile = 256 * 1024;
    std::uint32_t memoryBaseAddress = 0x40000;
    std::vector<MemoryRegion> regions; // empty means one region covering the tile
    double clockHz = 1.6e9;
    std::uint32_t numWorkerContexts = 6;
    std::uint32_t fp32FlopsPerCycle = 16; // per tile, all workers busy
    std::uint32_t fp16FlopsPerCycle = 64;
    std::uint32_t exchangeBytesPerCycle = 4;  // per tile, on-chip
    std::uint32_t exchangeLatencyCycles = 30; // fixed cost of a tile's exchange phase
    std::uint32_t ipuLinkBytesPerCycle = 200; // per IPU: all its IPU-Links together
    std::uint32_t interIpuLatencyCycles = 500;
    std::uint32_t ipuSyncCycles = 150;     // sync among the tiles of one IPU
    std::uint32_t globalSyncCycles = 1500; // sync across IPUs
    std::uint32_t hostSyncCycles = 3000;   // sync with the host before a stream copy
    std::uint32_t hostBytesPerCycle = 20;  // per IPU: its host link, one direction
    std::uint32_t onTileCopyBytesPerCycle = 8;
    std::uint32_t workerStackBytes = 256; // per worker context
    std::uint32_t supervisorStackBytes = 128;
    std::uint32_t minAlignment = 8; // bytes, for variables

    std::uint32_t numTiles() const { return numIPUs * tilesPerIPU; }
    std::uint32_t ipuOfTile(TileId tile) const { return tile.value() / tilesPerIPU; }
    bool hasTile(TileId tile) const { return tile.value() < numTiles(); }
    std::vector<MemoryRegion> memoryRegions() const;

    // Presets: "mk1", "mk2", "bow", or "tiles:N" / "custom:N" (a small mk2-like
    // target with N tiles, 1 to 8192). Throws Error for an unknown name.
    static Target preset(std::string_view name);
    static std::vector<std::string> presetNames();

    // Applies one "key=value" override (keys are the field names above).
    // Throws Error naming the key for an unknown key or a bad value.
    void set(std::string_view key, std::string_view value);
    static std::vector<std::string> parameterNames();
    // The values a parameter takes, in words ("an integer from 1 to 64");
    // set() and validate() refuse anything else.
    static std::string parameterRange(std::string_view key);
    std::string get(std::string_view key) const;

    // Throws Error if a parameter is outside its range (parameterRange) or
    // they cannot describe a machine together (more than 131072 tiles...).
    void validate() const;
};

} // namespace tessera
