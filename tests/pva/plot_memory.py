"""Plots memory by tile to a PNG with matplotlib, as a PopVision user does
with libpva, and prints the figures it plotted (key=value lines).

    plot_memory.py REPORT OUT.png"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import pva  # noqa: E402

report = pva.openReport(sys.argv[1])
tiles = report.compilation.tiles
including = [t.memory.total.includingGaps for t in tiles]
excluding = [t.memory.total.excludingGaps for t in tiles]
always_live = [t.memory.alwaysLiveBytes for t in tiles]
vertex_code = [t.memory.category.vertexCode.total.includingGaps for t in tiles]

fig, ax = plt.subplots(figsize=(8, 4))
numbers = [t.number for t in tiles]
ax.bar(numbers, including, label="including gaps")
ax.bar(numbers, excluding, label="excluding gaps")
ax.set_xlabel("tile")
ax.set_ylabel("bytes")
ax.set_title(f"Memory by tile ({report.compilation.target.numTiles} tiles)")
ax.legend()
fig.savefig(sys.argv[2])

with open(sys.argv[2], "rb") as png:
    assert png.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
print(f"numTiles={len(tiles)}")
print(f"memoryIncludingGaps={sum(including)}")
print(f"peakTileBytes={max(including)}")
print(f"gapsMatch={all(i - e == t.memory.gapBytes for i, e, t in zip(including, excluding, tiles))}")
print(f"alwaysLiveAtMostTotal={all(a <= i for a, i in zip(always_live, including))}")
print(f"vertexCodeOnEveryTile={all(v > 0 for v in vertex_code)}")
