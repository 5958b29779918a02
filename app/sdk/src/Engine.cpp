// poplar::Engine on the engine's Engine, with autoReport (a report written by
// reports/' writer) and printProfileSummary.
#include "engine/runtime/Engine.h"

#include "BlockFlush.h"
#include "ExecutionProfiling.h"
#include "Impl.h"
#include "Options.h"
#include "ProfileSummary.h"
#include "RemoteBuffers.h"
#include "ReportCapture.h"
#include "Serialize.h"
#include "engine/compiler/Compiled.h"
#include "reports/ReportWriter.h"

#include <poplar/Engine.hpp>

#include <filesystem>
#include <fstream>

#ifndef TESSERA_VERSION
#define TESSERA_VERSION "unknown"
#endif

namespace poplar {

using detail::Access;
using detail::translate;

namespace detail {

struct ExecutableImpl {
    std::shared_ptr<GraphImpl> graph;
    std::vector<tessera::program::Program> programs;
};

ExecutableImpl& Access::executable(poplar::Executable& e) {
    if (!e.impl_) {
        throw poplar_error("use of an empty or moved-from Executable");
    }
    return *e.impl_;
}
void Access::setExecutable(poplar::Executable& e, std::unique_ptr<ExecutableImpl> impl) {
    e.impl_ = std::move(impl);
}

namespace {
std::string programName() {
    std::ifstream in("/proc/self/comm");
    std::string name;
    std::getline(in, name);
    return name.empty() ? std::string("poplar program") : name;
}
} // namespace

struct EngineImpl {
    std::shared_ptr<GraphImpl> graph;
    std::vector<tessera::program::Program> programs;
    EngineConfig config;
    std::unique_ptr<tessera::reports::ReportWriter> writer;
    std::unique_ptr<CaptureRecorder> capture; // for getReport()
    std::unique_ptr<SummaryRecorder> summary;
    std::unique_ptr<tessera::Engine> engine;
    std::vector<std::shared_ptr<StreamCallback>> callbacks;
    std::string reportPath;
    std::unique_ptr<ProfilingGate> gate; // enable/disableExecutionProfiling
    RemoteStorage remoteBuffers;

    EngineImpl(std::shared_ptr<GraphImpl> g, std::vector<tessera::program::Program> p,
               const OptionFlags& options)
        : graph(std::move(g))
        , programs(std::move(p))
        , config(engineConfig(options)) {
        programs = withBlockFlushes(programs, graph->graph, config);
        if (config.report) {
            namespace fs = std::filesystem;
            std::error_code ec;
            // As Poplar: <autoReport.directory>[/<engine name>]/profile.pop
            // (in Tessera's report format).
            fs::path dir = config.reportDirectory;
            if (!config.name.empty()) {
                dir /= config.name;
            }
            fs::create_directories(dir, ec);
            reportPath = (dir / "profile.pop").string();
            tessera::reports::WriterOptions wo;
            wo.toolVersion = TESSERA_VERSION;
            wo.workload = programName();
            wo.workloadParameters = config.profilerOptions;
            wo.keepIncomplete = true;
            try {
                writer = std::make_unique<tessera::reports::ReportWriter>(reportPath, wo);
            } catch (const std::exception& e) {
                throw poplar_error("autoReport: cannot write '" + reportPath + "': " + e.what());
            }
        }
        capture = std::make_unique<CaptureRecorder>(writer.get());
        summary = std::make_unique<SummaryRecorder>(capture.get());
        gate = std::make_unique<ProfilingGate>(summary.get());
        tessera::EngineOptions eo;
        eo.allowOutOfMemory = config.allowOutOfMemory;
        eo.recorder = gate.get();
        try {
            translate([&] {
                engine = std::make_unique<tessera::Engine>(graph->graph, programs, eo);
                connectRemoteBuffers(*graph, *engine, remoteBuffers);
                return 0;
            });
        } catch (const graph_memory_allocation_error&) {
            finishReport(); // the memory layout is the point of the report: keep it
            throw;
        }
    }

