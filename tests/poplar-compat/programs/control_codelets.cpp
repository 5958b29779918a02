// Codelets for control_programs.cpp.
#include <poplar/Vertex.hpp>

using namespace poplar;

class Increment : public Vertex {
public:
    InOut<int> counter;
    void compute() { *counter += 1; }
};

// out = a < b
class Less : public Vertex {
public:
    Input<int> a;
    Input<int> b;
    Output<bool> out;
    void compute() { *out = *a < *b; }
};
