#pragma once
// Control programs in Poplar's shape. A Program is a cheap handle to a node;
// copies share the node, so a Sequence can be built up after it was stored.
#include "engine/graph/Graph.h"
#include "engine/program/SourceLocation.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::program {

// The user API's kinds (Poplar's program classes). The compiler maps each
// into record::ProgramKind (compiler/ProgramFlattener.cpp), the one kind
// enum reports and views use.
enum class Kind {
    Sequence,
    Execute,
    Repeat,
    RepeatWhileTrue,
    RepeatWhileFalse,
    If,
    Copy,
    StreamToDevice,
    StreamToHost,
    PrintTensor,
    Block,
    Sync,
    Switch,     // predicate = control; children = cases then default; cases = values
    Abort,      // throws AbortError(message) when predicate (if any) is non-zero
    CycleStamp, // writes the cycle counter (minus source's value, if any) to destination
};

// What a Sync (or a cycle stamp's sync) waits for, as Poplar's SyncType:
// the tiles of each IPU, all IPUs, or all IPUs and the host. The cycle model
// charges each its own cost (docs/engine.md).
enum class SyncScope : std::uint8_t { Internal, External, Global };

struct Node {
    Kind kind = Kind::Sequence;
    std::string name; // debug name; Block names an operation
    // Block: the library function (a PopLibs call, one of Tessera's ops)
    // that opened it; empty when the application named the block itself.
    std::string libraryFunction = {};
    std::vector<std::shared_ptr<Node>> children;
    ComputeSetId computeSet = ComputeSetId::none(); // Execute
    std::size_t count = 0;                          // Repeat
    Tensor source, destination;                     // Copy, stream copies, PrintTensor (source)
    Tensor predicate;                               // If, RepeatWhile*
    std::string stream;                             // stream copies
    std::string message;                            // Abort
    std::vector<std::int64_t> cases;                // Switch: the value of each case body
    // Sync, CycleStamp: unset is the default rule (internal on one IPU,
    // external across IPUs; a stamp is internal unless its step spans IPUs).
    std::optional<SyncScope> syncScope;
};

class Program {
public:
    Program(); // an empty Sequence
    Kind kind() const { return node_->kind; }
    const std::shared_ptr<Node>& node() const { return node_; }

protected:
    explicit Program(Kind kind, std::string name = "");
    std::shared_ptr<Node> node_;
};

class Sequence : public Program {
public:
    Sequence()
        : Program(Kind::Sequence) {}
    Sequence(std::initializer_list<Program> programs, const std::string& name = "");
    explicit Sequence(const std::vector<Program>& programs, const std::string& name = "");
    void add(const Program& p);
};

class Execute : public Program {
public:
    explicit Execute(ComputeSet cs, const std::string& name = "");
};

class Repeat : public Program {
public:
    Repeat(std::size_t count, const Program& body, const std::string& name = "");
};

// Runs `condition`, then `body` while the scalar predicate is true (or false).
class RepeatWhileTrue : public Program {
public:
    RepeatWhileTrue(const Program& condition, const Tensor& predicate, const Program& body,
                    const std::string& name = "");
};
class RepeatWhileFalse : public Program {
public:
    RepeatWhileFalse(const Program& condition, const Tensor& predicate, const Program& body,
                     const std::string& name = "");
};

class If : public Program {
public:
    If(const Tensor& predicate, const Program& thenBody, const Program& elseBody = Sequence(),
       const std::string& name = "");
};

class Copy : public Program {
public:
    Copy(const Tensor& source, const Tensor& destination, const std::string& name = "");
    Copy(const DataStream& stream, const Tensor& destination, const std::string& name = "");
    Copy(const Tensor& source, const DataStream& stream, const std::string& name = "");
};

class PrintTensor : public Program {
public:
    PrintTensor(const std::string& title, const Tensor& t);
    explicit PrintTensor(const Tensor& t);
};

// Marks a Block as opened by a library function rather than by the
// application: the profile's "PopLibs" layer (docs/report-format.md).
struct LibraryCall {
    std::string function; // e.g. "matMul", "popnn::bn::batchNormalise"; never empty

    // The function `where` is in (a lambda's enclosing function), qualified
    // by its namespaces: for library code that opens Blocks on its callers'
    // behalf (the SDK's PopLibs functions).
    static LibraryCall at(const SourceLocation& where = SourceLocation::current());
};

// Names a sub-program: an operation in the profile (a library call, a layer).
// Without a LibraryCall the block is the application's own.
class Block : public Program {
public:
    Block(const Program& body, const std::string& name);
    Block(const Program& body, const std::string& name, LibraryCall call);
};

// A sync step of every tile. Without a scope it is an IPU-internal sync on a
// one-IPU target and an external one (all IPUs) on a multi-IPU target.
class Sync : public Program {
public:
    Sync();
    explicit Sync(SyncScope scope);
};

// Runs the body whose value equals the scalar integer `control`, else `otherwise`.
class Switch : public Program {
public:
    Switch(const Tensor& control, const std::vector<std::pair<std::int64_t, Program>>& cases,
           const Program& otherwise = Sequence(), const std::string& name = "");
};

// Stops the run with AbortError(message): always, or when the scalar
// `predicate` is non-zero.
class Abort : public Program {
public:
    explicit Abort(const std::string& message, const std::string& name = "");
    Abort(const Tensor& predicate, const std::string& message, const std::string& name = "");
};

// Writes the simulated cycle counter as two 32-bit words (low, high) into
// `destination` (2 unsigned ints): the cycle at which this step ends; with a
// `start` stamp, the cycles from the end of that stamp's step to the start of
// this one (so a program between the two is timed exactly).
class CycleStamp : public Program {
public:
    explicit CycleStamp(const Tensor& destination, const std::string& name = "");
    CycleStamp(const Tensor& destination, const Tensor& start, const std::string& name = "");
};

} // namespace tessera::program
