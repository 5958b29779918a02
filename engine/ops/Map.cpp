#include "engine/ops/Map.h"

#include "engine/core/Error.h"
#include "engine/ops/CodeletRecipe.h"
#include "engine/ops/Elementwise.h"
#include "engine/ops/MapEval.h"
#include "engine/ops/Mapping.h"

#include <algorithm>
#include <memory>
#include <set>

namespace tessera::ops {

namespace {

constexpr std::size_t kMapGrain = 8; // elements per vertex at least

// The instance state of a generated map vertex: where its edges point.
struct MapVertex {
    std::vector<const std::byte*> inputs; // per placeholder
    std::byte* out = nullptr;
    std::size_t count = 0;
};

std::string fieldOf(std::size_t placeholder) {
    return "in" + std::to_string(placeholder + 1);
}

// One codelet per distinct (expression, input types, in place): PopLibs
// generates a codelet per fused expression the same way.
std::string codeletNameFor(const expr::TypedExpression& typed, const std::vector<Type>& inputTypes,
                           bool inPlace) {
    std::string types;
    for (std::size_t i = 0; i < inputTypes.size(); ++i) {
        types += (i ? "," : "") + std::string(typeName(inputTypes[i]));
    }
    return std::string(inPlace ? "popops::MapInPlace" : "popops::Map") + "[" + types + "](" +
           typed.expression.toString() + ")";
}

CodeletInfo makeCodelet(const std::string& name, std::shared_ptr<const expr::TypedExpression> e,
                        const std::vector<Type>& inputTypes, const std::set<std::size_t>& used,
                        bool inPlace) {
    CodeletInfo info;
    info.name = name;
    const std::size_t arity = inputTypes.size();
    std::vector<std::string> sized = {"out"};
    for (const std::size_t k : used) {
        if (inPlace && k == 0) {
            continue; // _1 is the output itself
        }
        FieldInfo f;
        f.name = fieldOf(k);
        f.direction = FieldDirection::Input;
        f.type = inputTypes[k];
        f.shape = FieldShape::Vector;
        f.bind = [k](void* v, std::span<const FieldBinding> b) {
            static_cast<MapVertex*>(v)->inputs[k] = static_cast<const std::byte*>(b[0].data);
        };
        info.fields.push_back(std::move(f));
        sized.push_back(fieldOf(k));
    }
    FieldInfo out;
    out.name = "out";
    out.direction = inPlace ? FieldDirection::InOut : FieldDirection::Output;
    out.type = e->resultType();
    out.shape = FieldShape::Vector;
    out.bind = [inPlace](void* v, std::span<const FieldBinding> b) {
        auto* vertex = static_cast<MapVertex*>(v);
        vertex->out = static_cast<std::byte*>(b[0].data);
        vertex->count = b[0].count;
        if (inPlace) {
            vertex->inputs[0] = vertex->out;
        }
    };
    info.fields.push_back(std::move(out));
    info.codeBytes = static_cast<std::uint32_t>(64 + 16 * e->expression.nodes().size());
    info.stackBytes = 64;
    info.formula =
        "one operator: 13 + ceil(n / w) * its cost; fused: 13 + inputs * (floor(n / w) + "
        "n mod w) * operators; w = 8 bytes / the first input's size";
    info.estimator = [e](const VertexIntrospector& v, const Target&) {
        const std::size_t n = v.fieldSize("out");
        return PerfEstimate{expr::mapCycles(*e, n), expr::mapFlops(*e, n)};
    };
    info.validators.push_back([sized](const VertexIntrospector& v) -> std::string {
        for (const std::string& f : sized) {
            if (v.fieldSize(f) != v.fieldSize("out")) {
                return "field '" + f + "' has " + std::to_string(v.fieldSize(f)) +
                       " elements but 'out' has " + std::to_string(v.fieldSize("out"));
            }
        }
        return {};
    });
    info.create = [arity] {
        auto* v = new MapVertex;
        v->inputs.assign(arity, nullptr);
        return static_cast<void*>(v);
    };
    info.destroy = [](void* p) { delete static_cast<MapVertex*>(p); };
    info.compute = [e](void* p) {
        const auto* v = static_cast<MapVertex*>(p);
        expr::evaluate(*e, v->inputs, v->out, v->count);
        return true;
    };
    return info;
}

std::set<std::size_t> placeholdersUsed(const expr::Expression& e) {
    std::set<std::size_t> used;
    for (const expr::Node& n : e.nodes()) {
        if (n.kind == expr::Node::Kind::Placeholder) {
            used.insert(n.placeholder);
        }
    }
    return used;
}

void requireFullyMapped(const Graph& graph, const Tensor& t, const std::string& what) {
    if (!fullyMapped(graph, t)) {
        throw Error(what + ": " + t.describe() +
                    " has elements not mapped to a tile (map needs its output mapped)");
    }
}

// Adds the compute set writing `out` (already of the broadcast shape).
void run(Graph& graph, program::Sequence& seq, const expr::Expression& e,
         const std::vector<Tensor>& inputs, const Tensor& out, bool inPlace,
         const std::string& name, const char* function) {
    std::vector<Type> types;
    for (const Tensor& t : inputs) {
        types.push_back(t.elementType());
    }
    const Type result = expr::inferTypes(e, types).resultType();
    if (result != out.elementType()) {
        throw Error(name + ": the expression gives " + std::string(typeName(result)) + " but " +
                    out.describe() + " is " + std::string(typeName(out.elementType())));
    }
    const std::set<std::size_t> used = placeholdersUsed(e);
    const std::string codelet = addMapCodelet(graph, e, types, inPlace);
    requireFullyMapped(graph, out, name);
    std::vector<Tensor> flat;
    for (const Tensor& t : inputs) {
        flat.push_back(broadcastTo(t, out.shape(), name).flatten());
    }
    const Tensor fout = out.flatten();
    const ComputeSet cs = graph.addComputeSet(name);
    const std::size_t workers = graph.getTarget().numWorkerContexts;
    for (const TileRange& r : tileRanges(graph, out)) {
        for (const auto& [b, end] : splitRange(r.begin, r.end, workers, kMapGrain)) {
            std::vector<std::pair<std::string, Tensor>> fields = {{"out", fout.slice(b, end)}};
            for (const std::size_t k : used) {
                if (!(inPlace && k == 0)) {
                    fields.emplace_back(fieldOf(k), flat[k].slice(b, end));
                }
            }
            graph.setTileMapping(graph.addVertex(cs, codelet, fields), r.tile);
        }
    }
    seq.add(program::Block(program::Sequence{program::Execute(cs)}, name,
                           program::LibraryCall{function}));
}

std::vector<std::vector<std::size_t>> shapesOf(const std::vector<Tensor>& inputs) {
    std::vector<std::vector<std::size_t>> shapes;
    for (const Tensor& t : inputs) {
        shapes.push_back(t.shape());
    }
    return shapes;
}

} // namespace

std::vector<std::size_t> broadcastShape(const std::vector<std::vector<std::size_t>>& shapes,
                                        const std::string& what) {
    std::size_t rank = 0;
    for (const auto& s : shapes) {
        rank = std::max(rank, s.size());
    }
    std::vector<std::size_t> out(rank, 1);
    for (const auto& s : shapes) {
        for (std::size_t i = 0; i < s.size(); ++i) {
            std::size_t& d = out[rank - s.size() + i];
            if (s[i] == d || s[i] == 1) {
                continue;
            }
            if (d != 1) {
                std::string all;
                for (const auto& each : shapes) {
                    all += (all.empty() ? "" : " and ") + shapeString(each);
                }
                throw Error(what + ": shapes " + all + " do not broadcast to one shape");
            }
            d = s[i];
        }
    }
    return out;
}

Tensor broadcastTo(Tensor t, const std::vector<std::size_t>& shape, const std::string& what) {
    if (t.shape() == shape) {
        return t;
    }
    auto fail = [&] {
        throw Error(what + ": cannot broadcast " + t.describe() + " " + shapeString(t.shape()) +
                    " to " + shapeString(shape));
    };
    if (t.rank() > shape.size()) {
        fail();
    }
    if (t.rank() < shape.size()) {
        t = t.expand(std::vector<std::size_t>(shape.size() - t.rank(), 0));
    }
    for (std::size_t d = 0; d < shape.size(); ++d) {
        if (t.dim(d) == shape[d]) {
            continue;
        }
        if (t.dim(d) != 1) {
            fail();
        }
        t = t.broadcast(shape[d], d);
    }
    return t;
}

Tensor map(Graph& graph, program::Sequence& seq, const expr::Expression& e,
           const std::vector<Tensor>& inputs, const std::string& name) {
    if (inputs.empty()) {
        throw Error(name + ": map needs at least one tensor");
    }
    const std::vector<std::size_t> shape = broadcastShape(shapesOf(inputs), name);
    std::vector<Type> types;
    for (const Tensor& t : inputs) {
        types.push_back(t.elementType());
    }
    const Type result = expr::inferTypes(e, types).resultType();
    // Laid out like the first input that already has the output's shape, so
    // most of the work needs no exchange; else spread evenly.
    const auto like = std::find_if(inputs.begin(), inputs.end(),
                                   [&](const Tensor& t) { return t.shape() == shape; });
    Tensor out;
    if (like != inputs.end() && fullyMapped(graph, *like)) {
        out = cloneLike(graph, *like, result, name + "/out");
    } else {
        out = graph.addVariable(result, shape, name + "/out");
        mapLinearly(graph, out);
    }
    run(graph, seq, e, inputs, out, false, name, __func__);
    return out;
}

void mapInPlace(Graph& graph, program::Sequence& seq, const expr::Expression& e,
                const std::vector<Tensor>& inputs, const std::string& name) {
    if (inputs.empty()) {
        throw Error(name + ": mapInPlace needs at least one tensor");
    }
    const std::vector<std::size_t> shape = broadcastShape(shapesOf(inputs), name);
    if (shape != inputs[0].shape()) {
        throw Error(name + ": in place, " + inputs[0].describe() + " " +
                    shapeString(inputs[0].shape()) + " would have to grow to " +
                    shapeString(shape));
    }
    run(graph, seq, e, inputs, inputs[0], true, name, __func__);
}

void mapWithOutput(Graph& graph, program::Sequence& seq, const expr::Expression& e,
                   const std::vector<Tensor>& inputs, const Tensor& out, const std::string& name) {
    std::vector<std::vector<std::size_t>> shapes = shapesOf(inputs);
    const std::vector<std::size_t> shape = broadcastShape(shapes, name);
    if (out.shape() != shape) {
        throw Error(name + ": the output " + out.describe() + " " + shapeString(out.shape()) +
                    " is not of the result's shape " + shapeString(shape));
    }
    run(graph, seq, e, inputs, out, false, name, __func__);
}

std::string addMapCodelet(Graph& graph, const expr::Expression& e,
                          const std::vector<Type>& inputTypes, bool inPlace) {
    auto typed = std::make_shared<const expr::TypedExpression>(expr::inferTypes(e, inputTypes));
    const std::string name = codeletNameFor(*typed, inputTypes, inPlace);
    CodeletInfo info = makeCodelet(name, typed, inputTypes, placeholdersUsed(e), inPlace);
    info.recipe = mapRecipe(e, inputTypes, inPlace);
    // Adding a codelet of a name already known is a no-op: one per expression.
    graph.addCodelet(std::move(info));
    return name;
}

} // namespace tessera::ops
