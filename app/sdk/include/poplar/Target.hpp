// poplar::Target: the simulated machine a graph is built for.
#ifndef TESSERA_POPLAR_TARGET_HPP
#define TESSERA_POPLAR_TARGET_HPP

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace poplar {

namespace detail {
struct TargetImpl;
struct Access;
} // namespace detail

class Target {
public:
    Target();
    ~Target();
    Target(const Target& other);
    Target& operator=(const Target& other);

    // numIPUs IPUs of a "ipu1" (mk1), "ipu2" (mk2) or "bow" preset.
    static Target createIPUTarget(unsigned numIPUs, const std::string& systemType,
                                  const OptionFlags& opts = OptionFlags());

    // CPU for Device::createCPUDevice, IPU for DeviceManager's devices,
    // IPU_MODEL for IPUModel's.
    TargetType getTargetType() const;
    static Target createCPUTarget(bool accurateHalf = false, unsigned numIPUs = 1);
    std::string getTargetSystemString() const;
    std::string getTargetArchString() const;
    unsigned getNumIPUs() const;
    unsigned getTilesPerIPU() const;
    unsigned getNumTiles() const;
    unsigned getNumWorkerContexts() const;
    unsigned getExchangeBytesPerCycle() const;
    unsigned getBytesPerTile() const;
    std::size_t getMemoryBytes() const;
    double getTileClockFrequency() const;
    unsigned getDataPathWidth() const { return 64; }
    unsigned getVectorWidth(const Type& type) const;
    std::size_t getTypeSize(const Type& type) const;
    unsigned getFloatVectorWidth() const { return 2; }
    unsigned getHalfVectorWidth() const { return 4; }

private:
    friend struct detail::Access;
    std::shared_ptr<detail::TargetImpl> impl_;
};

} // namespace poplar

#endif
