// Control programs of the Poplar-compatible API: each handle wraps an engine
// program node.
#include "Impl.h"

namespace poplar::program {

using detail::Access;
using detail::translate;

namespace {
std::vector<tessera::program::Program> engineList(std::initializer_list<Program> programs) {
    std::vector<tessera::program::Program> out;
    for (const Program& p : programs) {
        out.push_back(Access::program(p));
    }
    return out;
}
} // namespace

Program::Program()
    : impl_(std::make_shared<detail::ProgramImpl>(
          detail::ProgramImpl{tessera::program::Sequence()})) {}
Program::~Program() = default;
Program::Program(const Program& other) = default;
Program& Program::operator=(const Program& other) = default;
bool Program::isEmpty() const {
    const auto& node = impl_->program.node();
    return node->kind == tessera::program::Kind::Sequence && node->children.empty();
}

Sequence::Sequence(const DebugContext& dc) {
    Access::setProgram(*this, tessera::program::Sequence(std::vector<tessera::program::Program>{},
                                                         dc.getPathName()));
}
Sequence::Sequence(std::initializer_list<Program> programs, const DebugContext& dc) {
    Access::setProgram(*this, tessera::program::Sequence(engineList(programs), dc.getPathName()));
}
Sequence::Sequence(const std::vector<Program>& programs, const DebugContext& dc) {
    std::vector<tessera::program::Program> list;
    for (const Program& p : programs) {
        list.push_back(Access::program(p));
    }
    Access::setProgram(*this, tessera::program::Sequence(list, dc.getPathName()));
}
void Sequence::add(const Program& p) {
    impl_->program.node()->children.push_back(Access::program(p).node());
}

Execute::Execute(ComputeSet cs, const DebugContext& dc) {
    Access::setProgram(
        *this, tessera::program::Execute(tessera::ComputeSet{tessera::ComputeSetId{cs.getId()}},
                                         dc.getPathName()));
}

Repeat::Repeat(unsigned count, const Program& body, const DebugContext& dc) {
    Access::setProgram(*this,
                       tessera::program::Repeat(count, Access::program(body), dc.getPathName()));
}

RepeatWhileTrue::RepeatWhileTrue(const Program& condition, const Tensor& predicate,
                                 const Program& body, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, tessera::program::RepeatWhileTrue(
                                      Access::program(condition), Access::tensor(predicate),
                                      Access::program(body), dc.getPathName()));
        return 0;
    });
}
RepeatWhileFalse::RepeatWhileFalse(const Program& condition, const Tensor& predicate,
                                   const Program& body, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, tessera::program::RepeatWhileFalse(
                                      Access::program(condition), Access::tensor(predicate),
                                      Access::program(body), dc.getPathName()));
        return 0;
    });
}

If::If(const Tensor& predicate, const Program& trueBody, const Program& falseBody,
       const DebugContext& dc) {
    translate([&] {
        Access::setProgram(
            *this, tessera::program::If(Access::tensor(predicate), Access::program(trueBody),
                                        Access::program(falseBody), dc.getPathName()));
        return 0;
    });
}
If::If(const Tensor& predicate, const Program& trueBody, const DebugContext& dc)
    : If(predicate, trueBody, Sequence(), dc) {}

namespace {
tessera::DataStream engineStream(const DataStream& s) {
    tessera::DataStream out;
    out.name = s.handle();
    out.type = detail::engineType(s.elementType());
    out.numElements = s.numElements();
    out.toDevice = s.isToDevice();
    return out;
}
} // namespace

Copy::Copy(const Tensor& src, const Tensor& dst, bool, const DebugContext& dc) {
    // Equal element counts are enough; the shapes may differ, as in Poplar.
    translate([&] {
        Access::setProgram(*this, tessera::program::Copy(Access::tensor(src), Access::tensor(dst),
                                                         dc.getPathName()));
        return 0;
    });
}
Copy::Copy(const DataStream& stream, const Tensor& dst, bool, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, tessera::program::Copy(engineStream(stream), Access::tensor(dst),
                                                         dc.getPathName()));
        return 0;
    });
}
Copy::Copy(const Tensor& src, const DataStream& stream, bool, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, tessera::program::Copy(Access::tensor(src), engineStream(stream),
                                                         dc.getPathName()));
        return 0;
    });
}

PrintTensor::PrintTensor(const Tensor& t, const DebugContext&) {
    translate([&] {
        Access::setProgram(*this, tessera::program::PrintTensor(Access::tensor(t)));
        return 0;
    });
}
PrintTensor::PrintTensor(const std::string& title, const Tensor& t, const DebugContext&) {
    translate([&] {
        Access::setProgram(*this, tessera::program::PrintTensor(title, Access::tensor(t)));
        return 0;
    });
}
PrintTensor::PrintTensor(const char* title, const Tensor& t, const DebugContext& dc)
    : PrintTensor(std::string(title), t, dc) {}

Block::Block(const Program& body, const DebugContext& dc) {
    Access::setProgram(*this, tessera::program::Block(Access::program(body), dc.getPathName()));
}

Sync::Sync(SyncType type, const DebugContext&) {
    // Each type costs its own sync in the cycle model (docs/engine.md).
    Access::setProgram(*this, tessera::program::Sync(detail::syncScope(type)));
}

// ---- remote buffers -------------------------------------------------------------