    ~EngineImpl() {
        try {
            finishReport();
        } catch (...) { // a destructor must not throw; the partial file stays
        }
    }

    void finishReport() {
        if (writer) {
            writer->finish();
            writer.reset();
        }
    }
};

} // namespace detail

namespace {
std::vector<tessera::program::Program> engineProgramList(const std::vector<program::Program>& ps) {
    std::vector<tessera::program::Program> out;
    for (const program::Program& p : ps) {
        out.push_back(Access::program(p));
    }
    return out;
}
} // namespace

Engine::Engine(const Graph& graph, const program::Program& prog, const OptionFlags& options)
    : Engine(graph, std::vector<program::Program>{prog}, options) {}

Engine::Engine(const Graph& graph, std::initializer_list<program::Program> progs,
               const OptionFlags& options)
    : Engine(graph, std::vector<program::Program>(progs), options) {}

Engine::Engine(const Graph& graph, const std::vector<program::Program>& progs,
               const OptionFlags& options)
    : impl_(std::make_unique<detail::EngineImpl>(Access::graphPtr(graph), engineProgramList(progs),
                                                 options)) {}

Engine::Engine(Executable&& exe, const OptionFlags& options) {
    detail::ExecutableImpl& e = Access::executable(exe);
    impl_ = std::make_unique<detail::EngineImpl>(e.graph, e.programs, options);
}

Engine::~Engine() = default;
Engine::Engine(Engine&& other) = default;
Engine& Engine::operator=(Engine&& other) = default;

void Engine::load(const Device&) {}

void Engine::run(unsigned prog, const std::string&) {
    translate([&] {
        if (prog >= impl_->programs.size()) {
            throw poplar_error("Engine::run: no program " + std::to_string(prog) +
                               " (the engine has " + std::to_string(impl_->programs.size()) + ")");
        }
        impl_->engine->run(prog);
        return 0;
    });
}

void Engine::writeTensor(StringRef handle, const void* buf, const void* bufEnd) {
    translate([&] {
        impl_->engine->writeTensor(handle, buf, bufEnd);
        return 0;
    });
}

void Engine::readTensor(StringRef handle, void* buf, void* bufEnd) {
    translate([&] {
        impl_->engine->readTensor(handle, buf, bufEnd);
        return 0;
    });
}

void Engine::connectStream(StringRef handle, void* p) {
    translate([&] {
        impl_->engine->connectStream(handle, p);
        return 0;
    });
}

void Engine::connectStream(StringRef handle, void* begin, void* end) {
    translate([&] {
        impl_->engine->connectStream(handle, begin, end);
        return 0;
    });
}

void Engine::connectStreamToCallback(StringRef handle, std::unique_ptr<StreamCallback> f) {
    std::shared_ptr<StreamCallback> cb(std::move(f));
    translate([&] {
        const bool toDevice = impl_->graph->graph.stream(handle).toDevice;
        impl_->engine->connectStreamToCallback(handle, [cb, toDevice](void* p) {
            // Host to device: a prefetched buffer needs no fetch.
            if (!toDevice || cb->prefetch(p) != StreamCallback::Result::Success) {
                cb->fetch(p);
            }
            cb->complete();
        });
        return 0;
    });
    impl_->callbacks.push_back(cb);
}

void Engine::connectStreamToCallback(StringRef handle, unsigned,
                                     std::unique_ptr<StreamCallback> f) {
    connectStreamToCallback(handle, std::move(f));
}

void Engine::connectStreamToCallback(StringRef handle, StreamCallbackFunc f) {
    connectStreamToCallback(handle, std::unique_ptr<StreamCallback>(new StreamCallbackFunction(f)));
}

void Engine::connectStreamToCallback(StringRef handle, unsigned, StreamCallbackFunc f) {
    connectStreamToCallback(handle, std::move(f));
}

void Engine::printProfileSummary(std::ostream& out, const OptionFlags& opts) const {
    bool steps = false;
    for (const auto& [key, value] : opts) {
        if (key == "showExecutionSteps") {
            steps = value == "true" || value == "1";
        }
    }
    detail::printSummary(out, *impl_->summary, steps);
}

std::string Engine::getReportPath() const {
    return impl_->reportPath;
}

pva::Report Engine::getReport(bool reportExecution) {
    return impl_->capture->report(reportExecution, TESSERA_VERSION, detail::programName(),
                                  impl_->config.profilerOptions);
}

void Engine::enableExecutionProfiling() {
    impl_->gate->setEnabled(true);
}

void Engine::disableExecutionProfiling() {
    impl_->gate->setEnabled(false);
}

void Engine::resetExecutionProfile() {
    // The summary, getReport() and the autoReport file all start again.
    impl_->gate->restartNumbering();
    impl_->summary->resetExecution();
    impl_->capture->discardRuns();
    if (impl_->writer) {
        try {
            impl_->writer->discardRuns();
        } catch (const std::exception& e) {
            throw poplar_error(std::string("resetExecutionProfile: ") + e.what());
        }
    }
}

void Engine::setPrintStream(std::ostream& stream) {
    impl_->engine->setPrintStream(&stream);
}

void Engine::copyToRemoteBuffer(const void* src, const std::string& handle,
                                std::uint64_t repeatIndex, unsigned replicationIndex) {
    if (replicationIndex != 0) {
        throw unsupported_feature_error("replicated graphs (copyToRemoteBuffer replica " +
                                        std::to_string(replicationIndex) + ")");
    }
    detail::copyRemoteRow(*impl_->graph, impl_->remoteBuffers, handle, repeatIndex,
                          const_cast<void*>(src), true);
}

void Engine::copyFromRemoteBuffer(const std::string& handle, void* dst, std::uint64_t repeatIndex,
                                  unsigned replicationIndex) {
    if (replicationIndex != 0) {
        throw unsupported_feature_error("replicated graphs (copyFromRemoteBuffer replica " +
                                        std::to_string(replicationIndex) + ")");
    }
    detail::copyRemoteRow(*impl_->graph, impl_->remoteBuffers, handle, repeatIndex, dst, false);
}

// ---- Executable ---------------------------------------------------------------

Executable::Executable() = default;
Executable::~Executable() = default;
Executable::Executable(Executable&& other) = default;
Executable& Executable::operator=(Executable&& other) = default;

void Executable::serialize(std::ostream& out) const {
    if (!impl_) {
        throw poplar_error("Executable::serialize: an empty or moved-from Executable");
    }
    translate([&] {
        detail::writeExecutable(out, *impl_->graph, impl_->programs);
        return 0;
    });
}

Executable Executable::deserialize(std::istream& in) {
    auto impl = std::make_unique<detail::ExecutableImpl>();
    translate([&] {
        detail::ReadExecutable read = detail::readExecutable(in);
        impl->graph = std::move(read.graph);
        impl->programs = std::move(read.programs);
        tessera::compiler::compile(impl->graph->graph, impl->programs);
        return 0;
    });
    Executable exe;
    Access::setExecutable(exe, std::move(impl));
    return exe;
}

Executable compileGraph(const Graph& graph, const std::vector<program::Program>& progs,
                        const OptionFlags&) {
    auto impl = std::make_unique<detail::ExecutableImpl>();
    impl->graph = Access::graphPtr(graph);
    impl->programs = engineProgramList(progs);
    // Compile now so errors surface here, as with Poplar's compileGraph.
    translate([&] {
        tessera::compiler::compile(impl->graph->graph, impl->programs);
        return 0;
    });
    Executable exe;
    Access::setExecutable(exe, std::move(impl));
    return exe;
}

Executable compileGraph(const Graph& graph, std::initializer_list<program::Program> progs,
                        const OptionFlags& opts) {
    return compileGraph(graph, std::vector<program::Program>(progs), opts);
}

} // namespace poplar
