"""A libpva script in Python as a PopVision user writes one: the same figures
as report_summary.cpp, in libpva's Python spelling (attributes, not calls),
printed as key=value lines for check_summary.py."""
import sys

import pva


class CountingVisitor(pva.ProgramVisitor):
    def __init__(self):
        super().__init__()
        self.counts = {}

    def count(self, kind, program):
        self.counts[kind] = self.counts.get(kind, 0) + 1
        for child in program.children:
            child.accept(self)

    def visitSequence(self, p): self.count("Sequence", p)
    def visitRepeat(self, p): self.count("Repeat", p)
    def visitBlock(self, p): self.count("Block", p)
    def visitOnTileExecute(self, p): self.count("OnTileExecute", p)
    def visitDoExchange(self, p): self.count("DoExchange", p)
    def visitStreamCopyBegin(self, p): self.count("StreamCopyBegin", p)
    def visitStreamCopyMid(self, p): self.count("StreamCopyMid", p)
    def visitStreamCopyEnd(self, p): self.count("StreamCopyEnd", p)
    def visitProgram(self, p): self.count("other", p)


report = pva.openReport(sys.argv[1])
target = report.compilation.target
print(f"type={target.type}")
print(f"numIPUs={target.numIPUs}")
print(f"numTiles={target.numTiles}")
print(f"bytesPerTile={target.bytesPerTile}")
print(f"clockFrequency={int(target.clockFrequency)}")
graph = report.compilation.graph
print(f"numComputeSets={graph.numComputeSets}")
print(f"numVertices={graph.numVertices}")
print(f"numVariables={graph.numVariables}")

memory = [t.memory.total.includingGaps for t in report.compilation.tiles]
print(f"memoryIncludingGaps={sum(memory)}")
print(f"peakTile={memory.index(max(memory))}")
print(f"peakTileBytes={max(memory)}")

steps = report.execution.steps
print(f"steps={len(steps)}")
print(f"stepCycles={sum(s.ipus[0].cycles for s in steps)}")
print(f"totalCycles={report.execution.totalCycles}")

visitor = CountingVisitor()
for program in report.compilation.controlPrograms:
    program.accept(visitor)
for kind in sorted(visitor.counts):
    print(f"programs.{kind}={visitor.counts[kind]}")
