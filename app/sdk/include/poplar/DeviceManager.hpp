// poplar::DeviceManager: lists devices. Tessera has no hardware; it offers
// simulated mk2 devices so programs written for hardware run unchanged.
#ifndef TESSERA_POPLAR_DEVICEMANAGER_HPP
#define TESSERA_POPLAR_DEVICEMANAGER_HPP

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <vector>

namespace poplar {

class DeviceManager {
public:
    static DeviceManager createDeviceManager() { return DeviceManager(); }
    std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                   const OptionFlags& opts = OptionFlags()) const;
    std::vector<Device> getDevices() const;
    Device getDevice(unsigned deviceManagerId, const OptionFlags& opts = OptionFlags()) const;
    std::size_t getNumDevices() const { return 1; }
};

} // namespace poplar

#endif
