#include "engine/target/Target.h"

#include "engine/core/Error.h"

#include <charconv>
#include <functional>
#include <map>
#include <sstream>

namespace tessera {

namespace {

// Field table: name -> accessors, so overrides, listing and printing share one
// definition of the parameter set.
struct Field {
    std::function<std::string(const Target&)> get;
    std::function<void(Target&, std::string_view)> set;
};

std::uint32_t parseUnsigned(std::string_view key, std::string_view text) {
    std::uint64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value > 0xffffffffu) {
        throw Error("target parameter '" + std::string(key) + "': '" + std::string(text) +
                    "' is not an unsigned 32-bit integer");
    }
    return static_cast<std::uint32_t>(value);
}

double parseDouble(std::string_view key, std::string_view text) {
    std::string s(text);
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(s, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != s.size() || s.empty() || !(value > 0)) {
        throw Error("target parameter '" + std::string(key) + "': '" + s +
                    "' is not a positive number");
    }
    return value;
}

#define TESSERA_U32_FIELD(f)                                                                       \
    {                                                                                              \
#f, Field {                                                                                \
            [](const Target& t) { return std::to_string(t.f); },                                   \
                [](Target& t, std::string_view v) { t.f = parseUnsigned(#f, v); }                  \
        }                                                                                          \
    }

const std::map<std::string, Field, std::less<>>& fields() {
    static const std::map<std::string, Field, std::less<>> table = {
        {"name", Field{[](const Target& t) { return t.name; },
                       [](Target& t, std::string_view v) { t.name = std::string(v); }}},
        {"clockHz",
         Field{[](const Target& t) {
                   std::ostringstream os;
                   os << t.clockHz;
                   return os.str();
               },
               [](Target& t, std::string_view v) { t.clockHz = parseDouble("clockHz", v); }}},
        TESSERA_U32_FIELD(numIPUs),
        TESSERA_U32_FIELD(tilesPerIPU),
        TESSERA_U32_FIELD(bytesPerTile),
        TESSERA_U32_FIELD(memoryBaseAddress),
        TESSERA_U32_FIELD(numWorkerContexts),
        TESSERA_U32_FIELD(fp32FlopsPerCycle),
        TESSERA_U32_FIELD(fp16FlopsPerCycle),
        TESSERA_U32_FIELD(exchangeBytesPerCycle),
        TESSERA_U32_FIELD(exchangeLatencyCycles),
        TESSERA_U32_FIELD(ipuLinkBytesPerCycle),
        TESSERA_U32_FIELD(interIpuLatencyCycles),
        TESSERA_U32_FIELD(ipuSyncCycles),
        TESSERA_U32_FIELD(globalSyncCycles),
        TESSERA_U32_FIELD(hostSyncCycles),
        TESSERA_U32_FIELD(hostBytesPerCycle),
        TESSERA_U32_FIELD(onTileCopyBytesPerCycle),
        TESSERA_U32_FIELD(workerStackBytes),
        TESSERA_U32_FIELD(supervisorStackBytes),
        TESSERA_U32_FIELD(minAlignment),
    };
    return table;
}
#undef TESSERA_U32_FIELD

Target mk2Like(std::string name, std::uint32_t tiles) {
    Target t;
    t.name = std::move(name);
    t.tilesPerIPU = tiles;
    t.bytesPerTile = 624 * 1024;
    t.memoryBaseAddress = 0x4c000;
    t.regions = {{"region0", 0, 64 * 1024}, {"interleaved", 64 * 1024, 560 * 1024}};
    t.clockHz = 1.325e9;
    t.fp32FlopsPerCycle = 32;
    t.fp16FlopsPerCycle = 128;
    t.ipuSyncCycles = 150;
    t.ipuLinkBytesPerCycle = 241; // 320 GB/s of IPU-Links at 1.325 GHz
    t.hostBytesPerCycle = 24;     // PCIe Gen4 x16, 32 GB/s a direction, at 1.325 GHz
    return t;
}

} // namespace

std::vector<MemoryRegion> Target::memoryRegions() const {
    if (regions.empty()) {
        return {{"memory", 0, bytesPerTile}};
    }
    return regions;
}

Target Target::preset(std::string_view name) {
    if (name == "mk1") {
        Target t;
        t.name = "mk1";
        t.tilesPerIPU = 1216;
        t.bytesPerTile = 256 * 1024;
        t.memoryBaseAddress = 0x40000;
        t.clockHz = 1.6e9;
        t.fp32FlopsPerCycle = 16;
        t.fp16FlopsPerCycle = 64;
        return t;
    }
    if (name == "mk2") {
        return mk2Like("mk2", 1472);
    }
    if (name == "bow") {
        Target t = mk2Like("bow", 1472);
        t.clockHz = 1.85e9;
        t.ipuLinkBytesPerCycle = 173; // the same links at 1.85 GHz
        t.hostBytesPerCycle = 17;
        return t;
    }
    for (std::string_view prefix : {"tiles:", "custom:"}) {
        if (name.starts_with(prefix)) {
            const std::string_view count = name.substr(prefix.size());
            const std::uint32_t tiles = parseUnsigned("tiles", count);
            if (tiles == 0) {
                throw Error("target '" + std::string(name) + "': a target needs at least one tile");
            }
            return mk2Like("tiles:" + std::string(count), tiles);
        }
    }
    throw Error("unknown target '" + std::string(name) + "' (expected mk1, mk2, bow or tiles:N)");
}

std::vector<std::string> Target::presetNames() {
    return {"mk1", "mk2", "bow", "tiles:N"};
}

void Target::set(std::string_view key, std::string_view value) {
    auto it = fields().find(key);
    if (it == fields().end()) {
        throw Error("unknown target parameter '" + std::string(key) + "'");
    }
    it->second.set(*this, value);
    if (key == "bytesPerTile") {
        regions.clear(); // the preset's split no longer fits the new size
    }
}

std::string Target::get(std::string_view key) const {
    auto it = fields().find(key);
    if (it == fields().end()) {
        throw Error("unknown target parameter '" + std::string(key) + "'");
    }
    return it->second.get(*this);
}

std::vector<std::string> Target::parameterNames() {
    std::vector<std::string> names;
    for (const auto& [name, field] : fields()) {
        names.push_back(name);
    }
    return names;
}

void Target::validate() const {
    auto require = [&](bool ok, const char* what) {
        if (!ok) {
            throw Error("target '" + name + "': " + what);
        }
    };
    require(numIPUs > 0 && tilesPerIPU > 0, "needs at least one IPU and one tile");
    require(static_cast<std::uint64_t>(numIPUs) * tilesPerIPU < 0xffffffffu,
            "numIPUs x tilesPerIPU must fit a 32-bit tile id");
    require(bytesPerTile >= 1024, "bytesPerTile must be at least 1024");
    require(numWorkerContexts > 0, "numWorkerContexts must be positive");
    require(exchangeBytesPerCycle > 0 && ipuLinkBytesPerCycle > 0 && hostBytesPerCycle > 0 &&
                onTileCopyBytesPerCycle > 0,
            "bandwidths must be positive");
    require(minAlignment > 0 && (minAlignment & (minAlignment - 1)) == 0,
            "minAlignment must be a power of two");
    std::uint64_t covered = 0;
    for (const MemoryRegion& r : memoryRegions()) {
        require(r.offset == covered, "memory regions must be contiguous from offset 0");
        covered += r.bytes;
    }
    require(covered == bytesPerTile, "memory regions must cover bytesPerTile");
}

} // namespace tessera
