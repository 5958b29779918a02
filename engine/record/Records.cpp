#include "engine/record/Records.h"

#include <stdexcept>
#include <string>

namespace tessera::record {

void MemoryBlockRecord::setOwner(BlockOwner owner) {
    if (!owner.isNone() && owner.kind() != ownerKindOf(category)) {
        throw std::logic_error(std::string("a block of ") + memoryCategoryName(category) +
                               " cannot be owned by a " + ownerKindName(owner.kind()));
    }
    owner_ = owner.stored();
}

const char* memoryCategoryName(MemoryCategory c) {
    switch (c) {
    case MemoryCategory::AlwaysLiveVariable:
        return "always-live variables";
    case MemoryCategory::NotAlwaysLiveVariable:
        return "not-always-live variables";
    case MemoryCategory::Constant:
        return "constants";
    case MemoryCategory::VertexInstanceState:
        return "vertex instance state";
    case MemoryCategory::VectorListDescriptor:
        return "vector list descriptors";
    case MemoryCategory::VertexCode:
        return "vertex code";
    case MemoryCategory::InternalExchangeCode:
        return "internal exchange code";
    case MemoryCategory::HostExchangeCode:
        return "host exchange code";
    case MemoryCategory::ControlCode:
        return "control code";
    case MemoryCategory::Stack:
        return "stack";
    }
    return "?";
}

const char* memoryCategoryKey(MemoryCategory c) {
    switch (c) {
    case MemoryCategory::AlwaysLiveVariable:
        return "always_live";
    case MemoryCategory::NotAlwaysLiveVariable:
        return "not_always_live";
    case MemoryCategory::Constant:
        return "constant";
    case MemoryCategory::VertexInstanceState:
        return "vertex_state";
    case MemoryCategory::VectorListDescriptor:
        return "vector_list_descriptor";
    case MemoryCategory::VertexCode:
        return "vertex_code";
    case MemoryCategory::InternalExchangeCode:
        return "internal_exchange_code";
    case MemoryCategory::HostExchangeCode:
        return "host_exchange_code";
    case MemoryCategory::ControlCode:
        return "control_code";
    case MemoryCategory::Stack:
        return "stack";
    }
    return "?";
}

const char* programKindName(ProgramKind k) {
    switch (k) {
    case ProgramKind::Sequence:
        return "Sequence";
    case ProgramKind::Execute:
        return "Execute";
    case ProgramKind::Repeat:
        return "Repeat";
    case ProgramKind::RepeatWhileTrue:
        return "RepeatWhileTrue";
    case ProgramKind::RepeatWhileFalse:
        return "RepeatWhileFalse";
    case ProgramKind::If:
        return "If";
    case ProgramKind::Copy:
        return "Copy";
    case ProgramKind::StreamToDevice:
        return "StreamCopyToDevice";
    case ProgramKind::StreamToHost:
        return "StreamCopyToHost";
    case ProgramKind::PrintTensor:
        return "PrintTensor";
    case ProgramKind::Block:
        return "Block";
    case ProgramKind::Sync:
        return "Sync";
    case ProgramKind::Predicate:
        return "Predicate";
    case ProgramKind::Switch:
        return "Switch";
    case ProgramKind::Abort:
        return "Abort";
    case ProgramKind::CycleStamp:
        return "CycleStamp";
    }
    return "?";
}

const char* operationLayerName(OperationLayer l) {
    switch (l) {
    case OperationLayer::Unknown:
        return "unknown";
    case OperationLayer::Application:
        return "application";
    case OperationLayer::Library:
        return "library";
    }
    return "?";
}

std::optional<ProgramKind> programKindFromName(std::string_view name) {
    for (std::size_t i = 0; i < kProgramKindCount; ++i) {
        const auto kind = static_cast<ProgramKind>(i);
        if (name == programKindName(kind)) {
            return kind;
        }
    }
    return std::nullopt;
}

} // namespace tessera::record
