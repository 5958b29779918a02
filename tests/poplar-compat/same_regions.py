"""Checks two reports hold the same memory regions, and that there are two
(mk2's interleaved and non-interleaved halves): same_regions.py A.pop B.pop"""
import sqlite3
import sys


def regions(path):
    with sqlite3.connect(path) as db:
        return db.execute("select * from regions order by 1").fetchall()


a, b = regions(sys.argv[1]), regions(sys.argv[2])
if len(a) != 2 or a != b:
    sys.exit(f"regions differ or are not two: {a} vs {b}")
