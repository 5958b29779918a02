// Turns program trees into numbered nodes, program steps and instructions.
#include "engine/compiler/Passes.h"
#include "engine/core/Error.h"

namespace tessera::compiler {

namespace {

using program::Kind;
using record::ProgramKind;

ProgramKind recordKind(Kind k) {
    switch (k) {
    case Kind::Sequence:
        return ProgramKind::Sequence;
    case Kind::Execute:
        return ProgramKind::Execute;
    case Kind::Repeat:
        return ProgramKind::Repeat;
    case Kind::RepeatWhileTrue:
        return ProgramKind::RepeatWhileTrue;
    case Kind::RepeatWhileFalse:
        return ProgramKind::RepeatWhileFalse;
    case Kind::If:
        return ProgramKind::If;
    case Kind::Copy:
        return ProgramKind::Copy;
    case Kind::StreamToDevice:
        return ProgramKind::StreamToDevice;
    case Kind::StreamToHost:
        return ProgramKind::StreamToHost;
    case Kind::PrintTensor:
        return ProgramKind::PrintTensor;
    case Kind::Block:
        return ProgramKind::Block;
    case Kind::Sync:
        return ProgramKind::Sync;
    case Kind::Switch:
        return ProgramKind::Switch;
    case Kind::Abort:
        return ProgramKind::Abort;
    case Kind::CycleStamp:
        return ProgramKind::CycleStamp;
    }
    return ProgramKind::Sequence;
}

class Flattener {
public:
    Flattener(CompiledGraph& out, std::uint32_t programIndex)
        : out_(out)
        , programIndex_(programIndex) {}

    void visit(const program::Node& n, std::uint32_t parent, std::uint32_t operation, int depth) {
        if (depth > 10000) {
            throw Error("program nesting deeper than 10000 levels (a program containing itself?)");
        }
        const std::uint32_t id = addNode(n, parent);
        auto& code = out_.programs[programIndex_];
        switch (n.kind) {
        case Kind::Sequence:
            for (const auto& c : n.children) {
                visit(*c, id, operation, depth + 1);
            }
            break;
        case Kind::Block:
            for (const auto& c : n.children) {
                visit(*c, id, id, depth + 1);
            }
            break;
        case Kind::Repeat: {
            const std::size_t init = code.size();
            code.push_back({Op::LoopInit, StepId::none(), n.count, 0, true});
            const auto bodyStart = static_cast<std::uint32_t>(code.size());
            const auto firstStep = record::idAt<StepId>(out_.steps.size());
            visit(*n.children[0], id, operation, depth + 1);
            code.push_back({Op::LoopNext, StepId::none(), 0, bodyStart, true});
            code[init].target = static_cast<std::uint32_t>(code.size());
            addLoop(firstStep);
            break;
        }
        case Kind::RepeatWhileTrue:
        case Kind::RepeatWhileFalse: {
            const auto start = static_cast<std::uint32_t>(code.size());
            const auto firstStep = record::idAt<StepId>(out_.steps.size());
            visit(*n.children[0], id, operation, depth + 1);
            const StepId pred = addPredicateStep(n, id, operation);
            const std::size_t jump = code.size();
            code.push_back({Op::JumpIfNot, pred, 0, 0, n.kind == Kind::RepeatWhileTrue});
            visit(*n.children[1], id, operation, depth + 1);
            code.push_back({Op::Jump, StepId::none(), 0, start, true});
            code[jump].target = static_cast<std::uint32_t>(code.size());
            addLoop(firstStep);
            break;
        }
        case Kind::If: {
            const StepId pred = addPredicateStep(n, id, operation);
            const std::size_t jumpToElse = code.size();
            code.push_back({Op::JumpIfNot, pred, 0, 0, true});
            visit(*n.children[0], id, operation, depth + 1);
            const std::size_t jumpToEnd = code.size();
            code.push_back({Op::Jump, StepId::none(), 0, 0, true});
            code[jumpToElse].target = static_cast<std::uint32_t>(code.size());
            visit(*n.children[1], id, operation, depth + 1);
            code[jumpToEnd].target = static_cast<std::uint32_t>(code.size());
            break;
        }
        case Kind::Switch: {
            // The predicate step reads the control value; a branch per case.
            const StepId pred = addPredicateStep(n, id, operation);
            code.push_back({Op::Step, pred, 0, 0, true});
            const std::size_t firstBranch = code.size();
            for (std::int64_t value : n.cases) {
                Instruction branch{Op::JumpIfEqual, pred, 0, 0, true};
                branch.value = value;
                code.push_back(branch);
            }
            const std::size_t jumpToDefault = code.size(); // no case matched
            code.push_back({Op::Jump, StepId::none(), 0, 0, true});
            std::vector<std::size_t> jumpsToEnd;
            for (std::size_t c = 0; c < n.children.size(); ++c) {
                const auto start = static_cast<std::uint32_t>(code.size());
                code[c < n.cases.size() ? firstBranch + c : jumpToDefault].target = start;
                visit(*n.children[c], id, operation, depth + 1);
                jumpsToEnd.push_back(code.size());
                code.push_back({Op::Jump, StepId::none(), 0, 0, true});
            }
            for (std::size_t j : jumpsToEnd) {
                code[j].target = static_cast<std::uint32_t>(code.size());
            }
            break;
        }
        case Kind::Abort:
            if (n.predicate.valid()) {
                const StepId pred = addPredicateStep(n, id, operation);
                code.push_back({Op::Step, pred, 0, 0, true});
                out_.steps[pred.value()].abortMessage = n.message.empty() ? "aborted" : n.message;
            } else {
                const StepId s = addStep(n, id, operation, ProgramKind::Abort);
                out_.steps[s.value()].abortMessage = n.message.empty() ? "aborted" : n.message;
            }
            break;
        case Kind::CycleStamp: {
            const StepId s = addStep(n, id, operation, ProgramKind::CycleStamp);
            out_.steps[s.value()].cycleStamp = true;
            break;
        }
        default:
            addStep(n, id, operation, recordKind(n.kind));
            break;
        }
    }

private:
    std::uint32_t addNode(const program::Node& n, std::uint32_t parent) {
        record::ProgramNodeRecord r;
        r.id = record::ProgramNodeId{static_cast<std::uint32_t>(out_.nodes.size())};
        r.parent = record::ProgramNodeId{parent};
        r.programIndex = programIndex_;
        r.kind = recordKind(n.kind);
        r.name = n.name;
        r.computeSet = n.kind == Kind::Execute ? n.computeSet : ComputeSetId::none();
        r.repeatCount = n.kind == Kind::Repeat ? n.count : 0;
        if (n.kind == Kind::Block) {
            r.layer = n.libraryFunction.empty() ? record::OperationLayer::Application
                                                : record::OperationLayer::Library;
            r.libraryFunction = n.libraryFunction;
        }
        if (n.kind == Kind::Execute &&
            record::index(n.computeSet) >= out_.graph->computeSets().size()) {
            throw Error("Execute: compute set id " + std::to_string(n.computeSet.value()) +
                        " does not belong to this graph");
        }
        out_.nodes.push_back(r);
        return r.id.value();
    }

