#include "engine/codelets/builtin/Builtins.h"

#include <cmath>

namespace tessera {

std::uint64_t vectorCycles(std::size_t n, Type type, double perElement, std::uint64_t overhead) {
    const double rate = type == Type::Half ? perElement / 2 : perElement;
    return overhead + static_cast<std::uint64_t>(std::ceil(static_cast<double>(n) * rate));
}

void registerBuiltinCodelets(CodeletRegistry& registry) {
    registerElementwiseCodelets(registry);
    registerReduceCodelets(registry);
    registerMatMulCodelets(registry);
    registerDataCodelets(registry);
    registerSliceCodelets(registry);
    registerRandomCodelets(registry);
    registerOrderCodelets(registry);
}

} // namespace tessera
