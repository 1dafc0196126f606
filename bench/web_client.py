"""The browser client's two targets of issue 28: its own code under 200 KB
uncompressed, and the first paint of the table under 1 s on localhost.

Size: every file of bot/web/static outside vendor/ (the vendored Discord SDK
is loaded only inside Discord, and counted apart), raw and gzipped.

First paint: the real web table (tests/browser/server.py: bot/web on
127.0.0.1, a SQLite file in a temp folder) with a Callbreak table, and a
fresh headless Chromium (empty profile: nothing cached) per run opening
``/?table=ID``; read from the page's own timing: the first contentful paint
and the client's ``ct:table`` mark (set in the animation frame after the first
``state`` frame is drawn), both from the start of navigation.

    python bench/web_client.py [--runs 7]
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.services.actor import Actor  # noqa: E402
from tests.browser.chromium import find_chromium, launch  # noqa: E402
from tests.browser.server import ServerThread  # noqa: E402

STATIC = ROOT / "bot" / "web" / "static"
LIMIT_BYTES = 200 * 1024
TIMING = """
const paint = performance.getEntriesByName("first-contentful-paint")[0];
const table = performance.getEntriesByName("ct:table")[0];
const nav = performance.getEntriesByType("navigation")[0];
return {fcp: paint ? paint.startTime : null, table: table ? table.startTime : null,
        dcl: nav ? nav.domContentLoadedEventEnd : null};
"""


def sizes() -> tuple[int, int, int, int]:
    """(own files, own bytes, own gzipped bytes, vendored bytes)."""
    own = [
        p for p in STATIC.rglob("*") if p.is_file() and "vendor" not in p.relative_to(STATIC).parts
    ]
    vendored = [p for p in STATIC.rglob("*") if p.is_file() and p not in own]
    raw = sum(p.stat().st_size for p in own)
    packed = sum(len(gzip.compress(p.read_bytes(), 9)) for p in own)
    return len(own), raw, packed, sum(p.stat().st_size for p in vendored)


def first_paints(runs: int) -> list[dict[str, float]]:
    paths = find_chromium()
    if isinstance(paths, str):
        raise SystemExit(f"bench/web_client.py: {paths}")
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        srv = ServerThread(os.path.join(tmp, "web.db")).start()
        try:
            table = srv.table(Actor.local(), "callbreak", options={"rounds": 1}, seed=1)
            for _ in range(runs):
                b = launch(paths)
                try:
                    b.open(f"{srv.url}?table={table}")
                    timing = b.wait(
                        lambda b=b: (t := b.js(TIMING))["table"] is not None and t,
                        what="the table's first paint",
                    )
                    out.append(timing)
                finally:
                    b.quit()
        finally:
            srv.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    files, raw, packed, vendored = sizes()
    print(
        f"client code: {files} files, {raw:,} bytes ({raw / 1024:.1f} KB; limit 200 KB), "
        f"gzip -9 {packed:,} bytes; vendored SDK {vendored:,} bytes (Discord mode only)"
    )
    timings = first_paints(args.runs)
    for key, name in (
        ("dcl", "DOMContentLoaded"),
        ("fcp", "first contentful paint"),
        ("table", "table drawn (ct:table)"),
    ):
        values = sorted(t[key] for t in timings if t[key] is not None)
        print(
            f"{name:>26}: median {statistics.median(values):6.0f} ms, "
            f"max {max(values):6.0f} ms over {len(values)} fresh browsers"
        )
    worst = max(t["table"] for t in timings)
    ok = raw < LIMIT_BYTES and worst < 1000
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
