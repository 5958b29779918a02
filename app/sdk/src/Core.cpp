// Types, targets, devices and tensors of the Poplar-compatible API.
#include "Impl.h"
#include "engine/core/Half.h"
#include "engine/graph/Tensor.h"

#include <poplar/DeviceManager.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

#include <cstdlib>
#include <sstream>

namespace poplar {

namespace detail {

tessera::Type engineType(const poplar::Type& t) {
    switch (t.id()) {
    case 0:
        return tessera::Type::Float;
    case 1:
        return tessera::Type::Half;
    case 2:
        return tessera::Type::Int;
    case 3:
        return tessera::Type::UnsignedInt;
    case 4:
        return tessera::Type::Bool;
    default:
        throw poplar_error("unsupported element type id " + std::to_string(t.id()));
    }
}

poplar::Type poplarType(tessera::Type t) {
    return poplar::Type(static_cast<int>(t));
}

const tessera::Tensor& Access::tensor(const poplar::Tensor& t) {
    if (!t.engaged_) {
        throw poplar_error("use of an empty (default-constructed) Tensor");
    }
    return held(t);
}

} // namespace detail

using detail::Access;
using detail::sizes;
using detail::translate;

std::string Type::toString() const {
    return std::string(tessera::typeName(detail::engineType(*this)));
}

// ---- Target ---------------------------------------------------------------

Target::Target()
    : impl_(std::make_shared<detail::TargetImpl>()) {}
Target::~Target() = default;
Target::Target(const Target& other) = default;
Target& Target::operator=(const Target& other) = default;

namespace {
std::string presetFor(const std::string& version) {
    if (version == "ipu1" || version == "mk1") {
        return "mk1";
    }
    if (version == "ipu2" || version == "mk2" || version == "ipu21") {
        return "mk2";
    }
    if (version == "bow") {
        return "bow";
    }
    throw poplar_error("unknown IPU version '" + version + "' (use ipu1, ipu2 or bow)");
}
} // namespace

Target Target::createIPUTarget(unsigned numIPUs, const std::string& systemType,
                               const OptionFlags&) {
    tessera::Target t = tessera::Target::preset(presetFor(systemType));
    t.numIPUs = numIPUs;
    return Access::makeTarget(t, TargetType::IPU);
}

Target Target::createCPUTarget(bool, unsigned numIPUs) {
    // Poplar's CPU target: one tile per IPU, run on the host.
    tessera::Target t = tessera::Target::preset("tiles:1");
    t.name = "cpu";
    t.numIPUs = numIPUs == 0 ? 1 : numIPUs;
    return Access::makeTarget(t, TargetType::CPU);
}

TargetType Target::getTargetType() const {
    return impl_->type;
}

std::string Target::getTargetSystemString() const {
    return impl_->target.name;
}
std::string Target::getTargetArchString() const {
    return impl_->target.name == "mk1" ? "ipu1" : "ipu2";
}
unsigned Target::getNumIPUs() const {
    return impl_->target.numIPUs;
}
unsigned Target::getTilesPerIPU() const {
    return impl_->target.tilesPerIPU;
}
unsigned Target::getNumTiles() const {
    return impl_->target.numTiles();
}
unsigned Target::getNumWorkerContexts() const {
    return impl_->target.numWorkerContexts;
}
unsigned Target::getExchangeBytesPerCycle() const {
    return impl_->target.exchangeBytesPerCycle;
}
unsigned Target::getBytesPerTile() const {
    return impl_->target.bytesPerTile;
}
std::size_t Target::getMemoryBytes() const {
    return std::size_t(impl_->target.bytesPerTile) * impl_->target.numTiles();
}
double Target::getTileClockFrequency() const {
    return impl_->target.clockHz;
}
unsigned Target::getVectorWidth(const Type& type) const {
    return unsigned(8 / getTypeSize(type));
}
std::size_t Target::getTypeSize(const Type& type) const {
    return tessera::sizeOf(detail::engineType(type));
}

// ---- IPUModel, DeviceManager ------------------------------------------------

IPUModel::IPUModel(const char* ipuVersion)
    : IPUVersion(ipuVersion ? ipuVersion : "ipu2")
    , relativeSyncDelay(RelativeSyncDelayType::AUTO)
    , compileIPUCode(false) {
    const tessera::Target t = tessera::Target::preset(presetFor(IPUVersion));
    numIPUs = t.numIPUs;
    tilesPerIPU = t.tilesPerIPU;
    memoryBytesPerTile = t.bytesPerTile;
    tileClockFrequency = t.clockHz;
    exchangeBytesPerCycle = t.exchangeBytesPerCycle;
    numWorkerContexts = t.numWorkerContexts;
    minIPUSyncDelay = 0;
}

Target IPUModel::createTarget() const {
    tessera::Target t = tessera::Target::preset(presetFor(IPUVersion));
    if (memoryBytesPerTile != t.bytesPerTile) {
        t.regions.clear(); // one region covering the resized tile memory
    }
    t.numIPUs = numIPUs;
    t.tilesPerIPU = tilesPerIPU;
    t.bytesPerTile = memoryBytesPerTile;
    t.clockHz = tileClockFrequency;
    t.exchangeBytesPerCycle = exchangeBytesPerCycle;
    t.numWorkerContexts = numWorkerContexts;
    // The model adds minIPUSyncDelay cycles to every on-chip sync.
    t.ipuSyncCycles += minIPUSyncDelay;
    translate([&] {
        t.validate();
        return 0;
    });
    return Access::makeTarget(t);
}

Device IPUModel::createDevice(OptionFlags, bool, unsigned deviceManagerId) const {
    return Device(createTarget(), deviceManagerId);
}

namespace {

constexpr unsigned kSystemIPUs = 16; // the simulated system: an IPU-POD16

// The IPU kind DeviceManager hands out: TESSERA_DEVICE (ipu1/mk1, ipu2/mk2,
// bow, tiles:N), mk2 by default.
tessera::Target systemIpu() {
    const char* env = std::getenv("TESSERA_DEVICE");
    const std::string name = env && *env ? env : "mk2";
    return translate([&] {
        if (name.rfind("tiles:", 0) == 0 || name.rfind("custom:", 0) == 0) {
            return tessera::Target::preset(name);
        }
        try {
            return tessera::Target::preset(presetFor(name));
        } catch (const poplar_error&) {
            throw poplar_error("TESSERA_DEVICE='" + name +
                               "' names no IPU kind (use ipu1, ipu2, bow or tiles:N)");
        }
    });
}

// Device ids as Poplar numbers them: the single IPUs 0..15, then the groups
// of 2, 4, 8 and 16 IPUs.
struct DeviceGroup {
    unsigned id;
    unsigned size;
};
std::vector<DeviceGroup> deviceGroups() {
    std::vector<DeviceGroup> out;
    unsigned id = 0;
    for (unsigned size = 1; size <= kSystemIPUs; size *= 2) {
        for (unsigned i = 0; i < kSystemIPUs / size; ++i) {
            out.push_back({id++, size});
        }
    }
    return out;
}

Device makeDevice(unsigned id, unsigned numIPUs) {
    tessera::Target t = systemIpu();
    t.numIPUs = numIPUs;
    return Device(Access::makeTarget(t, TargetType::IPU), id);
}

} // namespace

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned requiredNumIPUs,
                                              const OptionFlags&) const {
    std::vector<Device> devices;
    if (type == TargetType::CPU) {
        devices.push_back(Device::createCPUDevice(requiredNumIPUs));
        return devices;
    }
    if (type == TargetType::IPU_MODEL) {
        throw unsupported_feature_error(
            "DeviceManager::getDevices(TargetType::IPU_MODEL) (use poplar::IPUModel)");
    }
    for (const DeviceGroup& g : deviceGroups()) {
        if (g.size == requiredNumIPUs) {
            devices.push_back(makeDevice(g.id, g.size));
        }
    }
    return devices;
}

