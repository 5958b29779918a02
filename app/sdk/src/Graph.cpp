// poplar::Graph on the engine's Graph.
#include "Codelets.h"
#include "Impl.h"
#include "engine/core/Error.h"

#include <span>
#include <sstream>

namespace poplar {

using detail::Access;
using detail::sizes;
using detail::translate;

namespace detail {
GraphImpl& Access::graph(const poplar::Graph& g) {
    if (!g.impl_) {
        throw poplar_error("use of a moved-from Graph");
    }
    return *g.impl_;
}
} // namespace detail

namespace {

tessera::Graph& eg(const Graph& g) {
    return Access::graph(g).graph;
}

tessera::FieldRef engineField(const Graph& g, const FieldRef& f) {
    if (f.graph() != &g) {
        throw poplar_error("field '" + f.name() + "' belongs to a vertex of another graph");
    }
    tessera::FieldRef out{&eg(g), tessera::VertexId{f.vertexId()}, f.name(), std::nullopt};
    if (f.isIndexed()) {
        out.index = f.index();
    }
    return out;
}

// connect() of one tensor to an unindexed field of a vertex of this graph:
// the field is looked up by name once, and no field reference is made (a
// graph connects a few fields a vertex, by the million).
void connectUnindexed(tessera::Graph& g, tessera::VertexId id, std::string_view field,
                      const Tensor& t) {
    const tessera::CodeletInfo& codelet = *g.vertices().at(id.value()).codelet;
    const std::size_t index = codelet.findField(field);
    const tessera::FieldShape shape =
        index < codelet.fields.size() ? codelet.fields[index].shape : tessera::FieldShape::Scalar;
    const tessera::Tensor& et = Access::tensor(t);
    if (shape == tessera::FieldShape::VectorList) {
        // A whole tensor onto a vector list: one entry per row (each index of
        // the first dimension, flattened).
        const tessera::FieldRef f{&g, id, std::string(field), std::nullopt};
        if (et.rank() >= 1 && et.dim(0) > 0) {
            g.connectRows(
                f, et.rank() == 2 ? et : et.reshape({et.dim(0), et.numElements() / et.dim(0)}));
            return;
        }
        std::vector<tessera::Tensor> rows;
        // An empty first dimension: no entries. A scalar: dim() throws, naming it.
        for (std::size_t i = 0; i < et.dim(0); ++i) {
            rows.push_back(et[i].flatten());
        }
        g.connect(f, rows);
        return;
    }
    // Vector fields take any shape; Poplar flattens the connected tensor.
    const tessera::VertexRef v{&g, id};
    g.connect(v, field, shape == tessera::FieldShape::Vector && et.rank() != 1 ? et.flatten() : et);
}

tessera::VertexRef engineVertex(const Graph& g, const VertexRef& v) {
    if (v.graph() != &g) {
        throw poplar_error("vertex " + std::to_string(v.getId()) + " belongs to another graph");
    }
    return tessera::VertexRef{&eg(g), tessera::VertexId{v.getId()}};
}

// What a Poplar-style estimator sees of a vertex.
class IntrospectorAdapter : public VertexIntrospector {
public:
    explicit IntrospectorAdapter(const tessera::VertexIntrospector& v)
        : v_(v) {}
    FieldData getFieldInfo(const std::string& name) const override {
        return FieldData(v_.fieldSize(name));
    }
    std::string getVertexName() const override { return v_.codeletName(); }

private:
    const tessera::VertexIntrospector& v_;
};

} // namespace

Graph::Graph(const Target& target)
    : impl_(std::make_shared<detail::GraphImpl>(Access::target(target))) {
    impl_->target = target;
}
Graph::Graph(const Device& device)
    : Graph(device.getTarget()) {}
Graph::~Graph() = default;
Graph::Graph(Graph&& other) = default;
Graph& Graph::operator=(Graph&& other) = default;

const Target& Graph::getTarget() const {
    return Access::graph(*this).target;
}

bool Graph::addCodelets(StringRef src, CodeletFileType, StringRef compileFlags) {
    std::string sharedObject;
    auto codelets = detail::loadCodeletFile(src, compileFlags, &sharedObject);
    Access::graph(*this).codeletObjects.push_back(sharedObject);
    for (tessera::CodeletInfo& info : codelets) {
        translate([&] {
            eg(*this).addCodelet(std::move(info));
            return 0;
        });
    }
    return true;
}

void Graph::addCodelets(ArrayRef<std::string> srcs, StringRef compileFlags) {
    for (const std::string& src : srcs) {
        addCodelets(src, CodeletFileType::Auto, compileFlags);
    }
}

void Graph::addCodelets(std::initializer_list<std::string> srcs, StringRef compileFlags) {
    addCodelets(ArrayRef<std::string>(srcs), compileFlags);
}

void Graph::addCodelets(std::istream& stream, StringRef compileFlags, CodeletFileType type) {
    if (type != CodeletFileType::CppSource && type != CodeletFileType::Auto) {
        throw unsupported_feature_error(
            "Graph::addCodelets(stream) of a file type other than CppSource");
    }
    // Poplar compiles a codelet given as a stream; save it to a file and compile.
    std::ostringstream text;
    text << stream.rdbuf();
    const std::string path = detail::saveCodeletSource(text.str());
    addCodelets(path, CodeletFileType::CppSource, compileFlags);
}

Tensor Graph::addVariable(const Type& type, ArrayRef<std::size_t> shape, const DebugContext& dc) {
    return translate([&] {
        return Access::makeTensor(
            eg(*this).addVariable(detail::engineType(type), sizes(shape), dc.getPathName()));
    });
}

Tensor Graph::addVariable(const Type& type, ArrayRef<std::size_t> shape,
                          VariableMappingMethod mappingMethod, const DebugContext& dc) {
    Tensor t = addVariable(type, shape, dc);
    if (mappingMethod == VariableMappingMethod::LINEAR) {
        // Spread evenly over the tiles, as poputil::mapTensorLinearly would.
        const std::size_t n = t.numElements();
        const std::size_t tiles = getTarget().getNumTiles();
        const std::size_t per = n == 0 ? 0 : (n + tiles - 1) / tiles;
        Tensor flat = t.flatten();
        for (std::size_t b = 0, tile = 0; b < n; b += per, ++tile) {
            setTileMapping(flat.slice(b, std::min(n, b + per)), unsigned(tile));
        }
    }
    return t;
}

Tensor Graph::clone(const Tensor& t, const DebugContext& dc, TensorCloneMethod method) {
    return clone(t.elementType(), t, dc, method);
}

Tensor Graph::cloneN(const Tensor& t, std::size_t n, const DebugContext& dc,
                     TensorCloneMethod method, TensorCloneDuplicationMethod duplication) {
    return cloneN(t.elementType(), t, n, dc, method, duplication);
}

Tensor Graph::cloneN(const Type& type, const Tensor& t, std::size_t n, const DebugContext& dc,
                     TensorCloneMethod method, TensorCloneDuplicationMethod) {
    std::vector<Tensor> copies;
    for (std::size_t i = 0; i < n; ++i) {
        copies.push_back(clone(type, t, dc, method).expand({0}));
    }
    if (copies.empty()) {
        std::vector<std::size_t> shape(1, 0);
        for (std::size_t d : t.shape()) {
            shape.push_back(d);
        }
        return addVariable(type, shape, dc);
    }
    return concat(copies, 0);
}

Tensor Graph::clone(const Type& type, const Tensor& t, const DebugContext& dc, TensorCloneMethod) {
    Tensor out = addVariable(type, t.shape(), dc);
    translate([&] {
        const auto mapping = eg(*this).getTileMapping(Access::tensor(t));
        const tessera::Tensor flat = Access::tensor(out).flatten();
        for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
            for (const auto& [b, e] : mapping[tile]) {
                eg(*this).setTileMapping(flat.slice(b, e),
                                         tessera::record::idAt<tessera::TileId>(tile));
            }
        }
        return 0;
    });
    return out;
}

