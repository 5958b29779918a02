// poplar::Engine: runs a graph's programs on Tessera's embedded engine.
// Including it brings in Graph, Program and the rest of the host API.
#ifndef TESSERA_POPLAR_ENGINE_HPP
#define TESSERA_POPLAR_ENGINE_HPP

#include <poplar/ArrayRef.hpp>
#include <poplar/Device.hpp>
#include <poplar/Executable.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StreamCallback.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>
#include <pva/pva.hpp>

#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#if __cplusplus >= 201703L
#include <optional>
#endif
#include <sstream>
#include <string>
#include <vector>

namespace poplar {

namespace detail {
struct EngineImpl;
}

typedef std::function<void(void*)> StreamCallbackFunc;

class Engine {
public:
    Engine(const Graph& graph, const program::Program& prog,
           const OptionFlags& options = OptionFlags());
    Engine(const Graph& graph, const std::vector<program::Program>& progs,
           const OptionFlags& options = OptionFlags());
    Engine(const Graph& graph, std::initializer_list<program::Program> progs,
           const OptionFlags& options = OptionFlags());
    explicit Engine(Executable&& exe, const OptionFlags& options = OptionFlags());
    ~Engine();
    Engine(Engine&& other);
    Engine& operator=(Engine&& other);

    void load(const Device& device);
    void run(unsigned prog = 0, const std::string& debugName = "");

    void writeTensor(StringRef handle, const void* buf, const void* bufEnd);
    void readTensor(StringRef handle, void* buf, void* bufEnd);
    // Single-transfer buffer, or a circular buffer [begin, end) whose position
    // carries across runs; connecting again replaces it.
    void connectStream(StringRef handle, void* p);
    void connectStream(StringRef handle, void* begin, void* end);
    void connectStreamToCallback(StringRef handle, std::unique_ptr<StreamCallback> f);
    void connectStreamToCallback(StringRef handle, unsigned index,
                                 std::unique_ptr<StreamCallback> f);
    void connectStreamToCallback(StringRef handle, StreamCallbackFunc f);
    void connectStreamToCallback(StringRef handle, unsigned index, StreamCallbackFunc f);

    // Memory and execution sections; {{"showExecutionSteps", "true"}} lists steps.
    void printProfileSummary(std::ostream& out, const OptionFlags& opts = OptionFlags()) const;
    // Where the report goes (empty unless autoReport is on).
    std::string getReportPath() const;
    // The report of what ran so far (libpva; link with -lpva), whether or not
    // autoReport is on; without reportExecution, the compilation only.
    pva::Report getReport(bool reportExecution = true);

    // Execution profiling brackets what the report and the profile summary
    // record: runs and steps while it is disabled are executed, not recorded.
    // It starts enabled; resetExecutionProfile forgets what was recorded.
    void enableExecutionProfiling();
    void disableExecutionProfiling();
    void resetExecutionProfile();
    // Where PrintTensor programs print (std::cout until set).
    void setPrintStream(std::ostream& stream);

    // Host access to a remote buffer's row `repeatIndex` (numElements() elements).
    void copyToRemoteBuffer(const void* src, const std::string& handle, std::uint64_t repeatIndex,
                            unsigned replicationIndex = 0);
    void copyFromRemoteBuffer(const std::string& handle, void* dst, std::uint64_t repeatIndex,
                              unsigned replicationIndex = 0);

private:
    std::unique_ptr<detail::EngineImpl> impl_;
};

// Compiles a graph and its programs for later use by an Engine.
Executable compileGraph(const Graph& graph, const std::vector<program::Program>& progs,
                        const OptionFlags& opts = OptionFlags());
Executable compileGraph(const Graph& graph, std::initializer_list<program::Program> progs,
                        const OptionFlags& opts = OptionFlags());

} // namespace poplar

#endif
