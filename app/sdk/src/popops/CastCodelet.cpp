#include "CastCodelet.h"

#include "Common.h"
#include "engine/ops/MapEval.h"

#include <memory>

namespace popops::detail {

namespace {

struct CastVertex {
    const std::byte* in = nullptr;
    std::byte* out = nullptr;
    std::size_t count = 0;
};

} // namespace

std::string castCodelet(tessera::Graph& graph, tessera::Type from, tessera::Type to) {
    namespace eo = tessera::ops::expr;
    const std::string name = "popops::Cast<" + std::string(tessera::typeName(from)) + "," +
                             std::string(tessera::typeName(to)) + ">";
    auto typed =
        std::make_shared<const eo::TypedExpression>(eo::inferTypes(castExpression(to), {from}));
    tessera::CodeletInfo info;
    info.name = name;
    tessera::FieldInfo in;
    in.name = "in";
    in.direction = tessera::FieldDirection::Input;
    in.type = from;
    in.shape = tessera::FieldShape::Vector;
    in.bind = [](void* v, std::span<const tessera::FieldBinding> b) {
        static_cast<CastVertex*>(v)->in = static_cast<const std::byte*>(b[0].data);
    };
    tessera::FieldInfo out;
    out.name = "out";
    out.direction = tessera::FieldDirection::Output;
    out.type = to;
    out.shape = tessera::FieldShape::Vector;
    out.bind = [](void* v, std::span<const tessera::FieldBinding> b) {
        auto* vertex = static_cast<CastVertex*>(v);
        vertex->out = static_cast<std::byte*>(b[0].data);
        vertex->count = b[0].count;
    };
    info.fields = {in, out};
    info.codeBytes = 128;
    info.formula = "12 + n / 2 (as the map of Cast(_1, type))";
    info.estimator = [typed](const tessera::VertexIntrospector& v, const tessera::Target&) {
        const std::size_t n = v.fieldSize("out");
        return tessera::PerfEstimate{eo::mapCycles(*typed, n), 0};
    };
    info.validators.push_back([](const tessera::VertexIntrospector& v) -> std::string {
        if (v.fieldSize("in") != v.fieldSize("out")) {
            return "field 'in' has " + std::to_string(v.fieldSize("in")) +
                   " elements but 'out' has " + std::to_string(v.fieldSize("out"));
        }
        return {};
    });
    info.create = [] { return static_cast<void*>(new CastVertex); };
    info.destroy = [](void* p) { delete static_cast<CastVertex*>(p); };
    info.compute = [typed](void* p) {
        const auto* v = static_cast<CastVertex*>(p);
        const std::byte* inputs[] = {v->in};
        eo::evaluate(*typed, inputs, v->out, v->count);
        return true;
    };
    graph.addCodelet(std::move(info)); // a second add of the same name is ignored
    return name;
}

} // namespace popops::detail
