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
        *this, tessera::program::Execute(tessera::ComputeSet{cs.getId()}, dc.getPathName()));
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

Sync::Sync(SyncType, const DebugContext&) {
    Access::setProgram(*this, tessera::program::Sync());
}

} // namespace poplar::program
