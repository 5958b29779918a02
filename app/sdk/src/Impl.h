#pragma once
// What the public poplar:: handles point at: the engine's own objects. Only
// the compat libraries include this (C++20); user code never sees it.
#include "engine/core/Error.h"
#include "engine/graph/Graph.h"
#include "engine/program/Program.h"
#include "engine/target/Target.h"

#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace poplar::detail {

struct TargetImpl {
    tessera::Target target;
    poplar::TargetType type = poplar::TargetType::IPU_MODEL;
};

struct ProgramImpl {
    tessera::program::Program program;
};

struct ExecutableImpl;

// A remote buffer: host-side rows the engine's Copy programs reach through
// streams of their own (so they cost what the host link costs).
struct RemoteBufferInfo {
    tessera::Type type = tessera::Type::Float;
    std::size_t numElements = 0;
    std::size_t repeats = 0;
};
// One Copy to or from a remote buffer: the stream it runs as, the rows it
// moves (offset's values, else rows 0..rows-1).
struct RemoteCopy {
    std::string stream;
    std::string buffer;
    bool toDevice = true;
    tessera::Tensor offset; // invalid: no offset tensor
    std::size_t rows = 1;
};

struct GraphImpl {
    explicit GraphImpl(const tessera::Target& t)
        : graph(t)
        , target() {}
    tessera::Graph graph;
    poplar::Target target;
    std::vector<std::string> codeletObjects; // shared objects addCodelets loaded
    std::map<std::string, RemoteBufferInfo> remoteBuffers;
    std::vector<RemoteCopy> remoteCopies;
    unsigned functions = 0;
};

// Libraries with codelets of their own (popops, popnn) register a function
// adding them to a graph, so a deserialised executable finds them.
void registerCodeletProvider(void (*provider)(tessera::Graph&));
void addProvidedCodelets(tessera::Graph& graph);

// Friend of every handle: converts between handles and engine objects.
struct Access {
    static const tessera::Target& target(const poplar::Target& t) { return t.impl_->target; }
    static poplar::Target makeTarget(const tessera::Target& t,
                                     poplar::TargetType type = poplar::TargetType::IPU_MODEL) {
        poplar::Target out;
        auto impl = std::make_shared<TargetImpl>();
        impl->target = t;
        impl->type = type;
        out.impl_ = impl;
        return out;
    }
    static const std::shared_ptr<TargetImpl>& targetImpl(const poplar::Target& t) {
        return t.impl_;
    }

    static poplar::RemoteBuffer makeRemoteBuffer(std::shared_ptr<GraphImpl> g,
                                                 const std::string& handle, poplar::Type type,
                                                 std::size_t n, std::size_t repeats) {
        poplar::RemoteBuffer b;
        b.graph_ = std::move(g);
        b.handle_ = handle;
        b.type_ = type;
        b.numElements_ = n;
        b.repeats_ = repeats;
        return b;
    }
    static GraphImpl& remoteBufferGraph(const poplar::RemoteBuffer& b);
    static poplar::Function makeFunction(unsigned id, const poplar::program::Program& body) {
        poplar::Function f;
        f.id_ = id;
        f.body_ = body.impl_;
        return f;
    }
    static const tessera::program::Program& functionBody(const poplar::Function& f);

    static const tessera::Tensor& tensor(const poplar::Tensor& t);
    static poplar::Tensor makeTensor(tessera::Tensor t) {
        poplar::Tensor out;
        held(out) = std::move(t);
        out.engaged_ = true;
        return out;
    }
    // The engine tensor a poplar::Tensor holds in place (Core.cpp).
    static tessera::Tensor& held(poplar::Tensor& t) {
        return *std::launder(reinterpret_cast<tessera::Tensor*>(t.engine_));
    }
    static const tessera::Tensor& held(const poplar::Tensor& t) {
        return *std::launder(reinterpret_cast<const tessera::Tensor*>(t.engine_));
    }
    static std::vector<tessera::Tensor> tensors(const std::vector<poplar::Tensor>& ts) {
        std::vector<tessera::Tensor> out;
        out.reserve(ts.size());
        for (const poplar::Tensor& t : ts) {
            out.push_back(tensor(t));
        }
        return out;
    }

    static const tessera::program::Program& program(const poplar::program::Program& p) {
        return p.impl_->program;
    }
    static void setProgram(poplar::program::Program& p, tessera::program::Program engine) {
        p.impl_ = std::make_shared<ProgramImpl>(ProgramImpl{std::move(engine)});
    }

    static GraphImpl& graph(const poplar::Graph& g);
    static ExecutableImpl& executable(poplar::Executable& e);
    static void setExecutable(poplar::Executable& e, std::unique_ptr<ExecutableImpl> impl);
    static const std::shared_ptr<GraphImpl>& graphPtr(const poplar::Graph& g) { return g.impl_; }
};

// Runs an engine library operation that appends to a tessera Sequence, and
// appends what it added to the Poplar sequence `seq`.
template <typename F>
auto intoSequence(poplar::program::Sequence& seq, F&& f)
    -> decltype(f(std::declval<tessera::program::Sequence&>())) {
    tessera::program::Sequence tmp;
    auto appendTo = [&] {
        auto& children = Access::program(seq).node()->children;
        for (const auto& child : tmp.node()->children) {
            children.push_back(child);
        }
    };
    if constexpr (std::is_void_v<decltype(f(tmp))>) {
        f(tmp);
        appendTo();
    } else {
        auto result = f(tmp);
        appendTo();
        return result;
    }
}

// The engine's element type for a poplar::Type (throws poplar_error).
tessera::Type engineType(const poplar::Type& t);
poplar::Type poplarType(tessera::Type t);

// The engine's sync scope for a SyncType (the same three levels).
inline tessera::program::SyncScope syncScope(SyncType type) {
    switch (type) {
    case SyncType::INTERNAL:
        return tessera::program::SyncScope::Internal;
    case SyncType::EXTERNAL:
        return tessera::program::SyncScope::External;
    case SyncType::GLOBAL:
        return tessera::program::SyncScope::Global;
    }
    return tessera::program::SyncScope::Internal;
}

// A shape as the engine takes it.
inline std::vector<std::size_t> sizes(ArrayRef<std::size_t> a) {
    return std::vector<std::size_t>(a.begin(), a.end());
}

// Runs `f`, turning the engine's errors into Poplar's exceptions.
template <typename F>
auto translate(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const tessera::OutOfMemoryError& e) {
        throw poplar::graph_memory_allocation_error(
            std::string(e.what()) +
            " (the engine option debug.allowOutOfMemory runs and profiles it anyway)");
    } catch (const tessera::AbortError& e) {
        throw poplar::application_runtime_error(e.what());
    } catch (const tessera::ValidationError& e) {
        throw poplar::graph_program_compilation_error(e.what());
    } catch (const poplar::poplar_error&) {
        throw;
    } catch (const tessera::Error& e) {
        throw poplar::poplar_error(e.what());
    }
}

} // namespace poplar::detail
