"""Lists lightweight-profiling blocks with their cycles, as Graphcore's
lightweight-profiling tutorial does, from a report on disk.

    blocks.py REPORT NUM_TILES"""
import sys

import pva

report = pva.openReport(sys.argv[1])
for tile in range(int(sys.argv[2])):
    for block in report.execution.blocks(tile):
        if block.isStreamCopy:
            name = block.program.type.name
        else:
            name = block.program.name
        print(f"tile {tile} {name}: {block.cyclesTo - block.cyclesFrom}")
