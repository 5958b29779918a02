// libpva: the PopVision analysis API over Tessera reports.
//
//   #include <pva/pva.hpp>           g++ prog.cpp -lpva
//   pva::Report report = pva::openReport("profile.pop");
//   report.compilation().target().numTiles();
//
// The object model follows Graphcore's public libpva documentation; it reads a
// Tessera report (the SQLite format, under either name, .tsr or .pop) lazily.
// Every object here is a small handle sharing the open report, so copies are
// cheap and any of them keeps the report open. docs/libpva.md lists every
// class and member with its status; a member Tessera cannot answer throws
// pva::unsupported naming it. C++11, self-sufficient.
#ifndef TESSERA_PVA_PVA_HPP
#define TESSERA_PVA_PVA_HPP

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace pva {

namespace detail {
struct ReportData;
}

// Every error libpva throws: a report that cannot be opened (missing, not a
// Tessera report, a PopVision profile.pop, a newer schema, corrupt) says so in
// one line naming the file.
class error : public std::runtime_error {
public:
    explicit error(const std::string& what)
        : std::runtime_error(what) {}
};

// A libpva member Tessera's reports cannot answer.
class unsupported : public error {
public:
    explicit unsupported(const std::string& member)
        : error("pva: " + member + " is not supported by Tessera's libpva (see docs/libpva.md)") {}
};

class Version {
public:
    Version() {}
    Version(unsigned major, unsigned minor, unsigned point, const std::string& string)
        : major_(major)
        , minor_(minor)
        , point_(point)
        , string_(string) {}
    unsigned major() const { return major_; }
    unsigned minor() const { return minor_; }
    unsigned point() const { return point_; }
    const std::string& string() const { return string_; }

private:
    unsigned major_ = 0;
    unsigned minor_ = 0;
    unsigned point_ = 0;
    std::string string_;
};

class Target {
public:
    std::string type() const; // "IPU"
    std::string name() const; // Tessera's target name ("mk2", "tiles:16", ...)
    std::uint64_t numIPUs() const;
    std::uint64_t tilesPerIpu() const;
    std::uint64_t numTiles() const;
    std::uint64_t bytesPerTile() const;
    std::uint64_t bytesPerIPU() const;
    std::uint64_t totalMemory() const;
    double clockFrequency() const; // Hz
    std::uint64_t numReplicas() const;
    std::uint64_t ipusPerReplica() const;
    std::uint64_t tilesPerReplica() const;
    std::uint64_t memoryPerReplica() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
};

class Graph {
public:
    std::uint64_t numComputeSets() const;
    std::uint64_t numVertices() const;
    std::uint64_t numEdges() const; // throws unsupported: reports hold no edges
    std::uint64_t numVariables() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
};

class MemoryUsage {
public:
    MemoryUsage() {}
    MemoryUsage(std::uint64_t includingGaps, std::uint64_t excludingGaps)
        : including_(includingGaps)
        , excluding_(excludingGaps) {}
    std::uint64_t includingGaps() const { return including_; }
    std::uint64_t excludingGaps() const { return excluding_; }

private:
    std::uint64_t including_ = 0;
    std::uint64_t excluding_ = 0;
};

// One memory category on a tile. Categories hold no gaps, so total() has
// equal figures with and without gaps.
class MemoryCategory {
public:
    MemoryCategory() {}
    explicit MemoryCategory(std::uint64_t bytes)
        : bytes_(bytes) {}
    MemoryUsage total() const { return MemoryUsage(bytes_, bytes_); }

private:
    std::uint64_t bytes_ = 0;
};

// Tessera's memory categories under libpva's names.
class MemoryCategories {
public:
    MemoryCategory alwaysLiveVariables() const { return at(0); }
    MemoryCategory notAlwaysLiveVariables() const { return at(1); }
    MemoryCategory constants() const { return at(2); }
    MemoryCategory vertexInstanceState() const { return at(3); }
    MemoryCategory vectorListDescriptor() const { return at(4); }
    MemoryCategory vertexCode() const { return at(5); }
    MemoryCategory internalExchangeCode() const { return at(6); }
    MemoryCategory hostExchangeCode() const { return at(7); }
    MemoryCategory controlCode() const { return at(8); }
    MemoryCategory stack() const { return at(9); }

private:
    friend struct detail::ReportData;
    MemoryCategory at(std::size_t i) const {
        return MemoryCategory(i < bytes_.size() ? bytes_[i] : 0);
    }
    std::vector<std::uint64_t> bytes_;
};

class MemoryRegion {
public:
    const std::string& name() const { return name_; }
    std::uint64_t bytes() const { return bytes_; } // used, gaps included

private:
    friend struct detail::ReportData;
    std::string name_;
    std::uint64_t bytes_ = 0;
};

class TileMemoryUsage {
public:
    MemoryUsage total() const { return total_; }
    MemoryCategories category() const { return category_; }
    std::uint64_t alwaysLiveBytes() const { return alwaysLive_; }
    std::uint64_t notAlwaysLiveBytes() const { return notAlwaysLive_; } // the shared pool
    std::uint64_t gapBytes() const { return total_.includingGaps() - total_.excludingGaps(); }
    MemoryUsage overflowed() const { return MemoryUsage(overflow_, overflow_); }
    bool isOverflowed() const { return overflow_ > 0; }
    // By memory region: the "interleaved" region, and all the others.
    MemoryUsage interleaved() const { return MemoryUsage(interleaved_, interleaved_); }
    MemoryUsage nonInterleaved() const { return MemoryUsage(nonInterleaved_, nonInterleaved_); }
    const std::vector<MemoryRegion>& regions() const { return regions_; }

private:
    friend struct detail::ReportData;
    MemoryUsage total_;
    MemoryCategories category_;
    std::uint64_t alwaysLive_ = 0;
    std::uint64_t notAlwaysLive_ = 0;
    std::uint64_t overflow_ = 0;
    std::uint64_t interleaved_ = 0;
    std::uint64_t nonInterleaved_ = 0;
    std::vector<MemoryRegion> regions_;
};

class Tile {
public:
    unsigned number() const { return number_; }
    unsigned ipu() const { return ipu_; }
    TileMemoryUsage memory() const { return memory_; }

private:
    friend struct detail::ReportData;
    unsigned number_ = 0;
    unsigned ipu_ = 0;
    TileMemoryUsage memory_;
};

class ProgramVisitor;

// A node of the program tree. Tessera's kinds map to libpva's types: Execute
// is OnTileExecute, Copy is DoExchange, a stream copy is three programs
// (StreamCopyBegin, StreamCopyMid, StreamCopyEnd), Block is Block. Every
// program is an object of its type's class (OnTileExecuteProgram, ...), so a
// visitor gets the class, as libpva's do.
class Program {
public:
    enum class Type {
        Unknown,
        Empty,
        Sequence,
        Repeat,
        RepeatWhileTrue,
        RepeatWhileFalse,
        If,
        Switch,
        OnTileExecute,
        DoExchange,
        GlobalExchange,
        StreamCopyBegin,
        StreamCopyMid,
        StreamCopyEnd,
        Sync,
        Call,
        Block,
        PrintTensor,
    };

    virtual ~Program() {}
    const std::string& name() const { return name_; }
    Type type() const { return type_; }
    const std::vector<std::shared_ptr<Program>>& children() const { return children_; }
    // Tessera extra: the node's id in the report (libpva spells it _id()).
    unsigned id() const { return id_; }
    unsigned _id() const { return id_; }
    void accept(ProgramVisitor& visitor) const;

private:
    friend struct detail::ReportData;
    unsigned id_ = 0;
    std::string name_;
    Type type_ = Type::Unknown;
    std::vector<std::shared_ptr<Program>> children_;
};

const char* typeName(Program::Type type); // "OnTileExecute", ...

class ComputeSet {
public:
    unsigned id() const { return id_; }
    const std::string& name() const { return name_; }
    std::uint64_t numVertices() const { return vertices_; }

private:
    friend struct detail::ReportData;
    unsigned id_ = 0;
    std::string name_;
    std::uint64_t vertices_ = 0;
};

// One class per Program::Type. Only OnTileExecuteProgram adds a member
// Tessera can answer (its compute set); libpva's others (vars(), ...) are
// absent (docs/libpva.md).
class EmptyProgram : public Program {};
class SequenceProgram : public Program {};
class RepeatProgram : public Program {};
class RepeatWhileTrueProgram : public Program {};
class RepeatWhileFalseProgram : public Program {};
class IfProgram : public Program {};
class SwitchProgram : public Program {};
class OnTileExecuteProgram : public Program {
public:
    const ComputeSet& computeSet() const { return computeSet_; }

private:
    friend struct detail::ReportData;
    ComputeSet computeSet_;
};
class DoExchangeProgram : public Program {};
class GlobalExchangeProgram : public Program {};
class StreamCopyBeginProgram : public Program {};
class StreamCopyMidProgram : public Program {};
class StreamCopyEndProgram : public Program {};
class SyncProgram : public Program {};
class CallProgram : public Program {};
class BlockProgram : public Program {};
class PrintTensorProgram : public Program {};

// Program::accept calls the method for the program's type with the program as
// its class (visitProgram for Unknown). The default methods do nothing and do
// not descend: call accept on children() to walk a tree.
class ProgramVisitor {
public:
    virtual ~ProgramVisitor() {}
    virtual void visitProgram(const Program&) {}
    virtual void visitEmpty(const EmptyProgram&) {}
    virtual void visitSequence(const SequenceProgram&) {}
    virtual void visitRepeat(const RepeatProgram&) {}
    virtual void visitRepeatWhileTrue(const RepeatWhileTrueProgram&) {}
    virtual void visitRepeatWhileFalse(const RepeatWhileFalseProgram&) {}
    virtual void visitIf(const IfProgram&) {}
    virtual void visitSwitch(const SwitchProgram&) {}
    virtual void visitOnTileExecute(const OnTileExecuteProgram&) {}
    virtual void visitDoExchange(const DoExchangeProgram&) {}
    virtual void visitGlobalExchange(const GlobalExchangeProgram&) {}
    virtual void visitStreamCopyBegin(const StreamCopyBeginProgram&) {}
    virtual void visitStreamCopyMid(const StreamCopyMidProgram&) {}
    virtual void visitStreamCopyEnd(const StreamCopyEndProgram&) {}
    virtual void visitSync(const SyncProgram&) {}
    virtual void visitCall(const CallProgram&) {}
    virtual void visitBlock(const BlockProgram&) {}
    virtual void visitPrintTensor(const PrintTensorProgram&) {}
};

class Variable {
public:
    unsigned id() const { return id_; }
    const std::string& name() const { return name_; }
    const std::string& type() const { return type_; }
    std::uint64_t size() const { return bytes_; } // bytes over all tiles
    bool isConstant() const { return constant_; }

private:
    friend struct detail::ReportData;
    unsigned id_ = 0;
    std::string name_;
    std::string type_;
    std::uint64_t bytes_ = 0;
    bool constant_ = false;
};

class NotAlwaysLiveMemory {
public:
    std::uint64_t bytes() const { return bytes_; }
    const std::vector<Variable>& variables() const { return variables_; }

private:
    friend struct detail::ReportData;
    std::uint64_t bytes_ = 0;
    std::vector<Variable> variables_;
};

// A compile-time program step with its liveness.
class ProgramStep {
public:
    unsigned id() const { return id_; }
    std::shared_ptr<Program> program() const;
    NotAlwaysLiveMemory notAlwaysLiveMemory() const;                     // all tiles
    NotAlwaysLiveMemory notAlwaysLiveMemoryForTile(unsigned tile) const; // one tile

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
    unsigned id_ = 0;
};

class Compilation {
public:
    Target target() const;
    Graph graph() const;
    std::vector<Tile> tiles() const;
    std::vector<std::shared_ptr<Program>> programs() const;        // every node, by id
    std::vector<std::shared_ptr<Program>> controlPrograms() const; // the roots (run(i))
    std::vector<ComputeSet> computeSets() const;
    std::vector<ProgramStep> livenessProgramSteps() const;
    std::vector<Variable> alwaysLiveVariables() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
};

// One IPU's view of an executed step.
class IpuStep {
public:
    unsigned ipu() const { return ipu_; }
    std::uint64_t cycles() const { return cycles_; }
    double tileBalance() const { return tileBalance_; }
    double activeTileBalance() const { return activeTileBalance_; }
    unsigned activeTiles() const { return activeTiles_; }
    std::uint64_t dataIn() const { return dataIn_; }
    std::uint64_t dataOut() const { return dataOut_; }

private:
    friend struct detail::ReportData;
    unsigned ipu_ = 0;
    std::uint64_t cycles_ = 0;
    double tileBalance_ = 0;
    double activeTileBalance_ = 0;
    unsigned activeTiles_ = 0;
    std::uint64_t dataIn_ = 0;
    std::uint64_t dataOut_ = 0;
};

class ExecutionStep {
public:
    unsigned run() const { return run_; }
    std::uint64_t sequence() const { return seq_; }
    std::uint64_t cyclesFrom() const { return from_; }
    std::uint64_t cyclesTo() const { return from_ + cycles_; }
    std::uint64_t cycles() const { return cycles_; }
    std::shared_ptr<Program> program() const;
    // Per tile: the cycles the tile works in the step (exchange + compute).
    std::vector<std::uint64_t> cyclesByTile() const;
    std::vector<ComputeSet> computeSets() const;
    std::vector<IpuStep> ipus() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
    unsigned run_ = 0;
    std::uint64_t seq_ = 0;
    unsigned programStep_ = 0;
    std::uint64_t from_ = 0;
    std::uint64_t cycles_ = 0;
};

class Run {
public:
    unsigned id() const { return id_; }
    unsigned programIndex() const { return programIndex_; }
    std::shared_ptr<Program> program() const; // the engine program that ran
    std::uint64_t cyclesFrom() const { return from_; }
    std::uint64_t cyclesTo() const { return from_ + cycles_; }
    std::uint64_t cycles() const { return cycles_; }
    bool completed() const { return completed_; }
    std::vector<ExecutionStep> steps() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
    unsigned id_ = 0;
    unsigned programIndex_ = 0;
    std::uint64_t from_ = 0;
    std::uint64_t cycles_ = 0;
    bool completed_ = false;
};

// A lightweight-profiling block: one execution of an instrumented program on
// one tile (see docs/libpva.md for what is recorded).
class Block {
public:
    unsigned tile() const { return tile_; }
    std::shared_ptr<Program> program() const { return program_; }
    std::uint64_t cyclesFrom() const { return from_; }
    std::uint64_t cyclesTo() const { return to_; }
    bool isCommon() const { return kind_ == 0; }
    bool isOverflow() const { return kind_ == 1; }
    bool isBlockFlush() const { return kind_ == 2; }
    bool isStreamCopy() const { return kind_ == 3; }

private:
    friend struct detail::ReportData;
    unsigned tile_ = 0;
    std::shared_ptr<Program> program_;
    std::uint64_t from_ = 0;
    std::uint64_t to_ = 0;
    int kind_ = 0;
};

class Execution {
public:
    std::vector<Run> runs() const;
    std::vector<ExecutionStep> steps() const; // every run's, in order
    std::uint64_t totalCycles() const;
    std::vector<Block> blocks(unsigned tile) const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
};

class Report {
public:
    Version version() const;       // the report's schema version
    Version poplarVersion() const; // the SDK (Tessera) version that wrote it
    Compilation compilation() const;
    Execution execution() const;
    std::string path() const;

private:
    friend struct detail::ReportData;
    std::shared_ptr<detail::ReportData> d_;
};

// Opens a Tessera report (.pop or .tsr). debugPath is accepted and ignored.
// Throws pva::error with one line naming the file when it cannot be read.
Report openReport(const std::string& reportPath, const std::string& debugPath = "");

} // namespace pva

#endif