namespace {
tessera::program::Program remoteCopy(const RemoteBuffer& buffer, const Tensor& t,
                                     const Tensor* offset, bool toDevice, const DebugContext& dc) {
    detail::GraphImpl& g = Access::remoteBufferGraph(buffer);
    const detail::RemoteBufferInfo& info = g.remoteBuffers.at(buffer.handle());
    const tessera::Tensor& et = Access::tensor(t);
    const std::string what = std::string("Copy ") + (toDevice ? "from" : "to") +
                             " remote buffer '" + buffer.handle() + "'";
    if (et.elementType() != info.type) {
        throw poplar_error(what + ": the tensor " + et.describe() + " is not of the buffer's type");
    }
    if (et.numElements() == 0 || et.numElements() % info.numElements != 0) {
        throw poplar_error(what + ": the tensor " + et.describe() + " is not a whole number of " +
                           std::to_string(info.numElements) + "-element rows");
    }
    detail::RemoteCopy c;
    c.buffer = buffer.handle();
    c.toDevice = toDevice;
    c.rows = et.numElements() / info.numElements;
    if (offset) {
        c.offset = Access::tensor(*offset);
        if (c.offset.numElements() != c.rows || c.offset.elementType() == tessera::Type::Float ||
            c.offset.elementType() == tessera::Type::Half) {
            throw poplar_error(what + ": the offset " + c.offset.describe() + " must hold " +
                               std::to_string(c.rows) + " integer row index(es)");
        }
    } else if (c.rows > info.repeats) {
        throw poplar_error(what + ": the tensor " + et.describe() + " holds " +
                           std::to_string(c.rows) + " rows; the buffer has " +
                           std::to_string(info.repeats));
    }
    c.stream = "__remote/" + buffer.handle() + "/" + std::to_string(g.remoteCopies.size());
    const std::size_t n = c.rows * info.numElements;
    tessera::DataStream s = toDevice ? g.graph.addHostToDeviceFIFO(c.stream, info.type, n)
                                     : g.graph.addDeviceToHostFIFO(c.stream, info.type, n);
    g.remoteCopies.push_back(c);
    const std::string name = dc.getPathName().empty() ? what : dc.getPathName();
    if (toDevice) {
        return tessera::program::Copy(s, et, name);
    }
    return tessera::program::Copy(et, s, name);
}
} // namespace

Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, remoteCopy(buffer, dst, nullptr, true, dc));
        return 0;
    });
}
Copy::Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
           const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, remoteCopy(buffer, dst, &offset, true, dc));
        return 0;
    });
}
Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, remoteCopy(buffer, src, nullptr, false, dc));
        return 0;
    });
}
Copy::Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
           const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this, remoteCopy(buffer, src, &offset, false, dc));
        return 0;
    });
}

// ---- Switch, WriteUndef, AbortOnCondition, ErrorProgram, Call -----------------------

Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const DebugContext& dc)
    : Switch(control, cases, Sequence(), dc) {}
Switch::Switch(const Tensor& control, const DebugContext& dc)
    : Switch(control, {}, Sequence(), dc) {}
Switch::Switch(const Tensor& control, const Program& defaultCaseBody, const DebugContext& dc)
    : Switch(control, {}, defaultCaseBody, dc) {}
Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
               const Program& defaultCaseBody, const DebugContext& dc) {
    translate([&] {
        std::vector<std::pair<std::int64_t, tessera::program::Program>> list;
        for (const auto& [value, body] : cases) {
            list.emplace_back(value, Access::program(body));
        }
        Access::setProgram(*this, tessera::program::Switch(Access::tensor(control), list,
                                                           Access::program(defaultCaseBody),
                                                           dc.getPathName()));
        return 0;
    });
}
Switch& Switch::add(std::int32_t value, const Program& body) {
    tessera::program::Node& n = *impl_->program.node();
    for (std::int64_t v : n.cases) {
        if (v == value) {
            throw poplar_error("Switch::add: a case with the value " + std::to_string(value) +
                               " is already there");
        }
    }
    n.cases.push_back(value);
    n.children.insert(n.children.end() - 1, Access::program(body).node()); // before the default
    return *this;
}

WriteUndef::WriteUndef(const Tensor& t, const DebugContext& dc) {
    // Nothing runs: on the device it only ends the tensor's live range.
    Access::tensor(t);
    Access::setProgram(*this, tessera::program::Sequence(std::vector<tessera::program::Program>{},
                                                         dc.getPathName()));
}

AbortOnCondition::AbortOnCondition(const Tensor& predicate, const std::string& message,
                                   const DebugContext& dc) {
    translate([&] {
        Access::setProgram(*this,
                           tessera::program::Abort(Access::tensor(predicate),
                                                   message.empty() ? "AbortOnCondition" : message,
                                                   dc.getPathName()));
        return 0;
    });
}

ErrorProgram::ErrorProgram(const std::string& message, const Tensor& debugTensor,
                           const DebugContext& dc) {
    translate([&] {
        tessera::program::Sequence seq(std::vector<tessera::program::Program>{}, dc.getPathName());
        seq.add(tessera::program::PrintTensor(message, Access::tensor(debugTensor)));
        seq.add(tessera::program::Abort(message.empty() ? "ErrorProgram" : message));
        Access::setProgram(*this, seq);
        return 0;
    });
}

Call::Call(const Function& f, const DebugContext& dc) {
    // The function's body runs in place (a shared program node).
    Access::setProgram(*this,
                       tessera::program::Block(Access::functionBody(f),
                                               dc.getPathName().empty()
                                                   ? "Call function " + std::to_string(f.getId())
                                                   : dc.getPathName()));
}

} // namespace poplar::program
