// Codelets for host_api.cpp, precompiled with popc into host_codelets.gp.
#include <poplar/Vertex.hpp>

using namespace poplar;

// out = in + 1, element-wise
class AddOne : public Vertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;
    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = in[i] + 1;
        }
        return true;
    }
};

// data *= 2 on each worker's share (a MultiVertex runs once per worker)
class DoubleAll : public MultiVertex {
public:
    InOut<Vector<float>> data;
    bool compute(unsigned workerId) {
        for (unsigned i = workerId; i < data.size(); i += numWorkers()) {
            data[i] = data[i] * 2;
        }
        return true;
    }
};
