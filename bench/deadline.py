"""How long after its time limit a streamed review's last message reaches a gRPC client:
what the server must keep back from a call's deadline (server/service.py, DEADLINE_MARGIN).

    python bench/deadline.py            # 2 rounds: 6 whole played deals x limits 3 and 6 s

Starts an ``atout serve`` (two search processes), calls AnalyzeStream on whole played deals
(tests/data/played.jsonl) with a time limit T and no deadline, and prints for each call how
long after T its last message arrived, then the median and the worst.  A deal reviewed
whole before T (Austrian Tarock's often are) says so and is left out."""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from serving import ServerProcess  # noqa: E402

from atout.client.remote import Client  # noqa: E402


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    deals = [json.loads(line) for line in
             (ROOT / "tests" / "data" / "played.jsonl").read_text().splitlines()[:6]]
    server = ServerProcess(Path(tempfile.mkdtemp()), worker_count=2)
    late = []
    try:
        with Client(server.address) as client:
            for _ in range(rounds):
                for deal in deals:
                    for limit in (3.0, 6.0):
                        began = time.monotonic()
                        for message in client.analyze_stream(deal, time_limit=limit):
                            pass
                        after = time.monotonic() - began - limit
                        if after < 0:
                            print(f"{deal['game']} {limit:.0f} s: reviewed whole in "
                                  f"{after + limit:.2f} s")
                            continue
                        late.append(after)
                        print(f"{deal['game']} {limit:.0f} s: last message {after:.3f} s "
                              "after the limit", flush=True)
    finally:
        server.stop()
    print(f"{len(late)} calls: median {statistics.median(late):.3f} s, worst {max(late):.3f} s")


if __name__ == "__main__":
    main()
