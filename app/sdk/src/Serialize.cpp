#include "Serialize.h"

#include "Codelets.h"

#include <poplar/exceptions.hpp>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <istream>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

namespace poplar::detail {

namespace {

constexpr char kMagic[8] = {'T', 'S', 'R', 'X', '0', '0', '0', '2'};

std::vector<void (*)(tessera::Graph&)>& providers() {
    static std::vector<void (*)(tessera::Graph&)> list;
    return list;
}
std::mutex& providersMutex() {
    static std::mutex m;
    return m;
}

class Writer {
public:
    explicit Writer(std::ostream& out)
        : out_(out) {}
    void u64(std::uint64_t v) {
        unsigned char b[8];
        for (int i = 0; i < 8; ++i) {
            b[i] = static_cast<unsigned char>(v >> (8 * i));
        }
        out_.write(reinterpret_cast<const char*>(b), 8);
    }
    void f64(double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, 8);
        u64(bits);
    }
    void str(const std::string& s) {
        u64(s.size());
        out_.write(s.data(), static_cast<std::streamsize>(s.size()));
    }
    void sizes(const std::vector<std::size_t>& v) {
        u64(v.size());
        for (std::size_t x : v) {
            u64(x);
        }
    }
    void tensor(const tessera::Tensor& t) {
        u64(t.valid() ? 1 : 0);
        if (!t.valid()) {
            return;
        }
        u64(static_cast<std::uint64_t>(t.elementType()));
        sizes(t.shape());
        u64(t.regions().size());
        for (const tessera::VariableRegion& r : t.regions()) {
            u64(r.var);
            u64(r.begin);
            u64(r.end);
        }
    }

private:
    std::ostream& out_;
};

class Reader {
public:
    explicit Reader(std::istream& in)
        : in_(in) {}
    std::uint64_t u64() {
        unsigned char b[8];
        in_.read(reinterpret_cast<char*>(b), 8);
        if (!in_) {
            throw poplar_error("Executable::deserialize: the stream ends early");
        }
        std::uint64_t v = 0;
        for (int i = 0; i < 8; ++i) {
            v |= std::uint64_t(b[i]) << (8 * i);
        }
        return v;
    }
    double f64() {
        const std::uint64_t bits = u64();
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
    }
    std::size_t count(std::uint64_t limit = 1u << 30) {
        const std::uint64_t n = u64();
        if (n > limit) {
            throw poplar_error("Executable::deserialize: damaged stream (count " +
                               std::to_string(n) + ")");
        }
        return static_cast<std::size_t>(n);
    }
    std::string str() {
        std::string s(count(), '\0');
        in_.read(s.data(), static_cast<std::streamsize>(s.size()));
        if (!in_) {
            throw poplar_error("Executable::deserialize: the stream ends early");
        }
        return s;
    }
    std::vector<std::size_t> sizes() {
        std::vector<std::size_t> v(count());
        for (std::size_t& x : v) {
            x = static_cast<std::size_t>(u64());
        }
        return v;
    }
    tessera::Tensor tensor(const tessera::Graph& g) {
        if (u64() == 0) {
            return {};
        }
        (void)u64(); // element type: the variables' own
        const std::vector<std::size_t> shape = sizes();
        const std::size_t n = count();
        std::vector<tessera::Tensor> parts;
        for (std::size_t i = 0; i < n; ++i) {
            const auto var = static_cast<tessera::VariableId>(u64());
            const std::size_t b = static_cast<std::size_t>(u64());
            const std::size_t e = static_cast<std::size_t>(u64());
            parts.push_back(g.tensorOf(var).flatten().slice(b, e));
        }
        if (parts.empty()) {
            throw poplar_error("Executable::deserialize: an empty tensor view is not supported");
        }
        const tessera::Tensor flat = parts.size() == 1 ? parts[0] : tessera::concat(parts, 0);
        return flat.reshape(shape);
    }

private:
    std::istream& in_;
};

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Programs: each node once (shared sub-programs stay shared), children by index.
void collect(const std::shared_ptr<tessera::program::Node>& n,
             std::map<const tessera::program::Node*, std::size_t>& ids,
             std::vector<std::shared_ptr<tessera::program::Node>>& order) {
    if (ids.count(n.get())) {
        return;
    }
    for (const auto& c : n->children) {
        collect(c, ids, order);
    }
    ids[n.get()] = order.size();
    order.push_back(n);
}

} // namespace

