#include "engine/graph/Graph.h"

#include "engine/core/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera {

namespace {
// Integer state members hold what their type holds: estimators and
// validators read them back as integers.
bool stateValueFits(Type type, double value) {
    switch (type) {
    case Type::Int:
        return value > -2147483649.0 && value < 2147483648.0;
    case Type::UnsignedInt:
        return value > -1.0 && value < 4294967296.0;
    case Type::Bool:
        return std::isfinite(value);
    default:
        return true;
    }
}
} // namespace

Graph::Graph(const Target& target)
    : target_(target) {
    target_.validate();
}

const VariableData& Graph::variable(VariableId id) const {
    if (record::index(id) >= variables_.size()) {
        throw Error("unknown variable id " + std::to_string(id.value()));
    }
    return variables_[id.value()];
}

Tensor Graph::tensorOf(VariableId id) const {
    const VariableData& v = variable(id);
    std::vector<VariableRegion> regions;
    appendRegion(regions, {id, 0, v.numElements});
    return Tensor(this, v.type, v.shape, std::move(regions), "'" + v.name + "'");
}

Tensor Graph::findTensor(const std::string& name) const {
    for (std::size_t i = 0; i < variables_.size(); ++i) {
        if (variables_[i].name == name) {
            return tensorOf(record::idAt<VariableId>(i));
        }
    }
    throw Error("no tensor named '" + name + "' in the graph");
}

Tensor Graph::addVariable(Type type, const std::vector<std::size_t>& shape,
                          const std::string& name) {
    VariableData v;
    v.name = name.empty() ? "var" + std::to_string(variables_.size()) : name;
    checkShape(shape, type, "addVariable '" + v.name + "'");
    v.type = type;
    v.shape = shape;
    v.numElements = product(shape);
    const auto id = record::idAt<VariableId>(variables_.size());
    variables_.push_back(std::move(v));
    std::vector<VariableRegion> regions;
    appendRegion(regions, {id, 0, variables_.back().numElements});
    return Tensor(this, type, shape, std::move(regions), "'" + variables_.back().name + "'");
}

Tensor Graph::addConstant(Type type, const std::vector<std::size_t>& shape,
                          std::span<const double> values, const std::string& name) {
    Tensor t =
        addVariable(type, shape, name.empty() ? "const" + std::to_string(variables_.size()) : name);
    variables_.back().isConstant = true;
    setInitialValue(t, values);
    return t;
}

Tensor Graph::addConstant(Type type, const std::vector<std::size_t>& shape, double fill,
                          const std::string& name) {
    checkShape(shape, type, name.empty() ? "addConstant" : "addConstant '" + name + "'");
    std::vector<double> values(product(shape), fill);
    return addConstant(type, shape, values, name);
}

const VariableData& Graph::checkTensor(const Tensor& t, const char* operation) const {
    if (!t.valid()) {
        throw Error(std::string(operation) + ": the tensor is empty (default-constructed)");
    }
    if (&t.graph() != this) {
        throw Error(std::string(operation) + ": tensor " + t.describe() +
                    " belongs to another graph");
    }
    if (t.regions().empty()) {
        return variables_.front();
    }
    return variables_[t.regions().front().var.value()];
}

void Graph::setInitialValue(const Tensor& t, std::span<const double> values) {
    checkTensor(t, "setInitialValue");
    if (values.size() != t.numElements() && values.size() != 1) {
        throw Error("setInitialValue: tensor " + t.describe() + " has " +
                    std::to_string(t.numElements()) + " elements but " +
                    std::to_string(values.size()) + " values were given");
    }
    std::size_t i = 0;
    for (const VariableRegion& r : t.regions()) {
        VariableData& v = variables_[r.var.value()];
        const std::size_t size = sizeOf(v.type);
        if (v.initialValue.empty()) {
            v.initialValue.assign(v.numElements * size, std::byte{0});
        }
        for (std::size_t e = r.begin; e < r.end; ++e, ++i) {
            storeFromDouble(v.type, v.initialValue.data() + e * size,
                            values.size() == 1 ? values[0] : values[i]);
        }
    }
}

void Graph::setInitialValue(const Tensor& t, double fill) {
    std::vector<double> values(1, fill);
    setInitialValue(t, values);
}

