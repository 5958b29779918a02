#include "engine/program/Program.h"

#include "engine/core/Error.h"

namespace tessera::program {

Program::Program()
    : node_(std::make_shared<Node>()) {}

Program::Program(Kind kind, std::string name)
    : node_(std::make_shared<Node>()) {
    node_->kind = kind;
    node_->name = std::move(name);
}

Sequence::Sequence(std::initializer_list<Program> programs, const std::string& name)
    : Program(Kind::Sequence, name) {
    for (const Program& p : programs) {
        add(p);
    }
}

Sequence::Sequence(const std::vector<Program>& programs, const std::string& name)
    : Program(Kind::Sequence, name) {
    for (const Program& p : programs) {
        add(p);
    }
}

void Sequence::add(const Program& p) {
    if (p.node() == node_) {
        throw Error("Sequence '" + node_->name + "': cannot add a sequence to itself");
    }
    node_->children.push_back(p.node());
}

Execute::Execute(ComputeSet cs, const std::string& name)
    : Program(Kind::Execute, name) {
    if (cs.id.isNone()) {
        throw Error("Execute: invalid compute set");
    }
    node_->computeSet = cs.id;
}

Repeat::Repeat(std::size_t count, const Program& body, const std::string& name)
    : Program(Kind::Repeat, name) {
    node_->count = count;
    node_->children.push_back(body.node());
}

static void requireScalarPredicate(const Tensor& predicate, const char* what) {
    if (!predicate.valid() || predicate.numElements() != 1) {
        throw Error(std::string(what) + ": the predicate " + predicate.describe() +
                    " must be a one-element tensor");
    }
}

RepeatWhileTrue::RepeatWhileTrue(const Program& condition, const Tensor& predicate,
                                 const Program& body, const std::string& name)
    : Program(Kind::RepeatWhileTrue, name) {
    requireScalarPredicate(predicate, "RepeatWhileTrue");
    node_->predicate = predicate;
    node_->children = {condition.node(), body.node()};
}

RepeatWhileFalse::RepeatWhileFalse(const Program& condition, const Tensor& predicate,
                                   const Program& body, const std::string& name)
    : Program(Kind::RepeatWhileFalse, name) {
    requireScalarPredicate(predicate, "RepeatWhileFalse");
    node_->predicate = predicate;
    node_->children = {condition.node(), body.node()};
}

If::If(const Tensor& predicate, const Program& thenBody, const Program& elseBody,
       const std::string& name)
    : Program(Kind::If, name) {
    requireScalarPredicate(predicate, "If");
    node_->predicate = predicate;
    node_->children = {thenBody.node(), elseBody.node()};
}

Copy::Copy(const Tensor& source, const Tensor& destination, const std::string& name)
    : Program(Kind::Copy, name) {
    if (!source.valid() || !destination.valid()) {
        throw Error("Copy '" + name + "': source and destination must be valid tensors");
    }
    if (source.elementType() != destination.elementType()) {
        throw Error("Copy: source " + source.describe() + " has type " +
                    std::string(typeName(source.elementType())) + " but destination " +
                    destination.describe() + " has type " +
                    std::string(typeName(destination.elementType())));
    }
    if (source.numElements() != destination.numElements()) {
        throw Error("Copy: source " + source.describe() + " has " +
                    std::to_string(source.numElements()) + " elements but destination " +
                    destination.describe() + " has " + std::to_string(destination.numElements()));
    }
    node_->source = source;
    node_->destination = destination;
}

static void checkStream(const DataStream& s, const Tensor& t, bool toDevice) {
    if (!t.valid()) {
        throw Error("Copy with stream '" + s.name + "': the tensor is empty");
    }
    if (s.toDevice != toDevice) {
        throw Error("Copy: stream '" + s.name + "' goes " +
                    (s.toDevice ? "host to device" : "device to host") +
                    " and cannot be used the other way");
    }
    if (s.type != t.elementType()) {
        throw Error("Copy: stream '" + s.name + "' has type " + std::string(typeName(s.type)) +
                    " but tensor " + t.describe() + " has type " +
                    std::string(typeName(t.elementType())));
    }
    if (s.numElements != t.numElements()) {
        throw Error("Copy: stream '" + s.name + "' carries " + std::to_string(s.numElements) +
                    " elements but tensor " + t.describe() + " has " +
                    std::to_string(t.numElements()));
    }
}

Copy::Copy(const DataStream& stream, const Tensor& destination, const std::string& name)
    : Program(Kind::StreamToDevice, name) {
    checkStream(stream, destination, true);
    node_->stream = stream.name;
    node_->destination = destination;
}

Copy::Copy(const Tensor& source, const DataStream& stream, const std::string& name)
    : Program(Kind::StreamToHost, name) {
    checkStream(stream, source, false);
    node_->stream = stream.name;
    node_->source = source;
}

PrintTensor::PrintTensor(const std::string& title, const Tensor& t)
    : Program(Kind::PrintTensor, title) {
    if (!t.valid()) {
        throw Error("PrintTensor '" + title + "': the tensor is empty");
    }
    node_->source = t;
}

PrintTensor::PrintTensor(const Tensor& t)
    : PrintTensor(t.valid() ? t.describe() : "", t) {}

Block::Block(const Program& body, const std::string& name)
    : Program(Kind::Block, name) {
    node_->children.push_back(body.node());
}

LibraryCall LibraryCall::at(const SourceLocation& where) {
    // "ret ns::f(args)" or "ns::f(args)::<lambda()>" (GCC), "ret ns::f(args)" or
    // "auto ns::f(args)::(anonymous class)::operator()() const" (Clang): the
    // name is the last word before the first '('.
    std::string name = where.function_name();
    for (const std::string anonymous : {"{anonymous}::", "(anonymous namespace)::"}) {
        for (auto at = name.find(anonymous); at != std::string::npos; at = name.find(anonymous)) {
            name.erase(at, anonymous.size());
        }
    }
    name = name.substr(0, name.find('('));
    if (const auto space = name.rfind(' '); space != std::string::npos) {
        name = name.substr(space + 1);
    }
    return {name.empty() ? std::string("unknown library function") : name};
}

Block::Block(const Program& body, const std::string& name, LibraryCall call)
    : Block(body, name) {
    if (call.function.empty()) {
        throw Error("Block '" + name + "': a library call needs its function's name");
    }
    node_->libraryFunction = std::move(call.function);
}

Sync::Sync()
    : Program(Kind::Sync) {}

Sync::Sync(SyncScope scope)
    : Program(Kind::Sync) {
    node_->syncScope = scope;
}

Switch::Switch(const Tensor& control, const std::vector<std::pair<std::int64_t, Program>>& cases,
               const Program& otherwise, const std::string& name)
    : Program(Kind::Switch, name) {
    requireScalarPredicate(control, "Switch");
    if (control.elementType() == Type::Float || control.elementType() == Type::Half) {
        throw Error("Switch: the control tensor " + control.describe() +
                    " must be of an integer type");
    }
    node_->predicate = control;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
            if (cases[j].first == cases[i].first) {
                throw Error("Switch: two cases have the value " + std::to_string(cases[i].first));
            }
        }
        node_->cases.push_back(cases[i].first);
        node_->children.push_back(cases[i].second.node());
    }
    node_->children.push_back(otherwise.node());
}

Abort::Abort(const std::string& message, const std::string& name)
    : Program(Kind::Abort, name) {
    node_->message = message;
}

Abort::Abort(const Tensor& predicate, const std::string& message, const std::string& name)
    : Program(Kind::Abort, name) {
    requireScalarPredicate(predicate, "Abort");
    node_->predicate = predicate;
    node_->message = message;
}

static void requireStampTensor(const Tensor& t) {
    if (!t.valid() || t.numElements() != 2 || t.elementType() != Type::UnsignedInt) {
        throw Error("CycleStamp: " + (t.valid() ? t.describe() : std::string("the tensor")) +
                    " must be 2 unsigned ints");
    }
}

CycleStamp::CycleStamp(const Tensor& destination, const std::string& name)
    : Program(Kind::CycleStamp, name) {
    requireStampTensor(destination);
    node_->destination = destination;
}

CycleStamp::CycleStamp(const Tensor& destination, const Tensor& start, const std::string& name)
    : CycleStamp(destination, name) {
    requireStampTensor(start);
    node_->source = start;
}

} // namespace tessera::program
