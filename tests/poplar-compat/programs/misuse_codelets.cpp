// Codelets for misuse.cpp: one that throws an int on a negative input.
#include <poplar/Vertex.hpp>

using namespace poplar;

class ThrowsOnNegative : public Vertex {
public:
    Input<Vector<float>> in;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            if (in[i] < 0) {
                throw 42;
            }
        }
        return true;
    }
};