Tensor Graph::addConstantValues(const Type& type, ArrayRef<std::size_t> shape,
                                const std::vector<double>& values, bool fill,
                                const DebugContext& dc) {
    return translate([&] {
        if (fill) {
            return Access::makeTensor(eg(*this).addConstant(detail::engineType(type), sizes(shape),
                                                            values.at(0), dc.getPathName()));
        }
        return Access::makeTensor(eg(*this).addConstant(detail::engineType(type), sizes(shape),
                                                        std::span<const double>(values),
                                                        dc.getPathName()));
    });
}

void Graph::setInitialValues(const Tensor& t, const std::vector<double>& values, bool fill) {
    translate([&] {
        if (fill) {
            eg(*this).setInitialValue(Access::tensor(t), values.at(0));
        } else {
            eg(*this).setInitialValue(Access::tensor(t), std::span<const double>(values));
        }
        return 0;
    });
}

void Graph::setStateValue(const FieldRef& f, double value) {
    translate([&] {
        eg(*this).setInitialValue(engineField(*this, f), value);
        return 0;
    });
}

void Graph::setTileMapping(const Tensor& t, unsigned tile) {
    translate([&] {
        eg(*this).setTileMapping(Access::tensor(t), tessera::TileId{tile});
        return 0;
    });
}

