// poplar::Device: a (simulated) device a program is loaded onto.
#ifndef TESSERA_POPLAR_DEVICE_HPP
#define TESSERA_POPLAR_DEVICE_HPP

#include <poplar/Target.hpp>

namespace poplar {

class Device {
public:
    Device()
        : id_(0)
        , valid_(false)
        , attached_(false) {}
    Device(const Target& target, unsigned id)
        : target_(target)
        , id_(id)
        , valid_(true)
        , attached_(false) {}

    // A device that runs on the host: one IPU of one tile (as Poplar's CPU device).
    static Device createCPUDevice(unsigned numIPUs = 1);

    const Target& getTarget() const { return target_; }
    unsigned getId() const { return id_; }
    bool attach() {
        attached_ = valid_;
        return attached_;
    }
    void detach() { attached_ = false; }
    bool isAttached() const { return attached_; }
    unsigned getNumIPUs() const { return target_.getNumIPUs(); }

private:
    Target target_;
    unsigned id_;
    bool valid_;
    bool attached_;
};

inline Device Device::createCPUDevice(unsigned numIPUs) {
    return Device(Target::createCPUTarget(false, numIPUs), 0);
}

} // namespace poplar

#endif
