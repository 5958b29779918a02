#include "engine/ops/ReduceCodelets.h"

#include "engine/core/Half.h"
#include "engine/ops/CodeletRecipe.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace tessera::ops::detail {

namespace {

// A value of any element type: floating ones in `real`, the others in `whole`.
struct Value {
    double real = 0;
    std::int64_t whole = 0;
};

Value load(Type t, const std::byte* base, std::size_t i) {
    Value v;
    switch (t) {
    case Type::Float: {
        float x;
        std::memcpy(&x, base + i * 4, 4);
        v.real = x;
        break;
    }
    case Type::Half: {
        std::uint16_t bits;
        std::memcpy(&bits, base + i * 2, 2);
        v.real = halfBitsToFloat(bits);
        break;
    }
    case Type::Int: {
        std::int32_t x;
        std::memcpy(&x, base + i * 4, 4);
        v.whole = x;
        break;
    }
    case Type::UnsignedInt: {
        std::uint32_t x;
        std::memcpy(&x, base + i * 4, 4);
        v.whole = x;
        break;
    }
    case Type::Bool:
        v.whole = base[i] != std::byte{0};
        break;
    }
    return v;
}

void store(Type t, std::byte* base, std::size_t i, Value v) {
    switch (t) {
    case Type::Float: {
        const auto x = static_cast<float>(v.real);
        std::memcpy(base + i * 4, &x, 4);
        break;
    }
    case Type::Half: {
        const std::uint16_t bits = floatToHalfBits(static_cast<float>(v.real));
        std::memcpy(base + i * 2, &bits, 2);
        break;
    }
    case Type::Int: {
        const auto x = static_cast<std::int32_t>(static_cast<std::uint32_t>(v.whole));
        std::memcpy(base + i * 4, &x, 4);
        break;
    }
    case Type::UnsignedInt: {
        const auto x = static_cast<std::uint32_t>(v.whole);
        std::memcpy(base + i * 4, &x, 4);
        break;
    }
    case Type::Bool:
        base[i] = v.whole != 0 ? std::byte{1} : std::byte{0};
        break;
    }
}

// Rounds or wraps to what `t` holds.
Value fit(Type t, Value v) {
    switch (t) {
    case Type::Float:
        v.real = static_cast<float>(v.real);
        break;
    case Type::Half:
        v.real = halfBitsToFloat(floatToHalfBits(static_cast<float>(v.real)));
        break;
    case Type::Int:
        v.whole = static_cast<std::int32_t>(static_cast<std::uint32_t>(v.whole));
        break;
    case Type::UnsignedInt:
        v.whole = static_cast<std::uint32_t>(v.whole);
        break;
    case Type::Bool:
        v.whole = v.whole != 0;
        break;
    }
    return v;
}

// From one type to another: floating to integer truncates and saturates.
Value convert(Type from, Type to, Value v) {
    if (isFloatingPoint(from) && !isFloatingPoint(to)) {
        const double lo = to == Type::Int ? -2147483648.0 : 0.0;
        const double hi = to == Type::Int ? 2147483647.0 : 4294967295.0;
        v.whole = to == Type::Bool ? v.real != 0.0
                  : std::isnan(v.real)
                      ? 0
                      : static_cast<std::int64_t>(std::trunc(std::clamp(v.real, lo, hi)));
    } else if (!isFloatingPoint(from) && isFloatingPoint(to)) {
        v.real = static_cast<double>(v.whole);
    }
    return fit(to, v);
}

Value identity(ReduceOp op, Type t) {
    Value v;
    const bool real = isFloatingPoint(t);
    const double inf = std::numeric_limits<double>::infinity();
    switch (op) {
    case ReduceOp::Add:
    case ReduceOp::SquareAdd:
    case ReduceOp::LogicalOr:
        break;
    case ReduceOp::Mul:
    case ReduceOp::LogicalAnd:
        v.real = 1;
        v.whole = 1;
        break;
    case ReduceOp::Max:
        v.real = -inf;
        v.whole = t == Type::Int ? std::numeric_limits<std::int32_t>::min() : 0;
        break;
    case ReduceOp::Min:
        v.real = inf;
        v.whole = t == Type::Int ? std::numeric_limits<std::int32_t>::max()
                                 : std::numeric_limits<std::uint32_t>::max();
        break;
    }
    (void)real;
    return v;
}

Value combine(ReduceOp op, Type acc, Value a, Value b) {
    const bool real = isFloatingPoint(acc);
    Value r;
    switch (op) {
    case ReduceOp::Add:
    case ReduceOp::SquareAdd:
        r.real = a.real + b.real;
        r.whole = a.whole + b.whole;
        break;
    case ReduceOp::Mul:
        r.real = a.real * b.real;
        r.whole = static_cast<std::int64_t>(static_cast<std::uint64_t>(a.whole) *
                                            static_cast<std::uint64_t>(b.whole));
        break;
    case ReduceOp::Max:
        r.real = std::fmax(a.real, b.real);
        r.whole = std::max(a.whole, b.whole);
        break;
    case ReduceOp::Min:
        r.real = std::fmin(a.real, b.real);
        r.whole = std::min(a.whole, b.whole);
        break;
    case ReduceOp::LogicalAnd:
        r.whole = a.whole != 0 && b.whole != 0;
        break;
    case ReduceOp::LogicalOr:
        r.whole = a.whole != 0 || b.whole != 0;
        break;
    }
    (void)real;
    return fit(acc, r);
}

struct ReduceVertex {
    std::vector<FieldBinding> in;
    FieldBinding out;
    const float* scaleTensor = nullptr;
    double scale = 1;
    double inner = 1;
    double offset = 0;
};

// The last step of a final vertex: scale, convert, write or add.
void finish(const ReduceCodelet& c, Type acc, const ReduceVertex& v, std::size_t i, Value r) {
    auto* out = static_cast<std::byte*>(v.out.data);
    const double scale = v.scaleTensor != nullptr ? double(*v.scaleTensor) : v.scale;
    if (scale != 1.0) {
        if (isFloatingPoint(acc)) {
            r.real *= scale;
        } else {
            r.real = static_cast<double>(r.whole) * scale;
            r = convert(Type::Float, c.out, Value{r.real, 0});
            acc = c.out;
        }
    }
    Value result = convert(acc, c.out, r);
    if (c.update) {
        result = fit(c.out, combine(ReduceOp::Add, c.out, load(c.out, out, i), result));
    }
    store(c.out, out, i, result);
}

std::string typesOf(const ReduceCodelet& c) {
    return std::string(name(c.op)) + (c.squareInputs ? ",squared" : "") + "," +
           std::string(typeName(c.in)) + "," + std::string(typeName(c.out)) +
           (c.final ? ",final" : "") + (c.update ? ",update" : "") +
           (c.scaleTensor ? ",scaleTensor" : "");
}

CodeletInfo base(const std::string& name, const ReduceCodelet& c, FieldShape inShape) {
    CodeletInfo info;
    info.name = name;
    FieldInfo in;
    in.name = "in";
    in.direction = FieldDirection::Input;
    in.type = c.in;
    in.shape = inShape;
    in.bind = [](void* v, std::span<const FieldBinding> b) {
        static_cast<ReduceVertex*>(v)->in.assign(b.begin(), b.end());
    };
    info.fields.push_back(std::move(in));
    FieldInfo out;
    out.name = "out";
    out.direction = c.update ? FieldDirection::InOut : FieldDirection::Output;
    out.type = c.out;
    out.shape = FieldShape::Vector;
    out.bind = [](void* v, std::span<const FieldBinding> b) {
        static_cast<ReduceVertex*>(v)->out = b[0];
    };
    info.fields.push_back(std::move(out));
    if (c.scaleTensor) {
        FieldInfo scale;
        scale.name = "scale";
        scale.direction = FieldDirection::Input;
        scale.type = Type::Float;
        scale.shape = FieldShape::Scalar;
        scale.bind = [](void* v, std::span<const FieldBinding> b) {
            static_cast<ReduceVertex*>(v)->scaleTensor = static_cast<const float*>(b[0].data);
        };
        info.fields.push_back(std::move(scale));
    }
    for (const char* state : {"inner", "offset", "constantScale"}) {
        StateInfo s;
        const std::string which = state;
        s.name = state;
        // Row length and offset are counts: setInitialValue keeps them in range.
        s.type = which == "constantScale" ? Type::Float : Type::UnsignedInt;
        s.set = [which](void* v, double value) {
            auto* vertex = static_cast<ReduceVertex*>(v);
            (which == "inner"    ? vertex->inner
             : which == "offset" ? vertex->offset
                                 : vertex->scale) = value;
        };
        info.states.push_back(std::move(s));
    }
    info.codeBytes = 320;
    info.stackBytes = 64;
    info.create = [] { return static_cast<void*>(new ReduceVertex); };
    info.destroy = [](void* p) { delete static_cast<ReduceVertex*>(p); };
    return info;
}

// Elements a worker reduces per cycle: 64-bit vectors of floats (2) or halves (4).
std::size_t vectorWidth(Type t) {
    return t == Type::Half ? 4 : t == Type::Float ? 2 : 1;
}

} // namespace