void Graph::setTileMapping(VertexRef v, unsigned tile) {
    translate([&] {
        eg(*this).setTileMapping(engineVertex(*this, v), tessera::TileId{tile});
        return 0;
    });
}

void Graph::setTileMapping(const Tensor& t, const TileToTensorMapping& mapping) {
    const Tensor flat = t.flatten();
    for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
        for (const Interval& i : mapping[tile]) {
            if (i.size() != 0) {
                setTileMapping(flat.slice(i.begin(), i.end()), unsigned(tile));
            }
        }
    }
}

TileToTensorMapping Graph::getTileMapping(const Tensor& t) const {
    return translate([&] {
        TileToTensorMapping out;
        for (const auto& tile : eg(*this).getTileMapping(Access::tensor(t))) {
            std::vector<Interval> intervals;
            for (const auto& [b, e] : tile) {
                intervals.emplace_back(b, e);
            }
            out.push_back(std::move(intervals));
        }
        out.resize(getTarget().getNumTiles());
        return out;
    });
}

ComputeSet Graph::addComputeSet(const DebugContext& dc) {
    return translate(
        [&] { return ComputeSet(eg(*this).addComputeSet(dc.getPathName()).id.value()); });
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType) {
    return addVertexConnected(cs, vertexType, nullptr, 0);
}

// The braced list is connected where it stands: no copy of its fields and
// tensors into a vector first.
VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           std::initializer_list<ConnectionDesc> connections) {
    return addVertexConnected(cs, vertexType, connections.begin(), connections.size());
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           const std::vector<ConnectionDesc>& connections) {
    return addVertexConnected(cs, vertexType, connections.data(), connections.size());
}

VertexRef Graph::addVertexConnected(ComputeSet cs, StringRef vertexType,
                                    const ConnectionDesc* connections, std::size_t count) {
    return translate([&] {
        std::string scratch;
        const tessera::VertexRef v =
            eg(*this).addVertex(tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}},
                                detail::normalisedVertexName(vertexType, scratch));
        VertexRef out(this, v.id.value());
        for (const ConnectionDesc& c : std::span(connections, count)) {
            if (c.isValue) { // {"field", 3.0f}: the initial value of a state field
                setStateValue(out[c.field], c.value);
            } else if (c.isList) {
                connect(out[c.field], c.tensors);
            } else {
                connectUnindexed(eg(*this), v.id, c.field, c.tensor);
            }
        }
        return out;
    });
}

void Graph::connect(const FieldRef& field, const Tensor& t) {
    translate([&] {
        if (!field.isIndexed() && field.graph() == this) {
            connectUnindexed(eg(*this), tessera::VertexId{field.vertexId()}, field.name(), t);
            return 0;
        }
        // An entry of a vector list (or a field of another graph: named below).
        const tessera::FieldRef f = engineField(*this, field);
        const tessera::Tensor& et = Access::tensor(t);
        const tessera::VertexData& v = eg(*this).vertices().at(f.vertex.value());
        const tessera::FieldInfo* info = v.codelet->field(f.field);
        eg(*this).connect(f, info && info->shape == tessera::FieldShape::Vector && et.rank() != 1
                                 ? et.flatten()
                                 : et);
        return 0;
    });
}