void registerCodeletProvider(void (*provider)(tessera::Graph&)) {
    std::lock_guard<std::mutex> lock(providersMutex());
    providers().push_back(provider);
}

void addProvidedCodelets(tessera::Graph& graph) {
    std::lock_guard<std::mutex> lock(providersMutex());
    for (auto* p : providers()) {
        p(graph);
    }
}

void writeExecutable(std::ostream& out, const GraphImpl& impl,
                     const std::vector<tessera::program::Program>& programs) {
    const tessera::Graph& g = impl.graph;
    if (!impl.remoteBuffers.empty()) {
        // Their host memory and copies live beside the engine graph, not in it.
        throw unsupported_feature_error("serializing a graph with remote buffers");
    }
    Writer w(out);
    out.write(kMagic, sizeof kMagic);
    // Target
    const tessera::Target& t = g.getTarget();
    w.str(t.name);
    const auto names = tessera::Target::parameterNames();
    w.u64(names.size());
    for (const std::string& n : names) {
        w.str(n);
        w.str(t.get(n));
    }
    // Codelet shared objects, embedded
    w.u64(impl.codeletObjects.size());
    for (const std::string& so : impl.codeletObjects) {
        w.str(readBytes(so));
    }
    // Variables
    w.u64(g.variables().size());
    for (tessera::VariableId id = 0; id < g.variables().size(); ++id) {
        const tessera::VariableData& v = g.variable(id);
        w.str(v.name);
        w.u64(static_cast<std::uint64_t>(v.type));
        w.sizes(v.shape);
        w.u64(v.isConstant ? 1 : 0);
        w.str(std::string(reinterpret_cast<const char*>(v.initialValue.data()),
                          v.initialValue.size()));
        const auto mapping = g.getTileMapping(g.tensorOf(id));
        std::uint64_t intervals = 0;
        for (const auto& tile : mapping) {
            intervals += tile.size();
        }
        w.u64(intervals);
        for (std::size_t tile = 0; tile < mapping.size(); ++tile) {
            for (const auto& [b, e] : mapping[tile]) {
                w.u64(tile);
                w.u64(b);
                w.u64(e);
            }
        }
    }
    // Compute sets and vertices
    w.u64(g.computeSets().size());
    for (const tessera::ComputeSetData& cs : g.computeSets()) {
        w.str(cs.name);
    }
    w.u64(g.vertices().size());
    for (const tessera::VertexData& v : g.vertices()) {
        w.str(v.codelet->name);
        w.u64(v.computeSet);
        w.u64(v.tile);
        w.u64(v.connections.size());
        for (const auto& field : v.connections) {
            w.u64(field.size());
            for (const tessera::Tensor& c : field) {
                w.tensor(c);
            }
        }
        w.u64(v.stateValues.size());
        for (const auto& s : v.stateValues) {
            w.u64(s ? 1 : 0);
            w.f64(s.value_or(0));
        }
        w.u64(v.perfEstimate ? 1 : 0);
        w.u64(v.perfEstimate.value_or(0));
    }
    // Host handles and streams
    for (const auto* handles : {&g.hostWrites(), &g.hostReads()}) {
        w.u64(handles->size());
        for (const auto& [name, tensor] : *handles) {
            w.str(name);
            w.tensor(tensor);
        }
    }
    w.u64(g.streams().size());
    for (const auto& [name, s] : g.streams()) {
        w.str(name);
        w.u64(static_cast<std::uint64_t>(s.type));
        w.u64(s.numElements);
        w.u64(s.toDevice ? 1 : 0);
    }
    // Programs
    std::map<const tessera::program::Node*, std::size_t> ids;
    std::vector<std::shared_ptr<tessera::program::Node>> order;
    for (const auto& p : programs) {
        collect(p.node(), ids, order);
    }
    w.u64(order.size());
    for (const auto& n : order) {
        w.u64(static_cast<std::uint64_t>(n->kind));
        w.str(n->name);
        w.u64(n->children.size());
        for (const auto& c : n->children) {
            w.u64(ids.at(c.get()));
        }
        w.u64(n->computeSet);
        w.u64(n->count);
        w.tensor(n->source);
        w.tensor(n->destination);
        w.tensor(n->predicate);
        w.str(n->stream);
        w.str(n->message);
        w.u64(n->cases.size());
        for (std::int64_t v : n->cases) {
            w.u64(static_cast<std::uint64_t>(v));
        }
    }
    w.u64(programs.size());
    for (const auto& p : programs) {
        w.u64(ids.at(p.node().get()));
    }
    if (!out) {
        throw poplar_error("Executable::serialize: writing the stream failed");
    }
}

