#pragma once
// The graph in Poplar's shape: variables and constants mapped onto tiles,
// compute sets of vertices created from codelets, host handles and streams.
#include "engine/codelets/Codelet.h"
#include "engine/core/LargeArray.h"
#include "engine/graph/Ids.h"
#include "engine/graph/StoredRegions.h"
#include "engine/graph/Tensor.h"
#include "engine/graph/TileMapping.h"
#include "engine/target/Target.h"

#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera {

struct VariableData {
    std::string name;
    Type type = Type::Float;
    std::vector<std::size_t> shape;
    std::size_t numElements = 0;
    bool isConstant = false;
    std::vector<std::byte> initialValue; // empty unless set
    TileMapping mapping;
    bool hostAccess = false; // has a host read or write handle (stream copies do not count)
};

struct ComputeSet {
    ComputeSetId id = ComputeSetId::none();
    bool operator==(const ComputeSet&) const = default;
};

struct ComputeSetData {
    std::string name;
    LargeVector<VertexId> vertices;
};

// Vertices are stored flat (graphs reach 10^7 of them): what each field is
// connected to lives in the graph's slot and region arrays, read through
// Graph::connection().
struct VertexData {
    const CodeletInfo* codelet = nullptr;
    ComputeSetId computeSet = ComputeSetId::none();
    TileId tile = TileId::none();
    std::uint32_t firstSlot = 0;  // one slot per codelet field, in field order
    std::uint32_t firstState = 0; // one value per codelet state member
};

// What one field (or one vector-list entry) is connected to: variable
// regions in the connected tensor's element order.
struct Connection {
    bool connected = false;
    RegionsView regions;
    std::size_t numElements() const { return regions.numElements(); }
};

struct DataStream {
    std::string name;
    Type type = Type::Float;
    std::size_t numElements = 0;
    bool toDevice = true;
};

class Graph;

// A field of a vertex, optionally one entry of a vector-list field.
struct FieldRef {
    const Graph* graph = nullptr;
    VertexId vertex = VertexId::none();
    std::string field;
    std::optional<std::size_t> index;
    FieldRef operator[](std::size_t i) const { return {graph, vertex, field, i}; }
};

struct VertexRef {
    const Graph* graph = nullptr;
    VertexId id = VertexId::none();
    FieldRef operator[](const std::string& field) const { return {graph, id, field, std::nullopt}; }
};

class Graph {
public:
    explicit Graph(const Target& target);
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    const Target& getTarget() const { return target_; }

    Tensor addVariable(Type type, const std::vector<std::size_t>& shape,
                       const std::string& name = "");
    Tensor addConstant(Type type, const std::vector<std::size_t>& shape,
                       std::span<const double> values, const std::string& name = "");
    Tensor addConstant(Type type, const std::vector<std::size_t>& shape, double fill,
                       const std::string& name = "");
    void setInitialValue(const Tensor& t, std::span<const double> values);
    void setInitialValue(const Tensor& t, double fill);

    void setTileMapping(const Tensor& t, TileId tile);
    void setTileMapping(VertexRef v, TileId tile);
    // Per tile, the flat-index intervals of `t` held there.
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>>
    getTileMapping(const Tensor& t) const;

    ComputeSet addComputeSet(const std::string& name = "");
    VertexRef addVertex(ComputeSet cs, const std::string& codelet,
                        const std::vector<std::pair<std::string, Tensor>>& connections = {});
    // The same from a braced list, {{"in", a}, {"out", b}}, without copying
    // it into a vector first (vertices are added by the million).
    VertexRef addVertex(ComputeSet cs, const std::string& codelet,
                        std::initializer_list<std::pair<std::string_view, Tensor>> connections);
    void connect(const FieldRef& field, const Tensor& t);
    void connect(const FieldRef& field, const std::vector<Tensor>& list); // a vector-list field
    // A vector-list field connected to the rows of a 2-D tensor, entry i to
    // row i: connect(field, {rows[0], rows[1], ...}) without a tensor a row
    // (a matMul's vertices take dozens of rows each).
    void connectRows(const FieldRef& field, const Tensor& rows);
    // connect() of a vertex's scalar or vector field by name, no FieldRef made.
    void connect(VertexRef v, std::string_view field, const Tensor& t);
    void setFieldSize(const FieldRef& field, std::size_t size);
    void setInitialValue(const FieldRef& stateField, double value);
    void setPerfEstimate(VertexRef v, std::uint64_t cycles);

    // Codelets: the built-in library is always present; add your own here.
    void addCodelet(CodeletInfo codelet);
    void registerPerfEstimator(const std::string& codelet, PerfEstimator estimator);
    const CodeletInfo& codelet(const std::string& name) const;
    // The estimator in force for a codelet: a registered one, else the codelet's.
    const PerfEstimator& estimatorFor(const CodeletInfo& codelet) const;

    // Host access, by handle name, through Engine::writeTensor / readTensor.
    void createHostWrite(const std::string& handle, const Tensor& t);
    void createHostRead(const std::string& handle, const Tensor& t);
    DataStream addHostToDeviceFIFO(const std::string& name, Type type, std::size_t numElements);
    DataStream addDeviceToHostFIFO(const std::string& name, Type type, std::size_t numElements);

