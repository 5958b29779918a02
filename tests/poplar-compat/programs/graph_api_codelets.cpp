// Codelets for graph_api.cpp (the first of two files added in one call).
#include <poplar/Vertex.hpp>

using namespace poplar;

// out = in * scale (scale is vertex state, set from addVertex's braced list).
class Scale : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;
    float scale;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = in[i] * scale;
        }
        return true;
    }
};

// out[i] = sum of the list entry in[i] (its size set with setFieldSize).
class ListSum : public Vertex {
public:
    Vector<Input<Vector<float>>> in;
    Output<Vector<float>> out;

    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            float s = 0;
            for (float x : in[i]) {
                s += x;
            }
            out[i] = s;
        }
        return true;
    }
};

// counter += 1
class Increment : public Vertex {
public:
    InOut<int> counter;
    void compute() { *counter += 1; }
};