void Graph::setTileMapping(const Tensor& t, TileId tile) {
    checkTensor(t, "setTileMapping");
    if (!target_.hasTile(tile)) {
        throw Error("setTileMapping: tile " + std::to_string(tile.value()) + " for tensor " +
                    t.describe() + " is outside target '" + target_.name + "' with " +
                    std::to_string(target_.numTiles()) + " tiles");
    }
    for (const VariableRegion& r : t.regions()) {
        variables_[r.var.value()].mapping.assign(r.begin, r.end, tile);
    }
}

void Graph::setTileMapping(VertexRef v, TileId tile) {
    if (v.graph != this || record::index(v.id) >= vertices_.size()) {
        throw Error("setTileMapping: unknown vertex");
    }
    if (!target_.hasTile(tile)) {
        throw Error("setTileMapping: tile " + std::to_string(tile.value()) + " for vertex " +
                    vertexName(v.id) + " is outside target '" + target_.name + "' with " +
                    std::to_string(target_.numTiles()) + " tiles");
    }
    vertices_[v.id.value()].tile = tile;
}

std::vector<std::vector<std::pair<std::size_t, std::size_t>>>
Graph::getTileMapping(const Tensor& t) const {
    checkTensor(t, "getTileMapping");
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> perTile(target_.numTiles());
    std::size_t flat = 0;
    VariableId intervalsOf = VariableId::none();
    std::vector<TileInterval> intervals;
    for (const VariableRegion& r : t.regions()) {
        if (r.var != intervalsOf) {
            intervals = variables_[r.var.value()].mapping.intervals();
            intervalsOf = r.var;
        }
        // The intervals overlapping r: from the first ending after r.begin.
        auto first =
            std::upper_bound(intervals.begin(), intervals.end(), r.begin,
                             [](std::size_t e, const TileInterval& iv) { return e < iv.end; });
        for (auto it = first; it != intervals.end() && it->begin < r.end; ++it) {
            const TileInterval& iv = *it;
            const std::size_t b = std::max(iv.begin, r.begin);
            const std::size_t e = std::min(iv.end, r.end);
            if (b < e) {
                auto& list = perTile[iv.tile.value()];
                const std::size_t fb = flat + (b - r.begin);
                const std::size_t fe = flat + (e - r.begin);
                if (!list.empty() && list.back().second == fb) {
                    list.back().second = fe;
                } else {
                    list.emplace_back(fb, fe);
                }
            }
        }
        flat += r.size();
    }
    return perTile;
}

ComputeSet Graph::addComputeSet(const std::string& name) {
    const auto id = record::idAt<ComputeSetId>(computeSets_.size());
    computeSets_.push_back({name.empty() ? "cs" + std::to_string(id.value()) : name, {}});
    return {id};
}

const CodeletInfo& Graph::codelet(const std::string& name) const {
    if (const CodeletInfo* c = userCodelets_.find(name)) {
        return *c;
    }
    if (const CodeletInfo* c = CodeletRegistry::builtins().find(name)) {
        return *c;
    }
    throw Error("unknown codelet '" + name +
                "': not a built-in codelet and not added to the graph");
}

void Graph::addCodelet(CodeletInfo codelet) {
    lastCodelet_ = nullptr; // it may shadow a built-in of that name
    userCodelets_.add(std::move(codelet));
}

void Graph::registerPerfEstimator(const std::string& name, PerfEstimator estimator) {
    codelet(name); // throws for an unknown codelet
    estimators_[name] = std::move(estimator);
}

const PerfEstimator& Graph::estimatorFor(const CodeletInfo& c) const {
    auto it = estimators_.find(c.name);
    return it != estimators_.end() ? it->second : c.estimator;
}

VertexRef Graph::newVertex(ComputeSet cs, const std::string& codeletName) {
    if (record::index(cs.id) >= computeSets_.size()) {
        throw Error("addVertex: unknown compute set for codelet '" + codeletName + "'");
    }
    if (!lastCodelet_ || codeletName != lastCodeletName_) {
        lastCodelet_ = &codelet(codeletName);
        lastCodeletName_ = codeletName;
    }
    const CodeletInfo& info = *lastCodelet_;
    VertexData v;
    v.codelet = &info;
    v.computeSet = cs.id;
    v.firstSlot = appendIndex(slots_.size(), info.fields.size(), "vertex fields");
    v.firstState = appendIndex(stateValues_.size(), info.states.size(), "vertex state members");
    slots_.resize(slots_.size() + info.fields.size());
    stateValues_.resize(stateValues_.size() + info.states.size());
    const auto id = record::idAt<VertexId>(vertices_.size());
    vertices_.push_back(v);
    computeSets_[cs.id.value()].vertices.push_back(id);
    return {this, id};
}

