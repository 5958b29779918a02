// Executable::deserialize: the reading half of Serialize.h. Every count,
// index, type and size is checked against what was read before it, so any
// damage is a poplar_error naming it ("damaged stream: variable 7 (at most 3)").
#include "Codelets.h"
#include "Serialize.h"
#include "SerializeFormat.h"
#include "engine/core/Error.h"
#include "engine/ops/CodeletRecipe.h"

#include <poplar/exceptions.hpp>

#include <cstring>

namespace poplar::detail {

namespace {

using format::Reader;

// Limits far above any real graph that keep a damaged count from allocating.
constexpr std::uint64_t kMaxItems = std::uint64_t(1) << 24;
constexpr std::uint64_t kMaxCases = std::uint64_t(1) << 20;
constexpr std::uint64_t kSyncScopes =
    static_cast<std::uint64_t>(tessera::program::SyncScope::Global) + 1;
constexpr std::uint64_t kProgramKinds =
    static_cast<std::uint64_t>(tessera::program::Kind::CycleStamp) + 1;

// The preset a saved target was made from (its memory regions are not
// parameters), else mk2's: the saved parameters follow either way.
tessera::Target presetOrMk2(const std::string& name) {
    try {
        return tessera::Target::preset(name);
    } catch (const tessera::Error&) {
        return tessera::Target::preset("mk2");
    }
}

class ExecutableReader {
public:
    explicit ExecutableReader(std::istream& in)
        : r_(in) {}

    ReadExecutable read() {
        readTarget();
        readCodelets();
        readVariables();
        readVertices();
        readHostAccess();
        readPrograms();
        return std::move(out_);
    }

private:
    tessera::Graph& graph() { return out_.graph->graph; }
    std::size_t tiles() { return graph().getTarget().numTiles(); }

    void readTarget() {
        const std::string name = r_.str();
        tessera::Target target = presetOrMk2(name);
        const std::size_t params = r_.below(1024, "target parameter count");
        for (std::size_t i = 0; i < params; ++i) {
            const std::string key = r_.str();
            const std::string value = r_.str();
            // Only what differs: setting a parameter can reset what depends on
            // it (bytesPerTile drops the preset's memory regions).
            if (target.get(key) != value) {
                target.set(key, value);
            }
        }
        target.name = name;
        target.validate();
        out_.graph = std::make_shared<GraphImpl>(target);
        out_.graph->target = Access::makeTarget(target);
    }

    // The libraries' codelets, the embedded shared objects, then the
    // generated codelets made again from their recipes.
    void readCodelets() {
        addProvidedCodelets(graph());
        const std::size_t objects = r_.below(4096, "codelet object count");
        for (std::size_t i = 0; i < objects; ++i) {
            const std::uint64_t sum = r_.u64();
            const std::string bytes = r_.str();
            if (format::checksum(bytes) != sum) {
                Reader::damaged("codelet object " + std::to_string(i) +
                                " does not match its checksum");
            }
            std::string so;
            for (tessera::CodeletInfo& c : loadEmbeddedCodeletObject(bytes, &so)) {
                graph().addCodelet(std::move(c));
            }
            out_.graph->codeletObjects.push_back(so);
        }
        const std::size_t recipes = r_.below(kMaxItems, "codelet recipe count");
        for (std::size_t i = 0; i < recipes; ++i) {
            tessera::ops::regenerateCodelet(graph(), r_.str());
        }
    }

    void readVariables() {
        tessera::Graph& g = graph();
        const std::size_t vars = r_.below(kMaxItems, "variable count");
        for (std::size_t i = 0; i < vars; ++i) {
            const std::string name = r_.str();
            const tessera::Type type = r_.type();
            const std::vector<std::size_t> shape = r_.shape();
            const bool constant = r_.flag("constant flag");
            const std::string init = r_.str();
            std::size_t elements = 1;
            for (const std::size_t d : shape) {
                elements *= d;
            }
            const std::size_t size = tessera::sizeOf(type);
            if (!init.empty() && init.size() != elements * size) {
                Reader::damaged("variable '" + name + "' has " + std::to_string(init.size()) +
                                " bytes of initial value for " + std::to_string(elements) +
                                " elements");
            }
            std::vector<double> values(init.empty() ? 0 : elements);
            for (std::size_t k = 0; k < values.size(); ++k) {
                values[k] = tessera::loadAsDouble(
                    type, reinterpret_cast<const std::byte*>(init.data() + k * size));
            }
            const tessera::Tensor t =
                constant ? g.addConstant(type, shape, std::span<const double>(values), name)
                         : g.addVariable(type, shape, name);
            if (!constant && !values.empty()) {
                g.setInitialValue(t, std::span<const double>(values));
            }
            readMapping(t.flatten(), elements);
        }
    }