Type accumulatorType(ReduceOp op, Type in) {
    const bool widens = op == ReduceOp::Add || op == ReduceOp::SquareAdd || op == ReduceOp::Mul;
    return in == Type::Half && widens ? Type::Float : in;
}

std::string runsCodelet(Graph& graph, const ReduceCodelet& c) {
    const std::string name = "popops::ReduceRuns<" + typesOf(c) + ">";
    CodeletInfo info = base(name, c, FieldShape::Vector);
    const Type acc = c.final ? accumulatorType(c.op, c.in) : c.out;
    info.compute = [c, acc](void* p) {
        const auto* v = static_cast<ReduceVertex*>(p);
        const FieldBinding& in = v->in.front();
        const auto* data = static_cast<const std::byte*>(in.data);
        const auto inner = static_cast<std::size_t>(v->inner);
        const auto offset = static_cast<std::size_t>(v->offset);
        std::size_t row = 0, column = offset;
        Value sum = identity(c.op, acc);
        for (std::size_t j = 0; j < in.count; ++j) {
            Value x = convert(c.in, acc, load(c.in, data, j));
            if (c.squareInputs) {
                x = fit(acc, Value{x.real * x.real, x.whole * x.whole});
            }
            sum = combine(c.op, acc, sum, x);
            if (++column == inner || j + 1 == in.count) {
                c.final ? finish(c, acc, *v, row, sum)
                        : store(c.out, static_cast<std::byte*>(v->out.data), row, sum);
                sum = identity(c.op, acc);
                column = 0;
                ++row;
            }
        }
        return true;
    };
    info.validators.push_back([](const VertexIntrospector& v) -> std::string {
        const auto inner = static_cast<std::size_t>(v.state("inner"));
        const auto offset = static_cast<std::size_t>(v.state("offset"));
        const std::size_t n = v.fieldSize("in");
        const std::size_t rows = inner == 0 || n == 0 ? 0 : (offset + n - 1) / inner + 1;
        if (inner == 0 || offset >= inner || rows != v.fieldSize("out")) {
            return "field 'out' has " + std::to_string(v.fieldSize("out")) +
                   " elements but the input run touches " + std::to_string(rows) + " rows";
        }
        return {};
    });
    const std::size_t width = vectorWidth(c.in);
    const bool real = isFloatingPoint(c.in);
    info.formula = "12 + ceil(n / w) + 3 * rows, w = 4 (half), 2 (float), 1";
    info.estimator = [width, real, squared = c.squareInputs](const VertexIntrospector& v,
                                                             const Target&) {
        const std::size_t n = v.fieldSize("in");
        const std::uint64_t cycles = 12 + (n + width - 1) / width + 3 * v.fieldSize("out");
        return PerfEstimate{cycles, real ? n * (squared ? 2 : 1) : 0};
    };
    info.recipe = reduceRecipe(c, false);
    graph.addCodelet(std::move(info));
    return name;
}

