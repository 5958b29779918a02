#include "engine/target/Target.h"

#include "engine/core/Error.h"

#include <charconv>
#include <functional>
#include <map>
#include <sstream>

namespace tessera {

namespace {

// Field table: name -> accessors and the values the field takes, so
// overrides, validation, listing and printing share one definition of the
// parameter set (docs/engine.md lists the ranges).
struct Field {
    std::function<std::string(const Target&)> get;
    std::function<void(Target&, std::string_view)> set;
    std::function<bool(const Target&)> inRange;
    std::string range; // in words: "an integer from 1 to 64"
};

constexpr std::uint32_t kMaxTilesPerIPU = 8192;
constexpr std::uint64_t kMaxTiles = 131072; // numIPUs x tilesPerIPU
constexpr std::size_t kMaxNameBytes = 256;
constexpr double kMinClockHz = 1e3, kMaxClockHz = 1e12;
const char* const kNameRange = "a name of 1 to 256 bytes";
const char* const kClockRange = "a number from 1000 to 1e12 (Hz)";

[[noreturn]] void refuse(std::string_view key, std::string_view text, const std::string& range) {
    throw Error("target parameter '" + std::string(key) + "' must be " + range + ", not '" +
                std::string(text) + "'");
}

std::string integerRange(std::uint64_t lo, std::uint64_t hi) {
    return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

Field u32Field(const char* key, std::uint32_t Target::*member, std::uint32_t lo, std::uint32_t hi,
               const std::string& note = {}) {
    const std::string range = integerRange(lo, hi) + note;
    return Field{[member](const Target& t) { return std::to_string(t.*member); },
                 [=](Target& t, std::string_view text) {
                     std::uint64_t value = 0;
                     const char* end = text.data() + text.size();
                     const auto [ptr, ec] = std::from_chars(text.data(), end, value);
                     if (ec != std::errc() || ptr != end || value < lo || value > hi) {
                         refuse(key, text, range);
                     }
                     t.*member = static_cast<std::uint32_t>(value);
                 },
                 [=](const Target& t) { return t.*member >= lo && t.*member <= hi; }, range};
}

std::string printClock(const Target& t) {
    std::ostringstream os;
    os << t.clockHz;
    return os.str();
}

void setClock(Target& t, std::string_view text) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !(value >= kMinClockHz && value <= kMaxClockHz)) {
        refuse("clockHz", text, kClockRange);
    }
    t.clockHz = value;
}

void setName(Target& t, std::string_view text) {
    if (text.empty() || text.size() > kMaxNameBytes) {
        refuse("name", text, kNameRange);
    }
    t.name = std::string(text);
}

const std::map<std::string, Field, std::less<>>& fields() {
    using T = Target;
    static const std::map<std::string, Field, std::less<>> table = {
        {"name",
         Field{[](const Target& t) { return t.name; }, setName,
               [](const Target& t) { return !t.name.empty() && t.name.size() <= kMaxNameBytes; },
               kNameRange}},
        {"clockHz",
         Field{printClock, setClock,
               [](const Target& t) { return t.clockHz >= kMinClockHz && t.clockHz <= kMaxClockHz; },
               kClockRange}},
        {"numIPUs", u32Field("numIPUs", &T::numIPUs, 1, 64)},
        {"tilesPerIPU", u32Field("tilesPerIPU", &T::tilesPerIPU, 1, kMaxTilesPerIPU)},
        {"bytesPerTile", u32Field("bytesPerTile", &T::bytesPerTile, 1024, 256u << 20)},
        {"memoryBaseAddress", u32Field("memoryBaseAddress", &T::memoryBaseAddress, 0, 0xffffffffu)},
        {"numWorkerContexts", u32Field("numWorkerContexts", &T::numWorkerContexts, 1, 64)},
        {"fp32FlopsPerCycle", u32Field("fp32FlopsPerCycle", &T::fp32FlopsPerCycle, 1, 65536)},
        {"fp16FlopsPerCycle", u32Field("fp16FlopsPerCycle", &T::fp16FlopsPerCycle, 1, 65536)},
        {"exchangeBytesPerCycle",
         u32Field("exchangeBytesPerCycle", &T::exchangeBytesPerCycle, 1, 65536)},
        {"exchangeLatencyCycles",
         u32Field("exchangeLatencyCycles", &T::exchangeLatencyCycles, 0, 100000000)},
        {"ipuLinkBytesPerCycle",
         u32Field("ipuLinkBytesPerCycle", &T::ipuLinkBytesPerCycle, 1, 65536)},
        {"interIpuLatencyCycles",
         u32Field("interIpuLatencyCycles", &T::interIpuLatencyCycles, 0, 100000000)},
        {"ipuSyncCycles", u32Field("ipuSyncCycles", &T::ipuSyncCycles, 0, 100000000)},
        {"globalSyncCycles", u32Field("globalSyncCycles", &T::globalSyncCycles, 0, 100000000)},
        {"hostSyncCycles", u32Field("hostSyncCycles", &T::hostSyncCycles, 0, 100000000)},
        {"hostBytesPerCycle", u32Field("hostBytesPerCycle", &T::hostBytesPerCycle, 1, 65536)},
        {"onTileCopyBytesPerCycle",
         u32Field("onTileCopyBytesPerCycle", &T::onTileCopyBytesPerCycle, 1, 65536)},
        {"workerStackBytes", u32Field("workerStackBytes", &T::workerStackBytes, 0, 65536)},
        {"supervisorStackBytes",
         u32Field("supervisorStackBytes", &T::supervisorStackBytes, 0, 65536)},
        {"minAlignment", u32Field("minAlignment", &T::minAlignment, 1, 4096, " (a power of two)")},
    };
    return table;
}

Target mk2Like(std::string name, std::uint32_t tiles) {
    Target t;
    t.name = std::move(name);
    t.tilesPerIPU = tiles;
    t.bytesPerTile = 624 * 1024;
    t.memoryBaseAddress = 0x4c000;
    t.regions = {{"non-interleaved", 0, 64 * 1024}, {"interleaved", 64 * 1024, 560 * 1024}};
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
            std::uint32_t tiles = 0;
            const auto [ptr, ec] =
                std::from_chars(count.data(), count.data() + count.size(), tiles);
            if (ec != std::errc() || ptr != count.data() + count.size() || tiles == 0 ||
                tiles > kMaxTilesPerIPU) {
                throw Error("target '" + std::string(name) + "': N in " + std::string(prefix) +
                            "N must be " + integerRange(1, kMaxTilesPerIPU) + " (tiles)");
            }
            return mk2Like("tiles:" + std::to_string(tiles), tiles);
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
    for (const auto& [key, field] : fields()) {
        if (!field.inRange(*this)) {
            throw Error("target '" + name + "': " + key + " must be " + field.range + ", not " +
                        field.get(*this));
        }
    }
    auto require = [&](bool ok, const char* what) {
        if (!ok) {
            throw Error("target '" + name + "': " + what);
        }
    };
    require(static_cast<std::uint64_t>(numIPUs) * tilesPerIPU <= kMaxTiles,
            "numIPUs x tilesPerIPU must be at most 131072 tiles");
    require(static_cast<std::uint64_t>(memoryBaseAddress) + bytesPerTile <= 0x100000000ull,
            "memoryBaseAddress + bytesPerTile must fit the 32-bit address space");
    require((minAlignment & (minAlignment - 1)) == 0, "minAlignment must be a power of two");
    std::uint64_t covered = 0;
    for (const MemoryRegion& r : memoryRegions()) {
        require(r.offset == covered, "memory regions must be contiguous from offset 0");
        covered += r.bytes;
    }
    require(covered == bytesPerTile, "memory regions must cover bytesPerTile");
}

std::string Target::parameterRange(std::string_view key) {
    auto it = fields().find(key);
    if (it == fields().end()) {
        throw Error("unknown target parameter '" + std::string(key) + "'");
    }
    return it->second.range;
}

} // namespace tessera
