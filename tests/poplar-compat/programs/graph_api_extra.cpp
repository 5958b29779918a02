// Codelets for graph_api.cpp that need the compile flags given to
// addCodelets: the header comes from "-I inc", OFFSET from "-DOFFSET=10".
#include "tessera_shift.h" // written by graph_api.cpp into inc/

#include <poplar/Vertex.hpp>

using namespace poplar;

// out = in + SHIFT + OFFSET
class Shift : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = in[i] + SHIFT + OFFSET;
        }
        return true;
    }
};