VertexRef Graph::addVertex(ComputeSet cs, const std::string& codeletName,
                           const std::vector<std::pair<std::string, Tensor>>& connections) {
    const VertexRef ref = newVertex(cs, codeletName);
    for (const auto& [field, tensor] : connections) {
        connectTensor(ref.id, field, std::nullopt, tensor);
    }
    return ref;
}

VertexRef Graph::addVertex(ComputeSet cs, const std::string& codeletName,
                           std::initializer_list<std::pair<std::string_view, Tensor>> connections) {
    const VertexRef ref = newVertex(cs, codeletName);
    for (const auto& [field, tensor] : connections) {
        connectTensor(ref.id, field, std::nullopt, tensor);
    }
    return ref;
}

std::string Graph::vertexName(VertexId id) const {
    if (record::index(id) >= vertices_.size()) {
        return "vertex #" + std::to_string(id.value());
    }
    const VertexData& v = vertices_[id.value()];
    std::string s = "vertex " + v.codelet->name + "#" + std::to_string(id.value()) +
                    " in compute set '" + computeSets_[v.computeSet.value()].name + "'";
    if (!v.tile.isNone()) {
        s += " on tile " + std::to_string(v.tile.value());
    }
    return s;
}

VertexData& Graph::vertexFor(const FieldRef& f, const char* operation) {
    if (f.graph != this || record::index(f.vertex) >= vertices_.size()) {
        throw Error(std::string(operation) + ": unknown vertex for field '" + f.field + "'");
    }
    return vertices_[f.vertex.value()];
}

std::size_t Graph::fieldIndexFor(VertexId vertex, std::string_view field,
                                 const char* operation) const {
    const CodeletInfo& c = *vertices_[vertex.value()].codelet;
    if (const std::size_t i = c.findField(field); i < c.fields.size()) {
        return i;
    }
    throw Error(std::string(operation) + ": codelet '" + c.name + "' of " + vertexName(vertex) +
                " has no field '" + std::string(field) + "'");
}

void Graph::checkFieldTensor(VertexId vertex, std::string_view field, const FieldInfo& info,
                             const Tensor& t) const {
    checkTensor(t, "connect");
    if (t.elementType() != info.type) {
        throw Error("connect: field '" + std::string(field) + "' of " + vertexName(vertex) +
                    " has type " + std::string(typeName(info.type)) + " but tensor " +
                    t.describe() + " has type " + std::string(typeName(t.elementType())));
    }
    if (info.shape == FieldShape::Scalar && t.numElements() != 1) {
        throw Error("connect: scalar field '" + std::string(field) + "' of " + vertexName(vertex) +
                    " needs a one-element tensor, but " + t.describe() + " has " +
                    std::to_string(t.numElements()) + " elements");
    }
}

std::uint32_t Graph::appendIndex(std::size_t size, std::size_t added, const char* what) {
    if (added >= (std::size_t{1} << 31) || size + added >= (std::size_t{1} << 31)) {
        throw Error(std::string("not supported by Tessera: 2^31 or more ") + what +
                    " in one graph");
    }
    return static_cast<std::uint32_t>(size);
}

Graph::Slot Graph::storeTensor(const Tensor& t) {
    return storeRegions(t.regions());
}

Graph::Slot Graph::storeRegions(std::span<const VariableRegion> regions) {
    for (const VariableRegion& r : regions) {
        if (r.size() > std::numeric_limits<std::uint32_t>::max()) {
            throw Error("not supported by Tessera: a vertex field connected to a region of " +
                        std::to_string(r.size()) + " elements of " + variable(r.var).name +
                        " (2^32 or more; no tile holds that many)");
        }
    }
    const auto stored = [](const VariableRegion& r) {
        return StoredRegion{r.begin, r.var, static_cast<std::uint32_t>(r.size())};
    };
    if (regions.size() == 1) {
        return Slot{stored(regions[0])};
    }
    const Slot s =
        Slot::indexed(appendIndex(regions_.size(), regions.size(), "connected tensor regions"),
                      static_cast<std::uint32_t>(regions.size()));
    for (const VariableRegion& r : regions) {
        regions_.push_back(stored(r));
    }
    return s;
}

