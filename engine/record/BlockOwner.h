#pragma once
// Who a memory block belongs to. A variable's data, a codelet's code, a
// vertex's state and a step's exchange code are owned by ids of different
// kinds; the block's category says which (ownerKindOf). Asking a block for an
// owner of the wrong kind throws instead of reinterpreting the number.
#include "engine/record/Ids.h"
#include "engine/record/MemoryCategory.h"

#include <cstdint>

namespace tessera::record {

enum class OwnerKind : std::uint8_t { None, Variable, Codelet, Vertex, Step };
const char* ownerKindName(OwnerKind k); // "none", "variable", ...
// The kind of owner blocks of a category have (None: control code, stack).
OwnerKind ownerKindOf(MemoryCategory c);

class BlockOwner {
public:
    BlockOwner() = default; // no owner
    // A none id makes no owner.
    BlockOwner(VariableId v);
    BlockOwner(CodeletId c);
    BlockOwner(VertexId v);
    BlockOwner(StepId s);

    OwnerKind kind() const { return kind_; }
    bool isNone() const { return kind_ == OwnerKind::None; }
    // Each throws std::logic_error naming both kinds when the owner is another kind.
    VariableId variable() const;
    CodeletId codelet() const;
    VertexId vertex() const;
    StepId step() const;

    // A report stores the owner as one integer (NULL: none) beside the
    // block's category, which fixes the kind: write stored(), read back with
    // fromStored(). fromStored throws std::invalid_argument when a category
    // whose blocks have no owner is given one.
    std::uint32_t stored() const { return value_; }
    static BlockOwner fromStored(MemoryCategory c, std::uint32_t value);

    friend bool operator==(const BlockOwner&, const BlockOwner&) = default;

private:
    BlockOwner(OwnerKind kind, std::uint32_t value);
    std::uint32_t checked(OwnerKind wanted) const;

    OwnerKind kind_ = OwnerKind::None;
    std::uint32_t value_ = VariableId::none().value();
};

} // namespace tessera::record
