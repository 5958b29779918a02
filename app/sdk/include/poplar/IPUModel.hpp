// poplar::IPUModel: describes a simulated IPU (Tessera runs every program on
// its embedded engine, so this is the usual way to get a device).
#ifndef TESSERA_POPLAR_IPUMODEL_HPP
#define TESSERA_POPLAR_IPUMODEL_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <string>

namespace poplar {

class IPUModel {
public:
    enum class RelativeSyncDelayType { NO_DELAY, AUTO };

    // "ipu1" (mk1 / GC2), "ipu2" (mk2 / GC200, the default) or "bow".
    explicit IPUModel(const char* ipuVersion = "ipu2");

    std::string IPUVersion;
    unsigned numIPUs;
    unsigned tilesPerIPU;
    unsigned memoryBytesPerTile;
    double tileClockFrequency;
    unsigned exchangeBytesPerCycle;
    unsigned numWorkerContexts;
    unsigned minIPUSyncDelay;
    RelativeSyncDelayType relativeSyncDelay;
    bool compileIPUCode;

    Device createDevice(OptionFlags opts = OptionFlags(), bool accurateHalf = false,
                        unsigned deviceManagerId = 0) const;
    Target createTarget() const;
};

} // namespace poplar

#endif