    StepId addStep(const program::Node& n, std::uint32_t node, std::uint32_t operation,
                   ProgramKind kind) {
        StepPlan s;
        s.kind = kind;
        s.node = node;
        s.programIndex = programIndex_;
        s.operation = operation;
        s.computeSet = kind == ProgramKind::Execute ? n.computeSet : ComputeSetId::none();
        s.stream = n.stream;
        s.source = n.source;
        s.destination = n.destination;
        s.name = n.name;
        s.syncScope = n.syncScope;
        if (s.name.empty()) {
            s.name = defaultName(n, kind);
        }
        const auto id = record::idAt<StepId>(out_.steps.size());
        out_.steps.push_back(std::move(s));
        if (kind != ProgramKind::Predicate) {
            out_.nodes[node].step = id;
        }
        out_.programs[programIndex_].push_back({Op::Step, id, 0, 0, true});
        return id;
    }

    StepId addPredicateStep(const program::Node& n, std::uint32_t node, std::uint32_t operation) {
        program::Node pred;
        pred.kind = n.kind;
        pred.name =
            (n.name.empty() ? std::string(record::programKindName(recordKind(n.kind))) : n.name) +
            "/predicate";
        const StepId id = addStep(pred, node, operation, ProgramKind::Predicate);
        out_.programs[programIndex_].pop_back(); // the JumpIfNot evaluates it
        out_.steps[id.value()].source = n.predicate;
        return id;
    }

    std::string defaultName(const program::Node& n, ProgramKind kind) const {
        switch (kind) {
        case ProgramKind::Execute:
            return out_.graph->computeSet(n.computeSet).name;
        case ProgramKind::Copy:
            return "Copy " + n.source.describe() + " -> " + n.destination.describe();
        case ProgramKind::StreamToDevice:
            return "StreamCopy " + n.stream + " -> " + n.destination.describe();
        case ProgramKind::StreamToHost:
            return "StreamCopy " + n.source.describe() + " -> " + n.stream;
        case ProgramKind::PrintTensor:
            return "Print " + n.source.describe();
        default:
            return record::programKindName(kind);
        }
    }

    void addLoop(StepId firstStep) {
        // The body's steps: [firstStep, last step added].
        if (out_.steps.size() > record::index(firstStep)) {
            out_.loops.emplace_back(firstStep, record::idAt<StepId>(out_.steps.size() - 1));
        }
    }

    CompiledGraph& out_;
    std::uint32_t programIndex_;
};

} // namespace

void flattenPrograms(const std::vector<program::Program>& programs, CompiledGraph& out) {
    out.programs.resize(programs.size());
    for (std::uint32_t i = 0; i < programs.size(); ++i) {
        const auto first = record::idAt<StepId>(out.steps.size());
        Flattener(out, i).visit(*programs[i].node(), record::kNone, record::kNone, 0);
        out.programSteps.emplace_back(first, record::idAt<StepId>(out.steps.size()));
    }
}

} // namespace tessera::compiler
