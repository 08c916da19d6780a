"""Cold start (Python): read the first line of the corpus, decode it with the
acp package's pydantic model (validated), print its canonical summary. With
--all, the whole-process throughput of the original comparison: every line
decoded, the summary of them all. With --raw, what the original's Python
column timed: every line through json.loads only, without importing the acp
package.

    python cold.py CORPUS
    python cold.py --all CORPUS
    python cold.py --raw CORPUS
    python cold.py --version    # the versions it runs with
"""

import os
import platform
import sys

if sys.argv[1:] == ["--version"]:
    from importlib.metadata import version

    print(f"{platform.python_implementation()} {platform.python_version()}, "
          f"agent-client-protocol {version('agent-client-protocol')}, pydantic {version('pydantic')} "
          f"(pydantic-core {version('pydantic_core')})")
    sys.exit(0)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if sys.argv[1] == "--raw":
    import raw  # noqa: E402

    sys.stdout.buffer.write(raw.parse_lines(raw.read_lines(sys.argv[2])))
    sys.exit(0)

import codec  # noqa: E402

if sys.argv[1] == "--all":
    sys.stdout.buffer.write(codec.decode_lines(codec.read_lines(sys.argv[2])))
    sys.exit(0)

with open(sys.argv[1], encoding="utf-8") as f:
    line = f.readline().rstrip("\n")
s = codec.Summary()
codec.summarize(codec.decode(line), s)
sys.stdout.buffer.write(s.render())
