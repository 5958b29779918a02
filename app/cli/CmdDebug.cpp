// tessera-cli debug WORKLOAD [--target T] [--set k=v]... --break STEP|NAME --print TENSOR...
// [--list]
#include "Commands.h"
#include "Output.h"
#include "WorkloadOptions.h"
#include "engine/core/Error.h"
#include "engine/debug/DebugSession.h"
#include "engine/runtime/TensorPrinter.h"
#include "reports/Figures.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace tessera::cli {

namespace {

constexpr std::uint64_t kMaxHit = 1000000000;

void listProgram(const Graph& graph, const compiler::CompiledGraph& compiled) {
    print("steps (program order):\n");
    for (const compiler::StepId s : record::idRange<compiler::StepId>(compiled.steps.size())) {
        const compiler::StepPlan& p = compiled.step(s);
        print("  %4u  %-18s %s\n", s.value(), record::programKindName(p.kind), p.name.c_str());
    }
    print("blocks:\n");
    for (const auto& n : compiled.nodes) {
        if (n.kind == record::ProgramKind::Block) {
            print("  %s\n", n.name.c_str());
        }
    }
    print("tensors:\n");
    for (const VariableData& v : graph.variables()) {
        print("  %-32s %-12s %s\n", v.name.c_str(), std::string(typeName(v.type)).c_str(),
              reports::shapeText(v.shape).c_str()); // as the panes show it
    }
}

// Which tiles hold the tensor, as "tile 3: 16 elements, tile 4: 16 elements".
std::string ownership(const std::vector<TileId>& owners) {
    std::ostringstream os;
    std::size_t i = 0;
    int shown = 0;
    while (i < owners.size()) {
        std::size_t j = i;
        while (j < owners.size() && owners[j] == owners[i]) {
            ++j;
        }
        if (shown++ == 8) {
            os << ", ...";
            break;
        }
        os << (shown > 1 ? ", " : "") << "tile " << owners[i].value() << ": [" << i << "," << j
           << ")";
        i = j;
    }
    return os.str();
}

int debug(const ParsedArgs& args) {
    // The debugger runs a program that overflows (it stops at the step that
    // does), so only the host limit applies.
    const WorkloadChoice choice = chooseWorkload(args, true);
    const std::uint64_t hits = parseCount("--hit", args.value("--hit", "1"), 1, kMaxHit);
    Graph graph(choice.target);
    workloads::Built built = choice.workload->build(graph, choice.params);
    EngineOptions options;
    options.threads = choice.threads;
    options.allowOutOfMemory = true; // the debugger stops at the step that overflows instead
    Engine engine(graph, built.programs, options);
    if (args.has("--list")) {
        listProgram(graph, engine.compiled());
        return kExitOk;
    }
    const auto breaks = args.values("--break");
    const auto prints = args.values("--print");
    if (breaks.empty()) {
        throw UsageError("'debug' needs --break STEP|NAME (or --list to see the steps)");
    }
    std::vector<Tensor> tensors;
    for (const std::string& name : prints) {
        tensors.push_back(graph.findTensor(name)); // throws naming an unknown tensor
    }
    if (built.setUp) {
        built.setUp(engine);
    }
    debug::DebugSession session(engine, built.runOrder.front());
    for (const std::string& b : breaks) {
        if (session.breakAt(b) == 0) {
            throw UsageError("--break '" + b +
                             "' matches no step, compute set or block (see --list)");
        }
    }
    debug::Stop stop;
    for (std::uint64_t hit = 0; hit < hits; ++hit) {
        do {
            stop = session.continueRun();
        } while (stop.reason == debug::StopReason::OutOfMemory);
        if (stop.reason != debug::StopReason::Breakpoint) {
            break;
        }
    }
    if (stop.reason == debug::StopReason::Error) {
        printError("the program failed at step " + std::to_string(stop.step.value()) + ": " +
                   stop.message);
        return kExitFailed;
    }
    if (stop.reason != debug::StopReason::Breakpoint) {
        printError("the program finished without reaching the breakpoint" +
                   std::string(hits > 1 ? " " + std::to_string(hits) + " times" : ""));
        return kExitFailed;
    }
    const compiler::StepPlan& plan = engine.compiled().step(stop.step);
    print("stopped before step %u '%s' (%s) after %llu steps, %llu cycles\n", stop.step.value(),
          plan.name.c_str(), record::programKindName(plan.kind),
          static_cast<unsigned long long>(session.stepsExecuted()),
          static_cast<unsigned long long>(session.cycles()));
    for (const Tensor& t : tensors) {
        if (!session.isLive(t)) { // its bytes may belong to another variable now
            print("%s: not live at this step\n", t.describe().c_str());
            continue;
        }
        std::ostringstream os;
        printTensorValues(os, t.describe(), t.elementType(), t.shape(), session.read(t));
        print("%s", os.str().c_str());
        print("  lives on %s\n", ownership(session.owners(t)).c_str());
    }
    return kExitOk;
}

} // namespace

Command debugCommand() {
    CommandSpec spec;
    spec.name = "debug";
    spec.summary = "Run a workload to a breakpoint and print tensor values there";
    spec.synopsis = "WORKLOAD --break STEP|NAME [--print TENSOR]... [--hit N] | WORKLOAD --list";
    spec.description =
        "Runs the workload in the engine's debugger and stops before the first step\n"
        "matching a breakpoint: a step number, or the name of a step, compute set or\n"
        "block (--list shows them, and the tensors). --hit N stops at the Nth hit, e.g.\n"
        "the third iteration of a loop. Each --print tensor is printed as PrintTensor\n"
        "would, with the tiles that hold it. Exit status 1 when the breakpoint is never\n"
        "reached or the program fails.";
    spec.options = {
        {"--break", "-b", "STEP|NAME", "stop before this step, compute set or block", true},
        {"--print", "-p", "TENSOR", "tensor to print when stopped", true},
        {"--hit", "", "N",
         "stop at the Nth time a breakpoint is reached (1 to 1000000000; default 1)"},
        {"--list", "", "", "list the steps, blocks and tensors, then exit"},
    };
    const auto shared = workloadOptionSpecs();
    spec.options.insert(spec.options.begin(), shared.begin(), shared.end());
    spec.minPositionals = spec.maxPositionals = 1;
    spec.positionalNames = "a workload name (see 'tessera-cli workloads')";
    return {spec, debug};
}

} // namespace tessera::cli
