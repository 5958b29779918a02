// poplar::DeviceManager: lists devices. Tessera has no hardware; it offers a
// simulated system of 16 IPUs (as an IPU-POD16) so programs written for
// hardware run unchanged. The IPUs are mk2 unless TESSERA_DEVICE names another
// kind: ipu1/mk1, ipu2/mk2, bow, or tiles:N (an mk2-like IPU of N tiles).
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
    std::size_t getNumDevices() const;
};

} // namespace poplar

#endif