ReadExecutable readExecutable(std::istream& in) {
    char magic[sizeof kMagic] = {};
    in.read(magic, sizeof magic);
    if (!in || std::memcmp(magic, kMagic, sizeof kMagic) != 0) {
        throw poplar_error("Executable::deserialize: not a Tessera executable");
    }
    Reader r(in);
    // Target
    const std::string targetName = r.str();
    tessera::Target target;
    try {
        target = tessera::Target::preset(targetName);
    } catch (const tessera::Error&) {
    }
    const std::size_t params = r.count();
    for (std::size_t i = 0; i < params; ++i) {
        const std::string key = r.str();
        const std::string value = r.str();
        target.set(key, value);
    }
    target.name = targetName;
    ReadExecutable out;
    out.graph = std::make_shared<GraphImpl>(target);
    out.graph->target = Access::makeTarget(target);
    tessera::Graph& g = out.graph->graph;
    // Codelets: the library ones, then the embedded shared objects.
    addProvidedCodelets(g);
    const std::size_t objects = r.count();
    for (std::size_t i = 0; i < objects; ++i) {
        const std::string bytes = r.str();
        std::ostringstream gp;
        gp.write("TSRGP001", 8);
        gp << bytes;
        const std::filesystem::path tmp =
            std::filesystem::temp_directory_path() /
            ("tessera-exe-" + std::to_string(std::hash<std::string>()(bytes)) + ".gp");
        {
            std::ofstream f(tmp, std::ios::binary);
            f << gp.str();
        }
        std::string so;
        auto codelets = loadCodeletFile(tmp.string(), "", &so);
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
        out.graph->codeletObjects.push_back(so);
        for (tessera::CodeletInfo& c : codelets) {
            g.addCodelet(std::move(c));
        }
    }
    // Variables
    const std::size_t vars = r.count();
    for (std::size_t i = 0; i < vars; ++i) {
        const std::string name = r.str();
        const auto type = static_cast<tessera::Type>(r.u64());
        const std::vector<std::size_t> shape = r.sizes();
        const bool constant = r.u64() != 0;
        const std::string init = r.str();
        std::vector<double> values;
        const std::size_t size = tessera::sizeOf(type);
        for (std::size_t b = 0; b + size <= init.size(); b += size) {
            values.push_back(
                tessera::loadAsDouble(type, reinterpret_cast<const std::byte*>(init.data() + b)));
        }
        tessera::Tensor t = constant
                                ? g.addConstant(type, shape, std::span<const double>(values), name)
                                : g.addVariable(type, shape, name);
        if (!constant && !values.empty()) {
            g.setInitialValue(t, std::span<const double>(values));
        }
        const tessera::Tensor flat = t.flatten();
        const std::size_t intervals = r.count();
        for (std::size_t k = 0; k < intervals; ++k) {
            const auto tile = static_cast<tessera::TileId>(r.u64());
            const std::size_t b = static_cast<std::size_t>(r.u64());
            const std::size_t e = static_cast<std::size_t>(r.u64());
            g.setTileMapping(flat.slice(b, e), tile);
        }
    }
    // Compute sets and vertices
    const std::size_t sets = r.count();
    for (std::size_t i = 0; i < sets; ++i) {
        g.addComputeSet(r.str());
    }
    const std::size_t vertices = r.count();
    for (std::size_t i = 0; i < vertices; ++i) {
        const std::string codelet = r.str();
        const auto cs = static_cast<tessera::ComputeSetId>(r.u64());
        const auto tile = static_cast<tessera::TileId>(r.u64());
        const tessera::VertexRef v = g.addVertex(tessera::ComputeSet{cs}, codelet);
        const tessera::CodeletInfo& info = g.codelet(codelet);
        const std::size_t fields = r.count();
        for (std::size_t f = 0; f < fields; ++f) {
            const std::size_t entries = r.count();
            std::vector<tessera::Tensor> list;
            for (std::size_t e = 0; e < entries; ++e) {
                list.push_back(r.tensor(g));
            }
            if (f >= info.fields.size()) {
                throw poplar_error("Executable::deserialize: codelet '" + codelet +
                                   "' has fewer fields than when it was saved");
            }
            const tessera::FieldRef field = v[info.fields[f].name];
            if (info.fields[f].shape == tessera::FieldShape::VectorList) {
                g.setFieldSize(field, list.size());
                for (std::size_t e = 0; e < list.size(); ++e) {
                    if (list[e].valid()) {
                        g.connect(field[e], list[e]);
                    }
                }
            } else if (!list.empty() && list[0].valid()) {
                g.connect(field, list[0]);
            }
        }
        const std::size_t states = r.count();
        for (std::size_t s = 0; s < states; ++s) {
            const bool set = r.u64() != 0;
            const double value = r.f64();
            if (set && s < info.states.size()) {
                g.setInitialValue(v[info.states[s].name], value);
            }
        }
        const bool hasEstimate = r.u64() != 0;
        const std::uint64_t estimate = r.u64();
        if (hasEstimate) {
            g.setPerfEstimate(v, estimate);
        }
        if (tile != tessera::kNoId) {
            g.setTileMapping(v, tile);
        }
    }
    // Host handles and streams
    for (int kind = 0; kind < 2; ++kind) {
        const std::size_t n = r.count();
        for (std::size_t i = 0; i < n; ++i) {
            const std::string name = r.str();
            const tessera::Tensor t = r.tensor(g);
            if (kind == 0) {
                g.createHostWrite(name, t);
            } else {
                g.createHostRead(name, t);
            }
        }
    }
    const std::size_t streams = r.count();
    for (std::size_t i = 0; i < streams; ++i) {
        const std::string name = r.str();
        const auto type = static_cast<tessera::Type>(r.u64());
        const std::size_t n = static_cast<std::size_t>(r.u64());
        if (r.u64() != 0) {
            g.addHostToDeviceFIFO(name, type, n);
        } else {
            g.addDeviceToHostFIFO(name, type, n);
        }
    }
    // Programs
    const std::size_t nodes = r.count();
    std::vector<tessera::program::Program> built;
    for (std::size_t i = 0; i < nodes; ++i) {
        tessera::program::Sequence p;
        tessera::program::Node& n = *p.node();
        n.kind = static_cast<tessera::program::Kind>(r.u64());
        n.name = r.str();
        const std::size_t children = r.count();
        for (std::size_t c = 0; c < children; ++c) {
            const std::size_t id = r.count();
            if (id >= built.size()) {
                throw poplar_error("Executable::deserialize: damaged program tree");
            }
            n.children.push_back(built[id].node());
        }
        n.computeSet = static_cast<tessera::ComputeSetId>(r.u64());
        n.count = static_cast<std::size_t>(r.u64());
        n.source = r.tensor(g);
        n.destination = r.tensor(g);
        n.predicate = r.tensor(g);
        n.stream = r.str();
        n.message = r.str();
        const std::size_t cases = r.count();
        for (std::size_t c = 0; c < cases; ++c) {
            n.cases.push_back(static_cast<std::int64_t>(r.u64()));
        }
        built.push_back(p);
    }
    const std::size_t roots = r.count();
    for (std::size_t i = 0; i < roots; ++i) {
        const std::size_t id = r.count();
        if (id >= built.size()) {
            throw poplar_error("Executable::deserialize: damaged program list");
        }
        out.programs.push_back(built[id]);
    }
    return out;
}

} // namespace poplar::detail
