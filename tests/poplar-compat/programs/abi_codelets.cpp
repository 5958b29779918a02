// Codelets for codelet_abi.cpp: the vertex ABI public codelets use.
#include <ipu_builtins.h>
#include <ipudef.h>
#include <poplar/Vertex.hpp>
#include <print.h>

#include <ipu_memory_intrinsics>
#include <ipu_vector_math>

using namespace poplar;

// A supervisor vertex (the attribute is the IPU's; the host ignores it).
class SupervisorSum : public SupervisorVertex {
public:
    Input<Vector<float, VectorLayout::ONE_PTR, 8>> in;
    Output<float> out;

    bool compute() __attribute__((target("supervisor"))) {
        float s = 0;
        for (unsigned i = 0; i < 4; ++i) {
            s += in[i];
        }
        *out = s;
        return true;
    }
};

// compute(workerId) runs once per worker context: each counts itself and
// doubles the elements i with i % numWorkers() == workerId.
class Doubler : public MultiVertex {
public:
    Input<Vector<float, VectorLayout::SCALED_PTR32, 4>> in;
    Output<Vector<float>> out;
    InOut<Vector<int>> calls;

    bool compute(unsigned workerId) {
        calls[workerId] += 1;
        for (unsigned i = workerId; i < in.size(); i += numWorkers()) {
            out[i] = 2 * in[i];
        }
        return true;
    }
};

// half scalars and vectors: c = a * b[0] + c; d[i] = b[i] + 0.5.
class HalfOps : public Vertex {
public:
    Input<half> a;
    Input<Vector<half>> b;
    InOut<half> c;
    Output<Vector<half, VectorLayout::SPAN, 8>> d;

    bool compute() {
        *c = float(*a) * float(b[0]) + float(*c);
        for (unsigned i = 0; i < b.size(); ++i) {
            d[i] = float(b[i]) + 0.5f;
        }
        return true;
    }
};

// A vector list with its layout argument; float2 / half4 arithmetic through
// the builtins headers; printf from <print.h>.
class Builtins : public Vertex {
public:
    Input<VectorList<float, VectorListLayout::DELTANELEMENTS>> rows;
    Output<Vector<float>> out; // 4 results

    bool compute() {
        const float* p = &rows[0][0];
        float2 first = {ipu::load_postinc(&p, 1), ipu::load_postinc(&p, 1)};
        float2 second = {rows[1][0], rows[1][1]};
        float2 m = __builtin_ipu_max(first, second);
        out[0] = m[0];
        out[1] = m[1];
        out[2] = ipu::sqrt(rows[1][1]);
        half4 h = {_Float16(1), _Float16(2), _Float16(3), _Float16(4)};
        half4 r = ipu::sqrt(h * h);
        out[3] = float(r[0] + r[1] + r[2] + r[3]);
        printf("Builtins: %u rows, max %.1f %.1f\n", unsigned(rows.size()), m[0], m[1]);
        return true;
    }
};
