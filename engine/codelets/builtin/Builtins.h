#pragma once
// The built-in codelet library. Each family registers its codelets with
// their fields and cycle estimators (formulas documented in docs/engine.md).
#include "engine/codelets/Codelet.h"

namespace tessera {

void registerBuiltinCodelets(CodeletRegistry& registry);

void registerElementwiseCodelets(CodeletRegistry& registry);
void registerReduceCodelets(CodeletRegistry& registry);
void registerMatMulCodelets(CodeletRegistry& registry);
void registerDataCodelets(CodeletRegistry& registry);
void registerSliceCodelets(CodeletRegistry& registry);
void registerRandomCodelets(CodeletRegistry& registry);
void registerOrderCodelets(CodeletRegistry& registry);

// Thread cycles to stream n elements of `type` through a 64-bit datapath at
// `perElement` cycles per float (halves go twice as fast), plus `overhead`.
std::uint64_t vectorCycles(std::size_t n, Type type, double perElement, std::uint64_t overhead);

} // namespace tessera
