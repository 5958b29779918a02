#include "engine/record/BlockOwner.h"

#include <stdexcept>
#include <string>

namespace tessera::record {

const char* ownerKindName(OwnerKind k) {
    switch (k) {
    case OwnerKind::None:
        return "none";
    case OwnerKind::Variable:
        return "variable";
    case OwnerKind::Codelet:
        return "codelet";
    case OwnerKind::Vertex:
        return "vertex";
    case OwnerKind::Step:
        return "step";
    }
    return "?";
}

OwnerKind ownerKindOf(MemoryCategory c) {
    switch (c) {
    case MemoryCategory::AlwaysLiveVariable:
    case MemoryCategory::NotAlwaysLiveVariable:
    case MemoryCategory::Constant:
        return OwnerKind::Variable;
    case MemoryCategory::VertexInstanceState:
    case MemoryCategory::VectorListDescriptor:
        return OwnerKind::Vertex;
    case MemoryCategory::VertexCode:
        return OwnerKind::Codelet;
    case MemoryCategory::InternalExchangeCode:
    case MemoryCategory::HostExchangeCode:
        return OwnerKind::Step;
    case MemoryCategory::ControlCode:
    case MemoryCategory::Stack:
        return OwnerKind::None;
    }
    return OwnerKind::None;
}

namespace {
constexpr std::uint32_t kNoValue = VariableId::none().value();
}

BlockOwner::BlockOwner(OwnerKind kind, std::uint32_t value)
    : kind_(value == kNoValue ? OwnerKind::None : kind)
    , value_(value) {}

BlockOwner::BlockOwner(VariableId v)
    : BlockOwner(OwnerKind::Variable, v.value()) {}
BlockOwner::BlockOwner(CodeletId c)
    : BlockOwner(OwnerKind::Codelet, c.value()) {}
BlockOwner::BlockOwner(VertexId v)
    : BlockOwner(OwnerKind::Vertex, v.value()) {}
BlockOwner::BlockOwner(StepId s)
    : BlockOwner(OwnerKind::Step, s.value()) {}

std::uint32_t BlockOwner::checked(OwnerKind wanted) const {
    if (kind_ != wanted) {
        throw std::logic_error(std::string("memory block owner is ") + ownerKindName(kind_) +
                               ", not " + ownerKindName(wanted));
    }
    return value_;
}

VariableId BlockOwner::variable() const {
    return VariableId{checked(OwnerKind::Variable)};
}
CodeletId BlockOwner::codelet() const {
    return CodeletId{checked(OwnerKind::Codelet)};
}
VertexId BlockOwner::vertex() const {
    return VertexId{checked(OwnerKind::Vertex)};
}
StepId BlockOwner::step() const {
    return StepId{checked(OwnerKind::Step)};
}

BlockOwner BlockOwner::fromStored(MemoryCategory c, std::uint32_t value) {
    const OwnerKind kind = ownerKindOf(c);
    if (kind == OwnerKind::None && value != kNoValue) {
        throw std::invalid_argument(std::string("a block of ") + memoryCategoryName(c) +
                                    " has no owner, yet owner " + std::to_string(value) +
                                    " is given");
    }
    return BlockOwner(kind, value);
}

} // namespace tessera::record
