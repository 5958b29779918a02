// Codelets for codelet_print.cpp: printf from <print.h> (and std::printf,
// which must mean the same) in a vertex.
#include <poplar/Vertex.hpp>
#include <print.h>

using namespace poplar;

class Say : public Vertex {
public:
    Input<int> tag;
    Input<float> value;

    bool compute() {
        printf("vertex %d: %.2f", int(tag), float(value));
        std::printf(" (x2 = %.1f)\n", 2 * float(value));
        return true;
    }
};
