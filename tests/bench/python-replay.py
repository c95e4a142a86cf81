"""make bench (bench-python.sh): every record of a database judged from Python
with koma.replay; prints the count of verdicts and of disputed ones."""
import sys

import koma

n = disputed = 0
for v in koma.replay(sys.argv[1], errors="skip"):
    n += 1
    disputed += v.disputed
print(n, disputed)