std::span<const std::optional<double>> Graph::stateValues(VertexId v) const {
    const VertexData& d = vertices_.at(v.value());
    return {stateValues_.data() + d.firstState, d.codelet->states.size()};
}

std::optional<std::uint64_t> Graph::perfEstimate(VertexId v) const {
    auto it = perfEstimates_.find(v);
    return it == perfEstimates_.end() ? std::nullopt : std::optional<std::uint64_t>(it->second);
}

void Graph::connect(const FieldRef& f, const Tensor& t) {
    vertexFor(f, "connect");
    connectTensor(f.vertex, f.field, f.index, t);
}

void Graph::connect(VertexRef v, std::string_view field, const Tensor& t) {
    if (v.graph != this || record::index(v.id) >= vertices_.size()) {
        throw Error("connect: unknown vertex for field '" + std::string(field) + "'");
    }
    connectTensor(v.id, field, std::nullopt, t);
}

void Graph::connectTensor(VertexId vertex, std::string_view field, std::optional<std::size_t> index,
                          const Tensor& t) {
    const VertexData& v = vertices_[vertex.value()];
    const std::size_t fieldIndex = fieldIndexFor(vertex, field, "connect");
    const FieldInfo& info = v.codelet->fields[fieldIndex];
    Slot& slot = this->slot(v, fieldIndex);
    if (info.shape == FieldShape::VectorList) {
        if (!index) {
            throw Error("connect: field '" + std::string(field) + "' of " + vertexName(vertex) +
                        " is a vector list: connect a list of tensors or field[i]");
        }
        if (*index >= slot.count()) {
            throw Error("connect: index " + std::to_string(*index) + " of field '" +
                        std::string(field) + "' of " + vertexName(vertex) +
                        " is outside its size " + std::to_string(slot.count()) +
                        " (use setFieldSize first)");
        }
        checkFieldTensor(vertex, field, info, t);
        listSlots_[slot.first() + *index] = storeTensor(t);
        return;
    }
    if (index) {
        throw Error("connect: field '" + std::string(field) + "' of " + vertexName(vertex) +
                    " is not a vector list and cannot be indexed");
    }
    checkFieldTensor(vertex, field, info, t);
    slot = storeTensor(t); // storeTensor grows regions_ only: `slot` stays valid
}

std::size_t Graph::vectorListField(const FieldRef& f, const char* operation) {
    const VertexData& v = vertexFor(f, operation);
    const std::size_t index = fieldIndexFor(f.vertex, f.field, operation);
    if (v.codelet->fields[index].shape != FieldShape::VectorList) {
        throw Error(std::string(operation) + ": field '" + f.field + "' of " +
                    vertexName(f.vertex) + " is not a vector list; it takes one tensor");
    }
    return index;
}

Graph::Slot Graph::newListEntries(std::size_t count) {
    // A new entry array at the end; a replaced one stays unused.
    return Slot::indexed(appendIndex(listSlots_.size(), count, "vector-list entries"),
                         static_cast<std::uint32_t>(count));
}

void Graph::connect(const FieldRef& f, const std::vector<Tensor>& list) {
    const std::size_t index = vectorListField(f, "connect");
    const VertexData& v = vertices_[f.vertex.value()];
    for (const Tensor& t : list) {
        checkFieldTensor(f.vertex, f.field, v.codelet->fields[index], t);
    }
    const Slot entries = newListEntries(list.size());
    for (const Tensor& t : list) {
        const Slot stored = storeTensor(t);
        listSlots_.push_back(stored);
    }
    slot(v, index) = entries;
}