std::vector<Device> DeviceManager::getDevices() const {
    std::vector<Device> devices;
    for (const DeviceGroup& g : deviceGroups()) {
        devices.push_back(makeDevice(g.id, g.size));
    }
    return devices;
}

Device DeviceManager::getDevice(unsigned deviceManagerId, const OptionFlags&) const {
    for (const DeviceGroup& g : deviceGroups()) {
        if (g.id == deviceManagerId) {
            return makeDevice(g.id, g.size);
        }
    }
    throw poplar_error("DeviceManager::getDevice: no device " + std::to_string(deviceManagerId) +
                       " (the simulated system has " + std::to_string(deviceGroups().size()) + ")");
}

std::size_t DeviceManager::getNumDevices() const {
    return deviceGroups().size();
}

// ---- Tensor -------------------------------------------------------------------

static_assert(sizeof(tessera::Tensor) <= 24 && alignof(tessera::Tensor) <= 8,
              "poplar::Tensor holds the engine's tensor in 24 bytes");

Tensor::Tensor() {
    new (engine_) tessera::Tensor();
}
Tensor::~Tensor() {
    Access::held(*this).~Tensor();
}
Tensor::Tensor(const Tensor& other)
    : engaged_(other.engaged_) {
    new (engine_) tessera::Tensor(Access::held(other));
}
Tensor& Tensor::operator=(const Tensor& other) {
    Access::held(*this) = Access::held(other);
    engaged_ = other.engaged_;
    return *this;
}