std::string partialsCodelet(Graph& graph, const ReduceCodelet& c) {
    const std::string name = "popops::ReducePartials<" + typesOf(c) + ">";
    CodeletInfo info = base(name, c, FieldShape::VectorList);
    info.compute = [c](void* p) {
        const auto* v = static_cast<ReduceVertex*>(p);
        for (std::size_t i = 0; i < v->in.size(); ++i) {
            const auto* data = static_cast<const std::byte*>(v->in[i].data);
            Value sum = identity(c.op, c.in);
            for (std::size_t j = 0; j < v->in[i].count; ++j) {
                sum = combine(c.op, c.in, sum, load(c.in, data, j));
            }
            finish(c, c.in, *v, i, sum);
        }
        return true;
    };
    info.validators.push_back([](const VertexIntrospector& v) -> std::string {
        if (v.listSizes("in").size() != v.fieldSize("out")) {
            return "field 'in' has " + std::to_string(v.listSizes("in").size()) +
                   " entries but 'out' has " + std::to_string(v.fieldSize("out")) + " elements";
        }
        return {};
    });
    const bool real = isFloatingPoint(c.in);
    info.formula = "12 + sum over outputs of (partials + 3)";
    info.estimator = [real](const VertexIntrospector& v, const Target&) {
        std::uint64_t cycles = 12, n = 0;
        for (const std::size_t size : v.listSizes("in")) {
            cycles += size + 3;
            n += size;
        }
        return PerfEstimate{cycles, real ? n : 0};
    };
    info.recipe = reduceRecipe(c, true);
    graph.addCodelet(std::move(info));
    return name;
}

} // namespace tessera::ops::detail
