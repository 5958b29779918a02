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

    const Target& getTarget() const { return target_; }
    unsigned getId() const { return id_; }
    bool attach() {
        attached_ = valid_;
        return attached_;
    }
    void detach() { attached_ = false; }
    bool isAttached() const { return attached_; }

private:
    Target target_;
    unsigned id_;
    bool valid_;
    bool attached_;
};

} // namespace poplar

#endif
