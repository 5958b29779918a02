#include "Common.h"

#include "engine/ops/Mapping.h"

#include <algorithm>
#include <array>

namespace poplin::detail {

using poplar::detail::Access;
using poplar::detail::translatePoplibs;

std::string opName(const poplar::DebugContext& dc, const std::string& fallback) {
    return dc.getPathName().empty() ? fallback : dc.getPathName();
}

void checkOptions(const poplar::OptionFlags& options, const std::string& what) {
    // The planning options of PopLibs' matMul and convolution; Tessera's
    // planner reads none of them, but a misspelt one is an error as in PopLibs.
    static const std::array<const char*, 14> known = {"availableMemoryProportion",
                                                      "partialsType",
                                                      "fullyConnectedPass",
                                                      "inputRHSIsPreArranged",
                                                      "use128BitConvUnitLoad",
                                                      "enableMultiStageReduce",
                                                      "enableFastReduce",
                                                      "remapOutputTensor",
                                                      "planConstraints",
                                                      "gatherOutput",
                                                      "pass",
                                                      "enableConvDithering",
                                                      "disableSRForAMPConvs",
                                                      "enableAmpHalfEnginesPlan"};
    for (const auto& [key, value] : options) {
        if (std::find_if(known.begin(), known.end(), [&](const char* k) { return key == k; }) ==
            known.end()) {
            throw poplar::invalid_option(what + ": unrecognised option '" + key + "'");
        }
        if (key == "partialsType" && value != "float" && value != "half") {
            throw poplar::invalid_option(what + ": partialsType must be float or half, not '" +
                                         value + "'");
        }
    }
}

poplar::Tensor newOperand(poplar::Graph& graph, const poplar::Type& type,
                          const std::vector<std::size_t>& shape, const poplar::DebugContext& dc) {
    poplar::Tensor t = graph.addVariable(type, shape, dc);
    translatePoplibs([&] {
        const std::size_t grain = shape.empty() ? 1 : std::max<std::size_t>(1, shape.back());
        tessera::ops::mapLinearly(Access::graph(graph).graph, Access::tensor(t), grain);
        return 0;
    });
    return t;
}

} // namespace poplin::detail
