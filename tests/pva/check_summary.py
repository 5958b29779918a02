"""Checks a libpva script's key=value output against `tessera-cli summary
--json` for the same report, and against the expected (hand-derived) lines.

    check_summary.py TESSERA_CLI REPORT OUTPUT EXPECTED [--partial]

With --partial only the figures the output has are compared (a script that
prints some of them); otherwise a missing figure fails.
"""
import json
import subprocess
import sys

cli, report, output, expected = sys.argv[1:5]
partial = sys.argv[5:] == ["--partial"]
got = dict(line.split("=", 1) for line in open(output).read().split("\n") if "=" in line)
summary = json.loads(subprocess.run([cli, "summary", report, "--json"], check=True,
                                    capture_output=True, text=True).stdout)
from_cli = {
    "numTiles": summary["target"]["tiles"],
    "numIPUs": summary["target"]["ipus"],
    "bytesPerTile": summary["target"]["bytes_per_tile"],
    "clockFrequency": int(summary["target"]["clock_hz"]),
    "numComputeSets": summary["program"]["compute_sets"],
    "numVertices": summary["program"]["vertices"],
    "numVariables": summary["program"]["variables"],
    "memoryIncludingGaps": summary["memory"]["total_bytes"],
    "peakTile": summary["memory"]["peak_tile"],
    "peakTileBytes": summary["memory"]["peak_tile_bytes"],
    "steps": summary["runs"]["executed_steps"],
    "stepCycles": summary["cycles"]["total"],
    "totalCycles": summary["cycles"]["total"],
}
failures = []
for key, value in from_cli.items():
    if partial and key not in got:
        continue
    if got.get(key) != str(value):
        failures.append(f"{key}: libpva says {got.get(key)}, tessera-cli says {value}")
for line in open(expected).read().split("\n"):
    if "=" in line:
        key, value = line.split("=", 1)
        if got.get(key) != value:
            failures.append(f"{key}: libpva says {got.get(key)}, expected (by hand) {value}")
for f in failures:
    print(f, file=sys.stderr)
sys.exit(1 if failures else 0)
