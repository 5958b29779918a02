#include "CastCodelets.h"

#include "GfloatMath.h"
#include "engine/codelets/Codelet.h"
#include "engine/codelets/Vertex.h"
#include "engine/core/Half.h"
#include "engine/core/Type.h"
#include "engine/ops/Mapping.h"

namespace popfloat::experimental::detail {

namespace {

// Cycles: the format is decoded once, then each element is scaled, rounded,
// checked against the range and written (about 12 cycles an element).
tessera::PerfEstimator estimator(const char* sizeField) {
    const std::string field = sizeField;
    return [field](const tessera::VertexIntrospector& v, const tessera::Target&) {
        const std::size_t n = v.fieldSize(field);
        return tessera::PerfEstimate{30 + 12 * n, 0};
    };
}

template <typename In, typename Out>
class CastToGfloat : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<In>> in;
    tessera::Output<tessera::Vector<Out>> out;
    tessera::Input<tessera::Vector<int>> param;
    unsigned roundMode = 0;
    unsigned nanoo = 0;
    bool compute() {
        const GfloatFormat f = unpackFormat(static_cast<unsigned>(param[0]));
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = Out(
                float(quantise(float(in[i]), f, static_cast<RoundType>(roundMode), nanoo != 0)));
        }
        return true;
    }
};

template <typename T>
class CastToGfloatInPlace : public tessera::Vertex {
public:
    tessera::InOut<tessera::Vector<T>> out;
    tessera::Input<tessera::Vector<int>> param;
    unsigned roundMode = 0;
    unsigned nanoo = 0;
    bool compute() {
        const GfloatFormat f = unpackFormat(static_cast<unsigned>(param[0]));
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] =
                T(float(quantise(float(out[i]), f, static_cast<RoundType>(roundMode), nanoo != 0)));
        }
        return true;
    }
};

template <typename In, typename Out>
class CastGfloatToNative : public tessera::Vertex {
public:
    tessera::Input<tessera::Vector<In>> in;
    tessera::Output<tessera::Vector<Out>> out;
    tessera::Input<tessera::Vector<int>> param;
    bool compute() {
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = Out(float(in[i]));
        }
        return true;
    }
};

std::string typeArg(tessera::Type t) {
    return std::string(tessera::typeName(t));
}

template <typename In, typename Out>
void addPair(tessera::Graph& g, tessera::Type in, tessera::Type out) {
    const std::string args = "<" + typeArg(in) + "," + typeArg(out) + ">";
    using To = CastToGfloat<In, Out>;
    g.addCodelet(tessera::CodeletBuilder<To>("popfloat::experimental::CastToGfloat" + args)
                     .field("in", &To::in)
                     .field("out", &To::out)
                     .field("param", &To::param)
                     .state("roundMode", &To::roundMode)
                     .state("nanoo", &To::nanoo)
                     .sameSize({"in", "out"})
                     .codeBytes(384)
                     .estimator("30 + 12 * n", estimator("out"))
                     .build());
    using Back = CastGfloatToNative<In, Out>;
    g.addCodelet(tessera::CodeletBuilder<Back>("popfloat::experimental::CastGfloatToNative" + args)
                     .field("in", &Back::in)
                     .field("out", &Back::out)
                     .field("param", &Back::param)
                     .sameSize({"in", "out"})
                     .codeBytes(128)
                     .estimator("30 + 12 * n", estimator("out"))
                     .build());
}

template <typename T>
void addInPlace(tessera::Graph& g, tessera::Type type) {
    using V = CastToGfloatInPlace<T>;
    g.addCodelet(tessera::CodeletBuilder<V>("popfloat::experimental::CastToGfloatInPlace<" +
                                            typeArg(type) + ">")
                     .field("out", &V::out)
                     .field("param", &V::param)
                     .state("roundMode", &V::roundMode)
                     .state("nanoo", &V::nanoo)
                     .codeBytes(384)
                     .estimator("30 + 12 * n", estimator("out"))
                     .build());
}

} // namespace

void addCastCodelets(tessera::Graph& g) {
    using tessera::half;
    using tessera::Type;
    addPair<float, float>(g, Type::Float, Type::Float);
    addPair<float, half>(g, Type::Float, Type::Half);
    addPair<half, float>(g, Type::Half, Type::Float);
    addPair<half, half>(g, Type::Half, Type::Half);
    addInPlace<float>(g, Type::Float);
    addInPlace<half>(g, Type::Half);
}

void addCastVertices(tessera::Graph& g, tessera::ComputeSet cs, const std::string& family,
                     const tessera::Tensor& in, const tessera::Tensor& out,
                     const tessera::Tensor& param, RoundType mode, bool nanoo) {
    addCastCodelets(g);
    const bool inPlace = family == "CastToGfloatInPlace";
    const std::string codelet =
        "popfloat::experimental::" + family +
        (inPlace ? "<" + typeArg(out.elementType()) + ">"
                 : "<" + typeArg(in.elementType()) + "," + typeArg(out.elementType()) + ">");
    const tessera::Tensor flatOut = out.flatten();
    const tessera::Tensor flatIn = inPlace ? flatOut : in.flatten();
    const tessera::Tensor flatParam = param.flatten();
    const std::size_t workers = g.getTarget().numWorkerContexts;
    for (const tessera::ops::TileRange& r : tessera::ops::tileRanges(g, out)) {
        for (const auto& [b, e] : tessera::ops::splitRange(r.begin, r.end, workers, 8)) {
            std::vector<std::pair<std::string, tessera::Tensor>> fields{
                {"out", flatOut.slice(b, e)}, {"param", flatParam}};
            if (!inPlace) {
                fields.emplace_back("in", flatIn.slice(b, e));
            }
            const tessera::VertexRef v = g.addVertex(cs, codelet, fields);
            g.setTileMapping(v, r.tile);
            if (family != "CastGfloatToNative") {
                g.setInitialValue(v["roundMode"], static_cast<double>(mode));
                g.setInitialValue(v["nanoo"], nanoo ? 1.0 : 0.0);
            }
        }
    }
}

} // namespace popfloat::experimental::detail
