// A libpva script in C++ as a PopVision user writes one: open the report,
// print target and graph figures, memory over tiles, cycles summed over the
// execution steps, and the program tree's programs by type (a visitor).
// Prints key=value lines; check_summary.py compares them with tessera-cli.
#include <pva/pva.hpp>

#include <iostream>
#include <map>
#include <string>

namespace {

class CountingVisitor : public pva::ProgramVisitor {
public:
    std::map<std::string, unsigned> counts;
    void visitSequence(const pva::SequenceProgram& p) override { count("Sequence", p); }
    void visitRepeat(const pva::RepeatProgram& p) override { count("Repeat", p); }
    void visitBlock(const pva::BlockProgram& p) override { count("Block", p); }
    void visitOnTileExecute(const pva::OnTileExecuteProgram& p) override {
        count("OnTileExecute", p);
    }
    void visitDoExchange(const pva::DoExchangeProgram& p) override { count("DoExchange", p); }
    void visitStreamCopyBegin(const pva::StreamCopyBeginProgram& p) override {
        count("StreamCopyBegin", p);
    }
    void visitStreamCopyMid(const pva::StreamCopyMidProgram& p) override {
        count("StreamCopyMid", p);
    }
    void visitStreamCopyEnd(const pva::StreamCopyEndProgram& p) override {
        count("StreamCopyEnd", p);
    }
    void visitProgram(const pva::Program& p) override { count("other", p); }

private:
    void count(const std::string& type, const pva::Program& p) {
        ++counts[type];
        for (const auto& child : p.children()) {
            child->accept(*this);
        }
    }
};

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: report_summary REPORT\n";
        return 2;
    }
    try {
        pva::Report report = pva::openReport(argv[1]);
        const pva::Target target = report.compilation().target();
        std::cout << "type=" << target.type() << "\n"
                  << "numIPUs=" << target.numIPUs() << "\n"
                  << "numTiles=" << target.numTiles() << "\n"
                  << "bytesPerTile=" << target.bytesPerTile() << "\n"
                  << "clockFrequency=" << static_cast<std::uint64_t>(target.clockFrequency())
                  << "\n";
        const pva::Graph graph = report.compilation().graph();
        std::cout << "numComputeSets=" << graph.numComputeSets() << "\n"
                  << "numVertices=" << graph.numVertices() << "\n"
                  << "numVariables=" << graph.numVariables() << "\n";

        std::uint64_t memory = 0, peak = 0;
        unsigned peakTile = 0;
        for (const pva::Tile& tile : report.compilation().tiles()) {
            const std::uint64_t bytes = tile.memory().total().includingGaps();
            memory += bytes;
            if (bytes > peak) {
                peak = bytes;
                peakTile = tile.number();
            }
        }
        std::cout << "memoryIncludingGaps=" << memory << "\n"
                  << "peakTile=" << peakTile << "\n"
                  << "peakTileBytes=" << peak << "\n";

        std::uint64_t cycles = 0, steps = 0;
        for (const pva::ExecutionStep& step : report.execution().steps()) {
            cycles += step.ipus()[0].cycles();
            ++steps;
        }
        std::cout << "steps=" << steps << "\n"
                  << "stepCycles=" << cycles << "\n"
                  << "totalCycles=" << report.execution().totalCycles() << "\n";

        CountingVisitor visitor;
        for (const auto& program : report.compilation().controlPrograms()) {
            program->accept(visitor);
        }
        for (const auto& entry : visitor.counts) {
            std::cout << "programs." << entry.first << "=" << entry.second << "\n";
        }
    } catch (const pva::error& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    return 0;
}