    void readMapping(const tessera::Tensor& flat, std::size_t elements) {
        const std::size_t intervals = r_.below(kMaxItems, "mapping interval count");
        for (std::size_t k = 0; k < intervals; ++k) {
            const auto tile = tessera::record::idAt<tessera::TileId>(r_.below(tiles(), "tile"));
            const std::size_t b = r_.below(std::uint64_t(elements) + 1, "interval start");
            const std::size_t e = r_.below(std::uint64_t(elements) + 1, "interval end");
            if (e <= b) {
                Reader::damaged("an empty or reversed mapping interval");
            }
            graph().setTileMapping(flat.slice(b, e), tile);
        }
    }

    void readVertices() {
        tessera::Graph& g = graph();
        const std::size_t sets = r_.below(kMaxItems, "compute set count");
        for (std::size_t i = 0; i < sets; ++i) {
            g.addComputeSet(r_.str());
        }
        const std::size_t vertices = r_.below(kMaxItems, "vertex count");
        for (std::size_t i = 0; i < vertices; ++i) {
            readVertex();
        }
    }

    void readVertex() {
        tessera::Graph& g = graph();
        const std::string codelet = r_.str();
        const auto cs = tessera::record::idAt<tessera::ComputeSetId>(
            r_.below(g.computeSets().size(), "compute set"));
        const std::uint64_t tile = r_.u64(); // TileId::none() for an unmapped vertex
        const bool mapped = tile != tessera::TileId::none().value();
        if (mapped && tile >= tiles()) {
            Reader::damaged("vertex tile " + std::to_string(tile));
        }
        const tessera::VertexRef v = g.addVertex(tessera::ComputeSet{cs}, codelet);
        const tessera::CodeletInfo& info = g.codelet(codelet);
        const std::size_t fields = r_.below(info.fields.size() + 1, "field count");
        for (std::size_t f = 0; f < fields; ++f) {
            const std::size_t entries = r_.below(kMaxItems, "field entry count");
            std::vector<tessera::Tensor> list;
            for (std::size_t e = 0; e < entries; ++e) {
                list.push_back(r_.tensor(g));
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
        const std::size_t states = r_.below(info.states.size() + 1, "state count");
        for (std::size_t s = 0; s < states; ++s) {
            const bool set = r_.flag("state flag");
            const double value = r_.f64();
            if (set) {
                g.setInitialValue(v[info.states[s].name], value);
            }
        }
        const bool hasEstimate = r_.flag("estimate flag");
        const std::uint64_t estimate = r_.u64();
        if (hasEstimate) {
            g.setPerfEstimate(v, estimate);
        }
        if (mapped) {
            g.setTileMapping(v, tessera::record::idAt<tessera::TileId>(tile));
        }
    }

    void readHostAccess() {
        tessera::Graph& g = graph();
        for (int kind = 0; kind < 2; ++kind) {
            const std::size_t n = r_.below(kMaxItems, "host handle count");
            for (std::size_t i = 0; i < n; ++i) {
                const std::string name = r_.str();
                const tessera::Tensor t = r_.tensor(g);
                if (!t.valid()) {
                    Reader::damaged("host handle '" + name + "' without a tensor");
                }
                kind == 0 ? g.createHostWrite(name, t) : g.createHostRead(name, t);
            }
        }
        const std::size_t streams = r_.below(kMaxItems, "stream count");
        for (std::size_t i = 0; i < streams; ++i) {
            const std::string name = r_.str();
            const tessera::Type type = r_.type();
            const std::size_t n = r_.below(std::uint64_t(1) << 40, "stream size");
            r_.flag("stream direction") ? (void)g.addHostToDeviceFIFO(name, type, n)
                                        : (void)g.addDeviceToHostFIFO(name, type, n);
        }
        readRemoteBuffers();
    }

    void readRemoteBuffers() {
        GraphImpl& impl = *out_.graph;
        const std::size_t buffers = r_.below(kMaxItems, "remote buffer count");
        for (std::size_t i = 0; i < buffers; ++i) {
            const std::string name = r_.str();
            RemoteBufferInfo b;
            b.type = r_.type();
            b.numElements = r_.below(std::uint64_t(1) << 32, "remote buffer row size");
            b.repeats = r_.below(std::uint64_t(1) << 32, "remote buffer rows");
            impl.remoteBuffers[name] = b;
        }
        const std::size_t copies = r_.below(kMaxItems, "remote copy count");
        for (std::size_t i = 0; i < copies; ++i) {
            RemoteCopy c;
            c.stream = r_.str();
            c.buffer = r_.str();
            c.toDevice = r_.flag("remote copy direction");
            c.offset = r_.tensor(graph());
            c.rows = r_.below(std::uint64_t(1) << 32, "remote copy rows");
            const auto buffer = impl.remoteBuffers.find(c.buffer);
            const auto& streams = graph().streams();
            if (buffer == impl.remoteBuffers.end() || streams.count(c.stream) == 0 ||
                streams.at(c.stream).numElements != c.rows * buffer->second.numElements) {
                Reader::damaged("remote copy " + std::to_string(i) +
                                " does not match its buffer and stream");
            }
            impl.remoteCopies.push_back(std::move(c));
        }
    }

    void readPrograms() {
        const std::size_t nodes = r_.below(kMaxItems, "program node count");
        std::vector<tessera::program::Program> built;
        for (std::size_t i = 0; i < nodes; ++i) {
            built.push_back(readNode(built));
        }
        const std::size_t roots = r_.below(kMaxItems, "program count");
        for (std::size_t i = 0; i < roots; ++i) {
            out_.programs.push_back(built[r_.below(built.size(), "program")]);
        }
    }

    // A program node as saved: its kind, its bodies and every field any kind uses.
    struct SavedNode {
        tessera::program::Kind kind = tessera::program::Kind::Sequence;
        std::string name;
        std::vector<tessera::program::Program> children;
        std::uint64_t computeSet = 0, count = 0;
        tessera::Tensor source, destination, predicate;
        std::string stream, message;
        std::vector<std::int64_t> cases;
    };

    tessera::program::Program readNode(const std::vector<tessera::program::Program>& built) {
        SavedNode n;
        n.kind = static_cast<tessera::program::Kind>(r_.below(kProgramKinds, "program kind"));
        n.name = r_.str();
        // Filled as read (never sized from a count first): the stream bounds them.
        const std::size_t children = r_.below(kMaxItems, "child count");
        for (std::size_t c = 0; c < children; ++c) {
            // Children come first: an index refers only to nodes already read.
            n.children.push_back(built[r_.below(built.size(), "child program")]);
        }
        n.computeSet = r_.u64();
        n.count = r_.u64();
        n.source = r_.tensor(graph());
        n.destination = r_.tensor(graph());
        n.predicate = r_.tensor(graph());
        n.stream = r_.str();
        n.message = r_.str();
        const std::size_t cases = r_.below(kMaxCases, "case count");
        for (std::size_t c = 0; c < cases; ++c) {
            n.cases.push_back(static_cast<std::int64_t>(r_.u64()));
        }
        // 0: the default rule; else 1 + the SyncScope.
        const std::size_t scope = r_.below(kSyncScopes + 1, "sync scope");
        std::string libraryFunction = r_.str(); // a Block's layer: empty is the application's
        tessera::program::Program p = build(n);
        if (scope != 0) {
            p.node()->syncScope = static_cast<tessera::program::SyncScope>(scope - 1);
        }
        if (n.kind == tessera::program::Kind::Block) {
            p.node()->libraryFunction = std::move(libraryFunction);
        }
        return p;
    }

    static void expectChildren(const SavedNode& n, std::size_t expected) {
        if (n.children.size() != expected) {
            Reader::damaged("a program of kind " + std::to_string(static_cast<int>(n.kind)) +
                            " with " + std::to_string(n.children.size()) + " children (" +
                            std::to_string(expected) + " expected)");
        }
    }

    // Made again through the program constructors, so a damaged stream meets
    // the same checks a program built by hand does.
    tessera::program::Program build(const SavedNode& n) {
        namespace program = tessera::program;
        using Kind = program::Kind;
        const auto& c = n.children;
        switch (n.kind) {
        case Kind::Sequence:
            return program::Sequence(c, n.name);
        case Kind::Execute:
            expectChildren(n, 0);
            if (n.computeSet >= graph().computeSets().size()) {
                Reader::damaged("program compute set " + std::to_string(n.computeSet));
            }
            return program::Execute(
                tessera::ComputeSet{tessera::record::idAt<tessera::ComputeSetId>(n.computeSet)},
                n.name);
        case Kind::Repeat:
            expectChildren(n, 1);
            return program::Repeat(static_cast<std::size_t>(n.count), c[0], n.name);
        case Kind::RepeatWhileTrue:
            expectChildren(n, 2);
            return program::RepeatWhileTrue(c[0], n.predicate, c[1], n.name);
        case Kind::RepeatWhileFalse:
            expectChildren(n, 2);
            return program::RepeatWhileFalse(c[0], n.predicate, c[1], n.name);
        case Kind::If:
            expectChildren(n, 2);
            return program::If(n.predicate, c[0], c[1], n.name);
        case Kind::Block:
            expectChildren(n, 1);
            return program::Block(c[0], n.name);
        case Kind::Switch: {
            expectChildren(n, n.cases.size() + 1);
            std::vector<std::pair<std::int64_t, program::Program>> bodies;
            for (std::size_t i = 0; i < n.cases.size(); ++i) {
                bodies.emplace_back(n.cases[i], c[i]);
            }
            return program::Switch(n.predicate, bodies, c.back(), n.name);
        }
        default:
            expectChildren(n, 0);
            return buildLeaf(n);
        }
    }

    tessera::program::Program buildLeaf(const SavedNode& n) {
        namespace program = tessera::program;
        using Kind = program::Kind;
        switch (n.kind) {
        case Kind::Copy:
            return program::Copy(n.source, n.destination, n.name);
        case Kind::StreamToDevice:
            return program::Copy(graph().stream(n.stream), n.destination, n.name);
        case Kind::StreamToHost:
            return program::Copy(n.source, graph().stream(n.stream), n.name);
        case Kind::PrintTensor:
            return program::PrintTensor(n.name, n.source);
        case Kind::Sync:
            return program::Sync();
        case Kind::Abort:
            return n.predicate.valid() ? program::Abort(n.predicate, n.message, n.name)
                                       : program::Abort(n.message, n.name);
        case Kind::CycleStamp:
            return n.source.valid() ? program::CycleStamp(n.destination, n.source, n.name)
                                    : program::CycleStamp(n.destination, n.name);
        default:
            Reader::damaged("program kind " + std::to_string(static_cast<int>(n.kind)));
        }
    }

    Reader r_;
    ReadExecutable out_;
};

} // namespace

ReadExecutable readExecutable(std::istream& in) {
    char magic[sizeof format::kMagic] = {};
    in.read(magic, sizeof magic);
    if (!in || std::memcmp(magic, format::kMagic, 4) != 0) {
        throw poplar_error("Executable::deserialize: not a Tessera executable");
    }
    if (std::memcmp(magic, format::kMagic, sizeof magic) != 0) {
        throw poplar_error("Executable::deserialize: a Tessera executable of another format (" +
                           std::string(magic + 4, 4) + "; this build reads " +
                           std::string(format::kMagic + 4, 4) + "): serialize it again");
    }
    try {
        return ExecutableReader(in).read();
    } catch (const poplar_error&) {
        throw;
    } catch (const tessera::Error& e) {
        // The graph refused what the stream asks of it (a codelet it lacks, a
        // connection of the wrong size...): the stream does not fit this build.
        throw poplar_error(std::string("Executable::deserialize: ") + e.what());
    }
}

} // namespace poplar::detail
