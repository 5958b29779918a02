#include "reports/Figures.h"

namespace tessera::reports {

double tileBalance(double computeMean, double computeMax) {
    return computeMax > 0 ? computeMean / computeMax : 1.0;
}

double tileBalance(const ProgramStepEntry& step, std::uint32_t tiles) {
    if (tiles == 0) {
        return 1.0;
    }
    return tileBalance(static_cast<double>(step.computeCyclesSum) / static_cast<double>(tiles),
                       static_cast<double>(step.computeCyclesMax));
}

std::string shapeText(const std::vector<std::uint64_t>& shape) {
    std::string out = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) {
        out += (i == 0 ? "" : ", ") + std::to_string(shape[i]);
    }
    return out + "]";
}

} // namespace tessera::reports