    // Read access for the compiler and recorders.
    const std::vector<VariableData>& variables() const { return variables_; }
    const VariableData& variable(VariableId id) const;
    // The whole of a variable as a tensor; by name, the first variable so
    // named (throws Error naming it when there is none).
    Tensor tensorOf(VariableId id) const;
    Tensor findTensor(const std::string& name) const;
    const std::vector<ComputeSetData>& computeSets() const { return computeSets_; }
    const ComputeSetData& computeSet(ComputeSetId id) const { return computeSets_[id.value()]; }
    const LargeVector<VertexData>& vertices() const { return vertices_; }
    const VertexData& vertex(VertexId id) const { return vertices_[id.value()]; }
    // Entries of a field: 0 or 1 for scalar and vector fields (connected or
    // not), the list size for vector lists.
    // Both inline: validation, the conflict check and exchange planning call
    // them for every field of every vertex.
    std::size_t entryCount(VertexId v, std::size_t field) const {
        const VertexData& d = vertices_.at(v.value());
        const Slot& s = slot(d, field);
        if (d.codelet->fields[field].shape == FieldShape::VectorList) {
            return s.count();
        }
        return s.connected() ? 1 : 0;
    }
    Connection connection(VertexId v, std::size_t field, std::size_t entry = 0) const {
        const VertexData& d = vertices_[v.value()];
        const Slot* s = &slot(d, field);
        if (d.codelet->fields[field].shape == FieldShape::VectorList) {
            s = &listSlots_[s->first() + entry];
        }
        if (s->holdsRegion()) {
            return {true, RegionsView(&s->stored, 1)};
        }
        if (!s->connected()) {
            return {};
        }
        return {true, RegionsView(regions_.data() + s->first(), s->count())};
    }
    // Field slots, vector-list entries and stored regions of every vertex:
    // what validation and the conflict check read, a measure of their work.
    std::size_t connectionEntries() const {
        return slots_.size() + listSlots_.size() + regions_.size();
    }
    std::span<const std::optional<double>> stateValues(VertexId v) const; // per state member
    std::optional<std::uint64_t> perfEstimate(VertexId v) const;          // setPerfEstimate
    const std::map<std::string, Tensor>& hostWrites() const { return hostWrites_; }
    const std::map<std::string, Tensor>& hostReads() const { return hostReads_; }
    const std::map<std::string, DataStream>& streams() const { return streams_; }
    const DataStream& stream(const std::string& name) const;
    std::string vertexName(VertexId v) const; // "ScaledAdd<float>#12 in 'cs' on tile 3"
    void markHostAccess(const Tensor& t);

private:
    const VariableData& checkTensor(const Tensor& t, const char* operation) const;
    VertexData& vertexFor(const FieldRef& f, const char* operation);
    std::size_t fieldIndexFor(VertexId vertex, std::string_view field, const char* operation) const;
    void checkFieldTensor(VertexId vertex, std::string_view field, const FieldInfo& info,
                          const Tensor& t) const;
    VertexRef newVertex(ComputeSet cs, const std::string& codelet);
    // connect() for a known vertex: `index` is the entry of a vector list.
    void connectTensor(VertexId vertex, std::string_view field, std::optional<std::size_t> index,
                       const Tensor& t);
    // A field's slot, 16 bytes. A scalar or vector field connected to one
    // region (the usual case) holds that region itself; one connected to
    // several holds where they are in regions_ (first, count), and a vector
    // list where its entries are in listSlots_, each entry a slot again.
    // `stored.var` tells which: a variable for a held region, none for an
    // index (`begin` the first, `size` the count), and none with the first
    // index kUnconnected for a field connected to nothing.
    struct Slot {
        static constexpr std::uint64_t kUnconnected = ~std::uint64_t{0};
        StoredRegion stored{kUnconnected, VariableId::none(), 0};

        static Slot indexed(std::uint32_t first, std::uint32_t count) {
            return {{first, VariableId::none(), count}};
        }
        bool holdsRegion() const { return !stored.var.isNone(); }
        bool connected() const { return holdsRegion() || stored.begin != kUnconnected; }
        // Of an index slot: where its regions or entries start, and how many.
        std::uint32_t first() const { return static_cast<std::uint32_t>(stored.begin); }
        std::uint32_t count() const {
            return holdsRegion() || stored.begin == kUnconnected ? 0 : stored.size;
        }
    };
    Slot& slot(const VertexData& v, std::size_t field) { return slots_[v.firstSlot + field]; }
    const Slot& slot(const VertexData& v, std::size_t field) const {
        return slots_[v.firstSlot + field];
    }
    // The index of f's field, which must be a vector list (`operation` names
    // the call in the error).
    std::size_t vectorListField(const FieldRef& f, const char* operation);
    // A vector list's entry array of `count` slots, for the caller to append.
    Slot newListEntries(std::size_t count);
    Slot storeTensor(const Tensor& t); // appends t's regions
    Slot storeRegions(std::span<const VariableRegion> regions);
    // Where `added` items appended to an array of `size` start; indices are
    // 31-bit (the count shares a word with a flag): fails by name beyond.
    static std::uint32_t appendIndex(std::size_t size, std::size_t added, const char* what);

    Target target_;
    std::vector<VariableData> variables_;
    std::vector<ComputeSetData> computeSets_;
    LargeVector<VertexData> vertices_;
    LargeVector<Slot> slots_;
    LargeVector<Slot> listSlots_;
    LargeVector<StoredRegion> regions_;
    LargeVector<std::optional<double>> stateValues_;
    std::unordered_map<VertexId, std::uint64_t> perfEstimates_;
    CodeletRegistry userCodelets_;
    // addVertex's last codelet: programs add vertices of one codelet in runs.
    std::string lastCodeletName_;
    const CodeletInfo* lastCodelet_ = nullptr;
    std::map<std::string, PerfEstimator> estimators_;
    std::map<std::string, Tensor> hostWrites_;
    std::map<std::string, Tensor> hostReads_;
    std::map<std::string, DataStream> streams_;
};

} // namespace tessera
