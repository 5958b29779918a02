// libpva's programs: the program tree read from the report, one object of
// its type's class per program, and visitor dispatch.
#include "ReportData.h"

namespace pva {

namespace detail {

namespace {

using tessera::record::ProgramKind;

Program::Type programType(ProgramKind kind) {
    switch (kind) {
    case ProgramKind::Sequence:
        return Program::Type::Sequence;
    case ProgramKind::Execute:
        return Program::Type::OnTileExecute;
    case ProgramKind::Repeat:
        return Program::Type::Repeat;
    case ProgramKind::RepeatWhileTrue:
        return Program::Type::RepeatWhileTrue;
    case ProgramKind::RepeatWhileFalse:
        return Program::Type::RepeatWhileFalse;
    case ProgramKind::If:
        return Program::Type::If;
    case ProgramKind::Switch:
        return Program::Type::Switch;
    case ProgramKind::Copy:
        return Program::Type::DoExchange;
    case ProgramKind::PrintTensor:
        return Program::Type::PrintTensor;
    case ProgramKind::Block:
        return Program::Type::Block;
    case ProgramKind::Sync:
        return Program::Type::Sync;
    case ProgramKind::StreamToDevice: // stream copies are made apart (isStreamCopy)
    case ProgramKind::StreamToHost:
    case ProgramKind::Predicate:
    case ProgramKind::Abort:
    case ProgramKind::CycleStamp:
        return Program::Type::Unknown;
    }
    return Program::Type::Unknown;
}

// An object of the type's class, so that visitors and Python see the class.
std::shared_ptr<Program> makeProgram(Program::Type type) {
    switch (type) {
    case Program::Type::Empty:
        return std::make_shared<EmptyProgram>();
    case Program::Type::Sequence:
        return std::make_shared<SequenceProgram>();
    case Program::Type::Repeat:
        return std::make_shared<RepeatProgram>();
    case Program::Type::RepeatWhileTrue:
        return std::make_shared<RepeatWhileTrueProgram>();
    case Program::Type::RepeatWhileFalse:
        return std::make_shared<RepeatWhileFalseProgram>();
    case Program::Type::If:
        return std::make_shared<IfProgram>();
    case Program::Type::Switch:
        return std::make_shared<SwitchProgram>();
    case Program::Type::OnTileExecute:
        return std::make_shared<OnTileExecuteProgram>();
    case Program::Type::DoExchange:
        return std::make_shared<DoExchangeProgram>();
    case Program::Type::GlobalExchange:
        return std::make_shared<GlobalExchangeProgram>();
    case Program::Type::StreamCopyBegin:
        return std::make_shared<StreamCopyBeginProgram>();
    case Program::Type::StreamCopyMid:
        return std::make_shared<StreamCopyMidProgram>();
    case Program::Type::StreamCopyEnd:
        return std::make_shared<StreamCopyEndProgram>();
    case Program::Type::Sync:
        return std::make_shared<SyncProgram>();
    case Program::Type::Call:
        return std::make_shared<CallProgram>();
    case Program::Type::Block:
        return std::make_shared<BlockProgram>();
    case Program::Type::PrintTensor:
        return std::make_shared<PrintTensorProgram>();
    case Program::Type::Unknown:
        break;
    }
    return std::make_shared<Program>();
}

bool isStreamCopy(ProgramKind kind) {
    return kind == ProgramKind::StreamToDevice || kind == ProgramKind::StreamToHost;
}

} // namespace

void ReportData::loadPrograms() {
    if (programsLoaded) {
        return;
    }
    nodes = reader.programNodes();
    steps = reader.programSteps();
    std::vector<std::string> stepNames(steps.size());
    for (const auto& s : steps) {
        if (s.id.value() < stepNames.size()) {
            stepNames[s.id.value()] = s.name;
        }
    }
    std::map<std::uint32_t, const tessera::record::ComputeSetRecord*> computeSetById;
    for (const auto& cs : computeSetEntries()) {
        computeSetById[cs.id.value()] = &cs;
    }
    for (const auto& n : nodes) {
        std::string name = n.name;
        if (name.empty() && !n.step.isNone() && n.step.value() < stepNames.size()) {
            name = stepNames[n.step.value()];
        }
        auto make = [&](Program::Type type) {
            std::shared_ptr<Program> p = makeProgram(type);
            p->id_ = n.id.value();
            p->name_ = name;
            p->type_ = type;
            if (type == Program::Type::OnTileExecute) {
                auto cs = computeSetById.find(n.computeSet.value());
                if (cs != computeSetById.end()) {
                    static_cast<OnTileExecuteProgram&>(*p).computeSet_ = computeSet(*cs->second);
                }
            }
            byNode[n.id.value()].push_back(p);
            programs.push_back(p);
        };
        if (isStreamCopy(n.kind)) {
            make(Program::Type::StreamCopyBegin);
            make(Program::Type::StreamCopyMid);
            make(Program::Type::StreamCopyEnd);
        } else {
            make(programType(n.kind));
        }
        if (n.parent.value() == kNone) {
            if (roots.size() <= n.programIndex) {
                roots.resize(n.programIndex + 1);
            }
            roots[n.programIndex] = byNode[n.id.value()].front();
        } else if (byNode.count(n.parent.value())) {
            auto& children = byNode[n.parent.value()].front()->children_;
            for (const auto& p : byNode[n.id.value()]) {
                children.push_back(p);
            }
        }
    }
    programsLoaded = true;
}

std::shared_ptr<Program> ReportData::stepProgram(std::uint32_t step) {
    loadPrograms();
    if (step >= steps.size()) {
        return nullptr;
    }
    auto it = byNode.find(steps[step].node.value());
    if (it == byNode.end() || it->second.empty()) {
        return nullptr;
    }
    // A stream copy step is its data transfer: StreamCopyMid.
    return it->second.size() == 3 ? it->second[1] : it->second.front();
}

} // namespace detail

namespace {

// The program as its type's class: makeProgram made it one.
template <typename T>
const T& as(const Program& p) {
    return static_cast<const T&>(p);
}

} // namespace

void Program::accept(ProgramVisitor& v) const {
    switch (type_) {
    case Type::Empty:
        return v.visitEmpty(as<EmptyProgram>(*this));
    case Type::Sequence:
        return v.visitSequence(as<SequenceProgram>(*this));
    case Type::Repeat:
        return v.visitRepeat(as<RepeatProgram>(*this));
    case Type::RepeatWhileTrue:
        return v.visitRepeatWhileTrue(as<RepeatWhileTrueProgram>(*this));
    case Type::RepeatWhileFalse:
        return v.visitRepeatWhileFalse(as<RepeatWhileFalseProgram>(*this));
    case Type::If:
        return v.visitIf(as<IfProgram>(*this));
    case Type::Switch:
        return v.visitSwitch(as<SwitchProgram>(*this));
    case Type::OnTileExecute:
        return v.visitOnTileExecute(as<OnTileExecuteProgram>(*this));
    case Type::DoExchange:
        return v.visitDoExchange(as<DoExchangeProgram>(*this));
    case Type::GlobalExchange:
        return v.visitGlobalExchange(as<GlobalExchangeProgram>(*this));
    case Type::StreamCopyBegin:
        return v.visitStreamCopyBegin(as<StreamCopyBeginProgram>(*this));
    case Type::StreamCopyMid:
        return v.visitStreamCopyMid(as<StreamCopyMidProgram>(*this));
    case Type::StreamCopyEnd:
        return v.visitStreamCopyEnd(as<StreamCopyEndProgram>(*this));
    case Type::Sync:
        return v.visitSync(as<SyncProgram>(*this));
    case Type::Call:
        return v.visitCall(as<CallProgram>(*this));
    case Type::Block:
        return v.visitBlock(as<BlockProgram>(*this));
    case Type::PrintTensor:
        return v.visitPrintTensor(as<PrintTensorProgram>(*this));
    case Type::Unknown:
        break;
    }
    v.visitProgram(*this);
}

const char* typeName(Program::Type type) {
    switch (type) {
    case Program::Type::Unknown:
        return "Unknown";
    case Program::Type::Empty:
        return "Empty";
    case Program::Type::Sequence:
        return "Sequence";
    case Program::Type::Repeat:
        return "Repeat";
    case Program::Type::RepeatWhileTrue:
        return "RepeatWhileTrue";
    case Program::Type::RepeatWhileFalse:
        return "RepeatWhileFalse";
    case Program::Type::If:
        return "If";
    case Program::Type::Switch:
        return "Switch";
    case Program::Type::OnTileExecute:
        return "OnTileExecute";
    case Program::Type::DoExchange:
        return "DoExchange";
    case Program::Type::GlobalExchange:
        return "GlobalExchange";
    case Program::Type::StreamCopyBegin:
        return "StreamCopyBegin";
    case Program::Type::StreamCopyMid:
        return "StreamCopyMid";
    case Program::Type::StreamCopyEnd:
        return "StreamCopyEnd";
    case Program::Type::Sync:
        return "Sync";
    case Program::Type::Call:
        return "Call";
    case Program::Type::Block:
        return "Block";
    case Program::Type::PrintTensor:
        return "PrintTensor";
    }
    return "Unknown";
}

} // namespace pva
