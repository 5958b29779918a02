"""Programs as libpva has them, in Python: a pva.ProgramVisitor subclass
whose visitXxx methods get the per-type classes (OnTileExecuteProgram with
its computeset), and each loop iteration's executions in execution.steps.
Prints what visitor.cpp prints (tests/pva/expected_visitor_*.txt).

    visitor.py tree|steps REPORT"""
import sys

import pva


class TreePrinter(pva.ProgramVisitor):
    def __init__(self):
        super().__init__()
        self.depth = 0

    def line(self, visited, program, extra=""):
        print(f"{'  ' * self.depth}{visited} '{program.name}'{extra}")
        self.depth += 1
        for child in program.children:
            child.accept(self)
        self.depth -= 1

    def visitSequence(self, p):
        assert isinstance(p, pva.SequenceProgram)
        self.line("Sequence", p)

    def visitRepeat(self, p):
        assert isinstance(p, pva.RepeatProgram)
        self.line("Repeat", p)

    def visitBlock(self, p):
        assert isinstance(p, pva.BlockProgram)
        self.line("Block", p)

    def visitOnTileExecute(self, p):
        assert isinstance(p, pva.OnTileExecuteProgram)
        self.line("OnTileExecute", p, f" computeSet={p.computeset.name}")

    def visitDoExchange(self, p):
        assert isinstance(p, pva.DoExchangeProgram)
        self.line("DoExchange", p)

    def visitStreamCopyBegin(self, p):
        assert isinstance(p, pva.StreamCopyBeginProgram)
        self.line("StreamCopyBegin", p)

    def visitStreamCopyMid(self, p):
        assert isinstance(p, pva.StreamCopyMidProgram)
        self.line("StreamCopyMid", p)

    def visitStreamCopyEnd(self, p):
        assert isinstance(p, pva.StreamCopyEndProgram)
        self.line("StreamCopyEnd", p)

    def visitSync(self, p):
        assert isinstance(p, pva.SyncProgram)
        self.line("Sync", p)

    def visitProgram(self, p):
        self.line("other", p)


report = pva.openReport(sys.argv[2])
if sys.argv[1] == "tree":
    report.compilation.controlPrograms[0].accept(TreePrinter())
else:
    for step in report.execution.steps:
        print(f"{step.program.type.name} '{step.program.name}': {step.cycles}")
