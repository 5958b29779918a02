// Executable::serialize: the writing half of Serialize.h, and the codelet
// providers a deserialised graph starts from.
#include "Serialize.h"

#include "SerializeFormat.h"

#include <poplar/exceptions.hpp>

#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

namespace poplar::detail {

namespace {

using format::Writer;

std::vector<void (*)(tessera::Graph&)>& providers() {
    static std::vector<void (*)(tessera::Graph&)> list;
    return list;
}
std::mutex& providersMutex() {
    static std::mutex m;
    return m;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    if (!in) {
        throw poplar_error("Executable::serialize: cannot read the codelet object '" + path + "'");
    }
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

void writeTarget(Writer& w, const tessera::Target& t) {
    w.str(t.name);
    const auto names = tessera::Target::parameterNames();
    w.u64(names.size());
    for (const std::string& n : names) {
        w.str(n);
        w.str(t.get(n));
    }
}

void writeCodelets(Writer& w, const GraphImpl& impl) {
    w.u64(impl.codeletObjects.size());
    for (const std::string& so : impl.codeletObjects) {
        const std::string bytes = readBytes(so);
        w.u64(format::checksum(bytes));
        w.str(bytes);
    }
    // Generated codelets the vertices use, as the recipes that make them again.
    std::set<std::string> recipes;
    for (const tessera::VertexData& v : impl.graph.vertices()) {
        if (!v.codelet->recipe.empty()) {
            recipes.insert(v.codelet->recipe);
        }
    }
    w.u64(recipes.size());
    for (const std::string& r : recipes) {
        w.str(r);
    }
}

void writeVariables(Writer& w, const tessera::Graph& g) {
    w.u64(g.variables().size());
    for (const tessera::VariableId id :
         tessera::record::idRange<tessera::VariableId>(g.variables().size())) {
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
}

void writeVertices(Writer& w, const tessera::Graph& g) {
    w.u64(g.computeSets().size());
    for (const tessera::ComputeSetData& cs : g.computeSets()) {
        w.str(cs.name);
    }
    w.u64(g.vertices().size());
    for (const tessera::VertexId id :
         tessera::record::idRange<tessera::VertexId>(g.vertices().size())) {
        const tessera::VertexData& v = g.vertex(id);
        w.str(v.codelet->name);
        w.u64(v.computeSet.value());
        w.u64(v.tile.value()); // none() for an unmapped vertex
        w.u64(v.codelet->fields.size());
        for (std::size_t f = 0; f < v.codelet->fields.size(); ++f) {
            w.u64(g.entryCount(id, f));
            for (std::size_t e = 0; e < g.entryCount(id, f); ++e) {
                w.connection(g.connection(id, f, e));
            }
        }
        const auto states = g.stateValues(id);
        w.u64(states.size());
        for (const auto& s : states) {
            w.u64(s ? 1 : 0);
            w.f64(s.value_or(0));
        }
        const auto perf = g.perfEstimate(id);
        w.u64(perf ? 1 : 0);
        w.u64(perf.value_or(0));
    }
}

void writeHostAccess(Writer& w, const GraphImpl& impl) {
    const tessera::Graph& g = impl.graph;
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
    w.u64(impl.remoteBuffers.size());
    for (const auto& [name, b] : impl.remoteBuffers) {
        w.str(name);
        w.u64(static_cast<std::uint64_t>(b.type));
        w.u64(b.numElements);
        w.u64(b.repeats);
    }
    w.u64(impl.remoteCopies.size());
    for (const RemoteCopy& c : impl.remoteCopies) {
        w.str(c.stream);
        w.str(c.buffer);
        w.u64(c.toDevice ? 1 : 0);
        w.tensor(c.offset);
        w.u64(c.rows);
    }
}

void writePrograms(Writer& w, const std::vector<tessera::program::Program>& programs) {
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
        w.u64(n->computeSet.value());
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
        w.u64(n->syncScope ? 1 + static_cast<std::uint64_t>(*n->syncScope) : 0);
        w.str(n->libraryFunction);
    }
    w.u64(programs.size());
    for (const auto& p : programs) {
        w.u64(ids.at(p.node().get()));
    }
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
    Writer w(out);
    out.write(format::kMagic, sizeof format::kMagic);
    writeTarget(w, impl.graph.getTarget());
    writeCodelets(w, impl);
    writeVariables(w, impl.graph);
    writeVertices(w, impl.graph);
    writeHostAccess(w, impl);
    writePrograms(w, programs);
    if (!out) {
        throw poplar_error("Executable::serialize: writing the stream failed");
    }
}

} // namespace poplar::detail
