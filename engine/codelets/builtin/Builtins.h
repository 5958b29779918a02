#pragma once
// The built-in codelet library. Each family registers its codelets with
// their fields and cycle estimators (formulas documented in docs/engine.md).
#include "engine/codelets/Codelet.h"
#include "engine/core/Half.h"

#include <vector>

namespace tessera {

void registerBuiltinCodelets(CodeletRegistry& registry);

void registerElementwiseCodelets(CodeletRegistry& registry);
void registerReduceCodelets(CodeletRegistry& registry);
void registerMatMulCodelets(CodeletRegistry& registry);
void registerDataCodelets(CodeletRegistry& registry);
void registerSliceCodelets(CodeletRegistry& registry);
void registerRandomCodelets(CodeletRegistry& registry);
void registerOrderCodelets(CodeletRegistry& registry);

// The host kernel MatMulPartial runs: the widest the CPU has, unless a test
// picks another (to check each one's bits on one machine). AVX2 and AVX-512
// give the same bits (fused, x-ordered sums); SSE2 rounds products apart.
enum class MatMulKernel { Sse2, Avx2, Avx512 };
std::vector<MatMulKernel> supportedMatMulKernels();
MatMulKernel matMulKernel();
void setMatMulKernel(MatMulKernel kernel); // throws if the CPU lacks it
const char* matMulKernelName(MatMulKernel kernel);
// The AVX-512 kernel's last 8 or fewer columns of a block: packed several
// rows to a vector (true), or a masked vector a row. Chosen by the CPU's
// maker (masked on Intel, where the packing's blends take FMA ports) unless
// a test picks; the same bits either way.
bool matMulPacksLastColumns();
void setMatMulPacksLastColumns(bool packs);

// Thread cycles to stream n elements of `type` through a 64-bit datapath at
// `perElement` cycles per float (halves go twice as fast), plus `overhead`.
std::uint64_t vectorCycles(std::size_t n, Type type, double perElement, std::uint64_t overhead);

} // namespace tessera
