"""A report Tessera cannot read gives one clear error naming the file.

    unreadable.py FILE"""
import sys

import pva

try:
    pva.openReport(sys.argv[1])
except pva.Error as e:
    print(e)
    sys.exit(0)
print("opened a file that is not a report")
sys.exit(1)
