// poplar::program: control programs. A Program is a cheap handle; copies
// share the node, so a Sequence can be extended after it was stored.
#ifndef TESSERA_POPLAR_PROGRAM_HPP
#define TESSERA_POPLAR_PROGRAM_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/SyncType.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace poplar {

namespace detail {
struct ProgramImpl;
struct Access;
} // namespace detail

namespace program {

class Program {
public:
    Program(); // an empty Sequence
    ~Program();
    Program(const Program& other);
    Program& operator=(const Program& other);
    bool isEmpty() const;

protected:
    friend struct poplar::detail::Access;
    std::shared_ptr<poplar::detail::ProgramImpl> impl_;
};

class Sequence : public Program {
public:
    Sequence(const DebugContext& debugContext = DebugContext());
    Sequence(std::initializer_list<Program> programs,
             const DebugContext& debugContext = DebugContext());
    explicit Sequence(const std::vector<Program>& programs,
                      const DebugContext& debugContext = DebugContext());
    void add(const Program& p);
};

class Execute : public Program {
public:
    explicit Execute(ComputeSet cs, const DebugContext& debugContext = DebugContext());
};

class Repeat : public Program {
public:
    Repeat(unsigned count, const Program& body, const DebugContext& debugContext = DebugContext());
};

// Runs `condition`, then `body` while the scalar `predicate` is true (false).
class RepeatWhileTrue : public Program {
public:
    RepeatWhileTrue(const Program& condition, const Tensor& predicate, const Program& body,
                    const DebugContext& debugContext = DebugContext());
};
class RepeatWhileFalse : public Program {
public:
    RepeatWhileFalse(const Program& condition, const Tensor& predicate, const Program& body,
                     const DebugContext& debugContext = DebugContext());
};

class If : public Program {
public:
    If(const Tensor& predicate, const Program& trueBody, const Program& falseBody,
       const DebugContext& debugContext = DebugContext());
    If(const Tensor& predicate, const Program& trueBody,
       const DebugContext& debugContext = DebugContext());
};

// Tensor to tensor (equal element counts; shapes may differ), stream to
// tensor, tensor to stream.
class Copy : public Program {
public:
    Copy(const Tensor& src, const Tensor& dst, bool dontOutline = false,
         const DebugContext& debugContext = DebugContext());
    Copy(const DataStream& stream, const Tensor& dst, bool optimiseMemory = false,
         const DebugContext& debugContext = DebugContext());
    Copy(const Tensor& src, const DataStream& stream, bool optimiseMemory = false,
         const DebugContext& debugContext = DebugContext());
    // Remote buffers: without an offset, rows 0.. of the buffer (as many as
    // the tensor holds); with one, row offset[i] to or from row i of the tensor.
    Copy(const RemoteBuffer& buffer, const Tensor& dst,
         const DebugContext& debugContext = DebugContext());
    Copy(const RemoteBuffer& buffer, const Tensor& dst, const Tensor& offset,
         const DebugContext& debugContext = DebugContext());
    Copy(const Tensor& src, const RemoteBuffer& buffer,
         const DebugContext& debugContext = DebugContext());
    Copy(const Tensor& src, const RemoteBuffer& buffer, const Tensor& offset,
         const DebugContext& debugContext = DebugContext());
};

// Runs the body whose value equals the scalar integer `control`, else the
// default body (empty unless given).
class Switch : public Program {
public:
    Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
           const DebugContext& debugContext = DebugContext());
    Switch(const Tensor& control, const std::vector<std::pair<std::int32_t, Program>>& cases,
           const Program& defaultCaseBody, const DebugContext& debugContext = DebugContext());
    explicit Switch(const Tensor& control, const DebugContext& debugContext = DebugContext());
    Switch(const Tensor& control, const Program& defaultCaseBody,
           const DebugContext& debugContext = DebugContext());
    Switch& add(std::int32_t value, const Program& body);
};

// Marks a tensor's contents undefined (it may share memory); runs nothing.
class WriteUndef : public Program {
public:
    explicit WriteUndef(const Tensor& t, const DebugContext& debugContext = DebugContext());
};

// Stops the run with poplar::application_runtime_error when the scalar
// predicate is non-zero.
class AbortOnCondition : public Program {
public:
    explicit AbortOnCondition(const Tensor& predicate, const std::string& message = "",
                              const DebugContext& debugContext = DebugContext());
};

// Prints debugTensor, then stops the run with application_runtime_error.
class ErrorProgram : public Program {
public:
    ErrorProgram(const std::string& message, const Tensor& debugTensor,
                 const DebugContext& debugContext = DebugContext());
};

// Runs a function made by Graph::addFunction.
class Call : public Program {
public:
    explicit Call(const Function& f, const DebugContext& debugContext = DebugContext());
};

// Prints "title: values" on standard output when it runs.
class PrintTensor : public Program {
public:
    explicit PrintTensor(const Tensor& t, const DebugContext& debugContext = DebugContext());
    PrintTensor(const std::string& title, const Tensor& t,
                const DebugContext& debugContext = DebugContext());
    PrintTensor(const char* title, const Tensor& t,
                const DebugContext& debugContext = DebugContext());
};

// A named sub-program (an operation in the profile).
class Block : public Program {
public:
    Block(const Program& body, const DebugContext& debugContext = DebugContext());
};

typedef poplar::SyncType SyncType;
class Sync : public Program {
public:
    explicit Sync(SyncType type = SyncType::INTERNAL,
                  const DebugContext& debugContext = DebugContext());
};

} // namespace program
} // namespace poplar

#endif
