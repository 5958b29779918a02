// poplar::program: control programs. A Program is a cheap handle; copies
// share the node, so a Sequence can be extended after it was stored.
#ifndef TESSERA_POPLAR_PROGRAM_HPP
#define TESSERA_POPLAR_PROGRAM_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <string>
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

enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };
class Sync : public Program {
public:
    explicit Sync(SyncType type = SyncType::INTERNAL,
                  const DebugContext& debugContext = DebugContext());
};

} // namespace program
} // namespace poplar

#endif