namespace {
template <typename F>
Tensor view(F&& f) {
    return translate([&] { return Access::makeTensor(f()); });
}
} // namespace

bool Tensor::valid() const {
    return engaged_ && Access::held(*this).valid();
}
Type Tensor::elementType() const {
    return detail::poplarType(Access::tensor(*this).elementType());
}
std::vector<std::size_t> Tensor::shape() const {
    return Access::tensor(*this).shape();
}
unsigned Tensor::rank() const {
    return unsigned(Access::tensor(*this).rank());
}
std::size_t Tensor::dim(unsigned i) const {
    return translate([&] { return Access::tensor(*this).dim(i); });
}
std::size_t Tensor::numElements() const {
    return Access::tensor(*this).numElements();
}
Tensor Tensor::operator[](std::size_t i) const {
    return view([&] { return Access::tensor(*this)[i]; });
}
Tensor Tensor::index(ArrayRef<std::size_t> indices) const {
    return view([&] { return Access::tensor(*this).index(sizes(indices)); });
}
Tensor Tensor::slice(std::size_t begin, std::size_t end, unsigned dimension) const {
    return view([&] { return Access::tensor(*this).slice(begin, end, dimension); });
}
Tensor Tensor::slice(const Interval& region, unsigned dimension) const {
    return slice(region.begin(), region.end(), dimension);
}
Tensor Tensor::slice(ArrayRef<std::size_t> begin, ArrayRef<std::size_t> end) const {
    return view([&] { return Access::tensor(*this).slice(sizes(begin), sizes(end)); });
}
Tensor Tensor::reshape(ArrayRef<std::size_t> shape) const {
    return view([&] { return Access::tensor(*this).reshape(sizes(shape)); });
}
Tensor Tensor::flatten() const {
    return view([&] { return Access::tensor(*this).flatten(); });
}
Tensor Tensor::flatten(unsigned dimBegin, unsigned dimEnd) const {
    return view([&] { return Access::tensor(*this).flatten(dimBegin, dimEnd); });
}
Tensor Tensor::transpose() const {
    return view([&] { return Access::tensor(*this).transpose(); });
}
Tensor Tensor::dimShuffle(ArrayRef<unsigned> permutation) const {
    return view([&] {
        return Access::tensor(*this).dimShuffle(
            std::vector<std::size_t>(permutation.begin(), permutation.end()));
    });
}
Tensor Tensor::dimRoll(unsigned dimIdx, unsigned newIdx) const {
    const unsigned r = rank();
    if (dimIdx >= r || newIdx >= r) {
        throw poplar_error("dimRoll: dimension out of range");
    }
    std::vector<unsigned> order;
    for (unsigned d = 0; d < r; ++d) {
        if (d != dimIdx) {
            order.push_back(d);
        }
    }
    order.insert(order.begin() + newIdx, dimIdx);
    return dimShuffle(order);
}
Tensor Tensor::reverse(unsigned dimension) const {
    return view([&] { return Access::tensor(*this).reverse(dimension); });
}
Tensor Tensor::broadcast(unsigned n, unsigned dimension) const {
    return view([&] { return Access::tensor(*this).broadcast(n, dimension); });
}
Tensor Tensor::expand(ArrayRef<std::size_t> indices) const {
    return view([&] { return Access::tensor(*this).expand(sizes(indices)); });
}
Tensor Tensor::squeeze(ArrayRef<std::size_t> indices) const {
    return view([&] { return Access::tensor(*this).squeeze(sizes(indices)); });
}
Tensor Tensor::reshapePartial(unsigned beginIndex, unsigned endIndex,
                              ArrayRef<std::size_t> newDims) const {
    std::vector<std::size_t> s = shape();
    if (beginIndex > endIndex || endIndex > s.size()) {
        throw poplar_error("reshapePartial: bad dimension range");
    }
    std::vector<std::size_t> out(s.begin(), s.begin() + beginIndex);
    out.insert(out.end(), newDims.begin(), newDims.end());
    out.insert(out.end(), s.begin() + endIndex, s.end());
    return reshape(out);
}
bool Tensor::operator==(const Tensor& other) const {
    return Access::tensor(*this) == Access::tensor(other);
}
std::string Tensor::shapeToString() const {
    return tessera::shapeString(shape());
}
std::string Tensor::getDebugStr() const {
    return Access::tensor(*this).describe();
}