void Graph::connect(const FieldRef& field, const std::vector<Tensor>& tensors) {
    translate([&] {
        std::vector<tessera::Tensor> list;
        for (const Tensor& t : tensors) {
            const tessera::Tensor& et = Access::tensor(t);
            list.push_back(et.rank() == 1 ? et : et.flatten());
        }
        eg(*this).connect(engineField(*this, field), list);
        return 0;
    });
}

void Graph::setFieldSize(const FieldRef& field, std::size_t size) {
    translate([&] {
        eg(*this).setFieldSize(engineField(*this, field), size);
        return 0;
    });
}

void Graph::setPerfEstimate(const VertexRef& v, std::uint64_t cycles, std::uint64_t) {
    translate([&] {
        eg(*this).setPerfEstimate(engineVertex(*this, v), cycles);
        return 0;
    });
}

void Graph::setCycleEstimate(const VertexRef& v, std::uint64_t cycles) {
    setPerfEstimate(v, cycles);
}

void Graph::registerPerfEstimator(StringRef vertexTypeName, PerfEstimateFunc f) {
    translate([&] {
        eg(*this).registerPerfEstimator(
            detail::normaliseVertexName(vertexTypeName),
            [f](const tessera::VertexIntrospector& v, const tessera::Target& t) {
                const IntrospectorAdapter adapter(v);
                const VertexPerfEstimate e = f(adapter, Access::makeTarget(t));
                return tessera::PerfEstimate{e.cycles, e.flops};
            });
        return 0;
    });
}

void Graph::createHostWrite(StringRef handle, const Tensor& t, bool) {
    translate([&] {
        eg(*this).createHostWrite(handle, Access::tensor(t));
        return 0;
    });
}

void Graph::createHostRead(StringRef handle, const Tensor& t, bool) {
    translate([&] {
        eg(*this).createHostRead(handle, Access::tensor(t));
        return 0;
    });
}

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, const OptionFlags&) {
    return translate([&] {
        eg(*this).addHostToDeviceFIFO(handle, detail::engineType(elementType), numElements);
        return DataStream(handle, elementType, numElements, true);
    });
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type& elementType,
                                      std::size_t numElements, const OptionFlags&) {
    return translate([&] {
        eg(*this).addDeviceToHostFIFO(handle, detail::engineType(elementType), numElements);
        return DataStream(handle, elementType, numElements, false);
    });
}

namespace detail {
GraphImpl& Access::remoteBufferGraph(const poplar::RemoteBuffer& b) {
    if (!b.graph_) {
        throw poplar_error("use of an empty (default-constructed) RemoteBuffer");
    }
    return *b.graph_;
}
const tessera::program::Program& Access::functionBody(const poplar::Function& f) {
    if (!f.body_) {
        throw poplar_error("program::Call: an empty (default-constructed) Function");
    }
    return f.body_->program;
}
} // namespace detail

RemoteBuffer Graph::addRemoteBuffer(StringRef handle, const Type& elementType,
                                    std::size_t numElements, std::size_t repeats, bool, bool) {
    detail::GraphImpl& g = Access::graph(*this);
    if (handle.empty() || g.remoteBuffers.count(handle) != 0) {
        throw poplar_error("addRemoteBuffer: the handle '" + handle +
                           (handle.empty() ? "' is empty" : "' is already used"));
    }
    if (numElements == 0 || repeats == 0) {
        throw poplar_error("addRemoteBuffer '" + handle +
                           "': numElements and repeats must be positive");
    }
    detail::RemoteBufferInfo info;
    info.type = detail::engineType(elementType);
    info.numElements = numElements;
    info.repeats = repeats;
    g.remoteBuffers[handle] = info;
    return Access::makeRemoteBuffer(impl_, handle, elementType, numElements, repeats);
}

Function Graph::addFunction(const program::Program& program) {
    return Access::makeFunction(Access::graph(*this).functions++, program);
}

} // namespace poplar
