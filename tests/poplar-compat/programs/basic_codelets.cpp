// Codelets for basic.cpp: every kind of field the codelet API offers.
#include <poplar/Vertex.hpp>

#ifndef __POPC__
#error "codelets are compiled with __POPC__ defined"
#endif

using namespace poplar;

// Sums its input vector into a scalar output.
class SumVertex : public Vertex {
public:
    Input<Vector<float>> in;
    Output<float> out;

    bool compute() {
        *out = 0;
        for (const auto& v : in) {
            *out += v;
        }
        return true;
    }
};

/* A struct (public by default), a scalar input, vertex state and an InOut. */
struct ScaleAdd : public poplar::Vertex {
    InOut<Vector<float>> data;
    Input<float> offset; // added after scaling
    float scale;
    unsigned repeats = 1;

    void compute() {
        for (unsigned r = 0; r < repeats; ++r) {
            for (std::size_t i = 0; i < data.size(); ++i) {
                data[i] = data[i] * scale + offset;
            }
        }
    }

private:
    int helper_ = 0; // private members are not fields
};

// A list of vector edges: out[i] = sum over rows of rows[r][i].
class ColumnSum : public Vertex {
public:
    Vector<Input<Vector<float>>> rows;
    Output<Vector<float>> out;
    bool compute() {
        for (unsigned i = 0; i < out.size(); ++i) {
            float s = 0;
            for (unsigned r = 0; r < rows.size(); ++r) {
                s += rows[r][i];
            }
            out[i] = s;
        }
        return true;
    }
};

namespace ops {
// A template: registered for each explicit instantiation.
template <typename T>
class Triple : public Vertex {
public:
    Input<Vector<T>> in;
    Output<Vector<T>> out;
    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = in[i] * T(3);
        }
        return true;
    }
};
template class Triple<int>;
template class Triple<float>;
} // namespace ops

// Integer and boolean edges.
class CountPositive : public Vertex {
public:
    Input<Vector<int>> in;
    Output<unsigned> count;
    Output<bool> any;
    bool compute() {
        unsigned n = 0;
        for (int v : in) {
            n += v > 0 ? 1u : 0u;
        }
        count = n;
        any = n > 0;
        return true;
    }
};

// half in, float out: out = in * 2
class HalfToFloat : public Vertex {
public:
    Input<Vector<half>> in;
    Output<Vector<float>> out;
    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = float(in[i]) * 2.0f;
        }
        return true;
    }
};

// A supervisor vertex: out = -in
class Negate : public SupervisorVertex {
public:
    Input<Vector<float>> in;
    Output<Vector<float>> out;
    bool compute() {
        for (unsigned i = 0; i < in.size(); ++i) {
            out[i] = -in[i];
        }
        return true;
    }
};