Tensor concat(const Tensor& first, const Tensor& second, unsigned dimension) {
    return view(
        [&] { return tessera::concat(Access::tensor(first), Access::tensor(second), dimension); });
}
Tensor concat(const std::vector<Tensor>& tensors, unsigned dimension) {
    return view([&] { return tessera::concat(Access::tensors(tensors), dimension); });
}
Tensor concat(std::initializer_list<Tensor> tensors, unsigned dimension) {
    return concat(std::vector<Tensor>(tensors), dimension);
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) {
    return os << (t.valid() ? t.getDebugStr() : std::string("<empty tensor>"));
}

} // namespace poplar

// ---- HalfFloat.hpp ---------------------------------------------------------------

namespace poplar {

void copyFloatToDeviceHalf(const Target&, const float* src, void* dst, std::size_t n) {
    auto* out = static_cast<std::uint16_t*>(dst);
    for (std::size_t i = 0; i < n; ++i) {
        out[i] = tessera::floatToHalfBits(src[i]);
    }
}

void copyDeviceHalfToFloat(const Target&, const void* src, float* dst, std::size_t n) {
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < n; ++i) {
        dst[i] = tessera::halfBitsToFloat(in[i]);
    }
}

void copyDoubleToDeviceHalf(const Target&, const double* src, void* dst, std::size_t n) {
    auto* out = static_cast<std::uint16_t*>(dst);
    for (std::size_t i = 0; i < n; ++i) {
        // Rounded through float: a double that rounds to a float exactly
        // halfway between two halves may round the other way.
        out[i] = tessera::floatToHalfBits(static_cast<float>(src[i]));
    }
}

void copyDeviceHalfToDouble(const Target&, const void* src, double* dst, std::size_t n) {
    const auto* in = static_cast<const std::uint16_t*>(src);
    for (std::size_t i = 0; i < n; ++i) {
        dst[i] = tessera::halfBitsToFloat(in[i]);
    }
}

} // namespace poplar
