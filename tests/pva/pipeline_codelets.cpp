// A codelet for the pva tests: doubles its elements. Its cycles are set per
// vertex with setPerfEstimate, so the tests know them by hand.
#include <poplar/Vertex.hpp>

class Twice : public poplar::Vertex {
public:
    poplar::InOut<poplar::Vector<float>> x;
    bool compute() {
        for (unsigned i = 0; i < x.size(); ++i) {
            x[i] *= 2;
        }
        return true;
    }
};