void Graph::connectRows(const FieldRef& f, const Tensor& rows) {
    const std::size_t index = vectorListField(f, "connectRows");
    const VertexData& v = vertices_[f.vertex.value()];
    checkFieldTensor(f.vertex, f.field, v.codelet->fields[index], rows);
    if (rows.rank() != 2) {
        throw Error("connectRows: field '" + f.field + "' of " + vertexName(f.vertex) +
                    " takes the rows of a 2-D tensor, but " + rows.describe() + " has shape " +
                    shapeString(rows.shape()));
    }
    const std::size_t n = rows.dim(0), m = rows.dim(1);
    const Slot entries = newListEntries(n);
    RegionList row;
    for (std::size_t i = 0; i < n; ++i) {
        row.clear();
        rows.appendFlatRange(i * m, (i + 1) * m, row);
        listSlots_.push_back(storeRegions(row.view()));
    }
    slot(v, index) = entries;
}

void Graph::setFieldSize(const FieldRef& f, std::size_t size) {
    VertexData& v = vertexFor(f, "setFieldSize");
    const std::size_t index = fieldIndexFor(f.vertex, f.field, "setFieldSize");
    if (v.codelet->fields[index].shape != FieldShape::VectorList) {
        throw Error("setFieldSize: field '" + f.field + "' of " + vertexName(f.vertex) +
                    " is not a vector list");
    }
    // A new entry array at the end keeps the first entries; new ones are unconnected.
    const Slot old = slot(v, index);
    const Slot entries = Slot::indexed(appendIndex(listSlots_.size(), size, "vector-list entries"),
                                       static_cast<std::uint32_t>(size));
    for (std::size_t i = 0; i < size; ++i) {
        const Slot kept = i < old.count() ? listSlots_[old.first() + i] : Slot{};
        listSlots_.push_back(kept);
    }
    slot(v, index) = entries;
}

void Graph::setInitialValue(const FieldRef& f, double value) {
    VertexData& v = vertexFor(f, "setInitialValue");
    const auto& states = v.codelet->states;
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (states[i].name == f.field) {
            if (!stateValueFits(states[i].type, value)) {
                throw Error("setInitialValue: " + std::to_string(value) +
                            " does not fit state member '" + f.field + "' (" +
                            std::string(typeName(states[i].type)) + ") of " + vertexName(f.vertex));
            }
            stateValues_[v.firstState + i] = value;
            return;
        }
    }
    throw Error("setInitialValue: codelet '" + v.codelet->name + "' of " + vertexName(f.vertex) +
                " has no state member '" + f.field + "'");
}

void Graph::setPerfEstimate(VertexRef ref, std::uint64_t cycles) {
    if (ref.graph != this || record::index(ref.id) >= vertices_.size()) {
        throw Error("setPerfEstimate: unknown vertex");
    }
    perfEstimates_[ref.id] = cycles;
}

void Graph::markHostAccess(const Tensor& t) {
    for (const VariableRegion& r : t.regions()) {
        variables_[r.var.value()].hostAccess = true;
    }
}

void Graph::createHostWrite(const std::string& handle, const Tensor& t) {
    checkTensor(t, "createHostWrite");
    if (hostWrites_.count(handle)) {
        throw Error("createHostWrite: handle '" + handle + "' already exists");
    }
    hostWrites_.emplace(handle, t);
    markHostAccess(t);
}

void Graph::createHostRead(const std::string& handle, const Tensor& t) {
    checkTensor(t, "createHostRead");
    if (hostReads_.count(handle)) {
        throw Error("createHostRead: handle '" + handle + "' already exists");
    }
    hostReads_.emplace(handle, t);
    markHostAccess(t);
}

DataStream Graph::addHostToDeviceFIFO(const std::string& name, Type type, std::size_t n) {
    if (streams_.count(name)) {
        throw Error("addHostToDeviceFIFO: stream '" + name + "' already exists");
    }
    checkShape({n}, type, "addHostToDeviceFIFO '" + name + "'");
    DataStream s{name, type, n, true};
    streams_.emplace(name, s);
    return s;
}

DataStream Graph::addDeviceToHostFIFO(const std::string& name, Type type, std::size_t n) {
    if (streams_.count(name)) {
        throw Error("addDeviceToHostFIFO: stream '" + name + "' already exists");
    }
    checkShape({n}, type, "addDeviceToHostFIFO '" + name + "'");
    DataStream s{name, type, n, false};
    streams_.emplace(name, s);
    return s;
}

const DataStream& Graph::stream(const std::string& name) const {
    auto it = streams_.find(name);
    if (it == streams_.end()) {
        throw Error("unknown stream '" + name + "'");
    }
    return it->second;
}

} // namespace tessera
