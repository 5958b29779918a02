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
constexpr std::uint64_t kProgramKinds =
    static_cast<std::uint64_t>(tessera::program::Kind::CycleStamp) + 1;

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
        // A known preset's defaults, else mk2's: every parameter follows anyway.
        tessera::Target target = tessera::Target::preset("mk2");
        try {
            target = tessera::Target::preset(name);
        } catch (const tessera::Error&) {
        }
        const std::size_t params = r_.below(1024, "target parameter count");
        for (std::size_t i = 0; i < params; ++i) {
            const std::string key = r_.str();
            target.set(key, r_.str());
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
            const auto tile = static_cast<tessera::TileId>(r_.below(tiles(), "tile"));
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
        const auto cs =
            static_cast<tessera::ComputeSetId>(r_.below(g.computeSets().size(), "compute set"));
        const std::uint64_t tile = r_.u64();
        if (tile != tessera::kNoId && tile >= tiles()) {
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
        if (tile != tessera::kNoId) {
            g.setTileMapping(v, static_cast<tessera::TileId>(tile));
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

    // Each node is made again through the program constructors, so a damaged
    // stream meets the same checks a program built by hand does.
    tessera::program::Program readNode(const std::vector<tessera::program::Program>& built) {
        namespace program = tessera::program;
        using Kind = program::Kind;
        const auto kind = static_cast<Kind>(r_.below(kProgramKinds, "program kind"));
        const std::string name = r_.str();
        // Filled as read (never sized from a count first): the stream bounds them.
        std::vector<program::Program> children;
        const std::size_t childCount = r_.below(kMaxItems, "child count");
        for (std::size_t c = 0; c < childCount; ++c) {
            // Children come first: an index refers only to nodes already read.
            children.push_back(built[r_.below(built.size(), "child program")]);
        }
        const std::uint64_t cs = r_.u64();
        const std::uint64_t count = r_.u64();
        const tessera::Tensor source = r_.tensor(graph());
        const tessera::Tensor destination = r_.tensor(graph());
        const tessera::Tensor predicate = r_.tensor(graph());
        const std::string stream = r_.str();
        const std::string message = r_.str();
        std::vector<std::int64_t> cases;
        const std::size_t caseCount = r_.below(kMaxCases, "case count");
        for (std::size_t c = 0; c < caseCount; ++c) {
            cases.push_back(static_cast<std::int64_t>(r_.u64()));
        }
        const auto expect = [&](std::size_t n) {
            if (children.size() != n) {
                Reader::damaged("a program of kind " + std::to_string(static_cast<int>(kind)) +
                                " with " + std::to_string(children.size()) + " children (" +
                                std::to_string(n) + " expected)");
            }
        };
        if (kind != Kind::Sequence && kind != Kind::Switch) {
            const bool nested = kind == Kind::Repeat || kind == Kind::Block;
            const bool twoBodies =
                kind == Kind::If || kind == Kind::RepeatWhileTrue || kind == Kind::RepeatWhileFalse;
            expect(nested ? 1 : twoBodies ? 2 : 0);
        }
        switch (kind) {
        case Kind::Sequence:
            return program::Sequence(children, name);
        case Kind::Execute:
            if (cs >= graph().computeSets().size()) {
                Reader::damaged("program compute set " + std::to_string(cs));
            }
            return program::Execute(tessera::ComputeSet{static_cast<tessera::ComputeSetId>(cs)},
                                    name);
        case Kind::Repeat:
            return program::Repeat(static_cast<std::size_t>(count), children[0], name);
        case Kind::RepeatWhileTrue:
            return program::RepeatWhileTrue(children[0], predicate, children[1], name);
        case Kind::RepeatWhileFalse:
            return program::RepeatWhileFalse(children[0], predicate, children[1], name);
        case Kind::If:
            return program::If(predicate, children[0], children[1], name);
        case Kind::Copy:
            return program::Copy(source, destination, name);
        case Kind::StreamToDevice:
            return program::Copy(graph().stream(stream), destination, name);
        case Kind::StreamToHost:
            return program::Copy(source, graph().stream(stream), name);
        case Kind::PrintTensor:
            return program::PrintTensor(name, source);
        case Kind::Block:
            return program::Block(children[0], name);
        case Kind::Sync:
            return program::Sync();
        case Kind::Switch: {
            expect(cases.size() + 1);
            std::vector<std::pair<std::int64_t, program::Program>> bodies;
            for (std::size_t c = 0; c < cases.size(); ++c) {
                bodies.emplace_back(cases[c], children[c]);
            }
            return program::Switch(predicate, bodies, children.back(), name);
        }
        case Kind::Abort:
            return predicate.valid() ? program::Abort(predicate, message, name)
                                     : program::Abort(message, name);
        case Kind::CycleStamp:
            return source.valid() ? program::CycleStamp(destination, source, name)
                                  : program::CycleStamp(destination, name);
        }
        Reader::damaged("program kind");
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
