"""Study: what holds the small-object allocator's arenas that a server keeps after its bot games.

    python research/studies/arena_census.py              # 200 bot rooms, census 26 s after them
    python research/studies/arena_census.py --clear     # the same, after letting go what can be

Runs ``bench/server_memory.py --rooms N --idle 30`` with a hook in the server's process (installed
through a throwaway ``sitecustomize``). The hook notes the process's memory map while the server is
idle; 26 s after the last game it walks every pool of Python's small-object allocator in the memory
mapped since then, block by block. Each block in use is named by its type when it starts with one
(objects the collector follows carry a 16-byte header first), ``[dead]`` when its reference count
is 0 (an object kept in a C free list), or ``?SIZE`` when it is not an object (a container's items,
a dict's keys). The census is written to ``OUT.arenas`` (``--out``: in the system's temporary
folder unless told), one line per arena, after the allocator's own counts
(``sys._debugmallocstats``: ``OUT.idle`` and ``OUT.after``).

``--clear`` first lets go of what it can from outside the server: the interpreter's type cache
(``sys._clear_type_cache``, which holds names such as those each unpickled planner answer brings),
the SQLite connections' lists of dead cursor references (pruned by opening cursors), and the free
lists of uvloop's handles and asyncio's future iterators (by taking more objects than they hold and
returning the newest first). Findings: ``research/memory.md``.

The walk reads the allocator's pool headers (CPython 3.11, 64-bit: 16 KiB pools, 48-byte headers)
with ``ctypes``; it is a study tool, not something to run in production.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HOOK = """
import os, sys
if os.environ.get("ARENA_CENSUS") and "serve" in " ".join(sys.argv):
    sys.path.insert(0, {here!r})
    import arena_census
    arena_census.install(os.environ["ARENA_CENSUS"], clear=bool(os.environ.get("ARENA_CLEAR")))
"""


# ============================================================ in the server's process
def install(out: str, clear: bool) -> None:
    """SIGUSR1: note the idle memory map; SIGUSR2: (let go, then) take the census."""
    import asyncio
    import collections
    import ctypes
    import gc

    idle: list[tuple[int, int]] = []
    types: dict[int, type] = {}

    def maps() -> list[tuple[int, int]]:
        found = []
        for line in open("/proc/self/maps"):
            parts = line.split()
            if "rw" in parts[1] and len(parts) < 6:  # anonymous, writable
                a, b = (int(x, 16) for x in parts[0].split("-"))
                found.append((a, b))
        return found

    def mallocstats(path: str) -> None:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        saved = os.dup(2)
        os.dup2(fd, 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(fd)

    def every_type() -> None:  # before the games, so that the census itself makes no table
        stack: list[type] = [object]
        while stack:
            t = stack.pop()
            if id(t) not in types:
                types[id(t)] = t
                stack.extend(type.__subclasses__(t))
        for o in gc.get_objects():
            if isinstance(o, type):
                types.setdefault(id(o), o)

    def on_idle(*_: object) -> None:
        every_type()
        idle[:] = maps()
        mallocstats(out + ".idle")

    def u64(a: int) -> int:
        return ctypes.c_uint64.from_address(a).value

    def u32(a: int) -> int:
        return ctypes.c_uint32.from_address(a).value

    def pool(p: int, size: int, nxt: int, into: collections.Counter[str]) -> None:
        """Name each block in use in the pool at ``p`` (its own function, so that the addresses
        it collects are gone before the census is written)."""
        free, fb = set(), u64(p + 8)
        while p <= fb < p + 16384 and fb not in free:
            free.add(fb)
            fb = u64(fb)
        for off in range(48, min(nxt, 16384 - size + 1), size):
            blk = p + off
            if blk in free:
                continue
            if u64(blk + 8) in types:
                name, refs = types[u64(blk + 8)].__name__, u64(blk)
            elif size >= 32 and u64(blk + 24) in types:
                name, refs = types[u64(blk + 24)].__name__, u64(blk + 16)
            else:
                name, refs = f"?{size}", 1
            into[name + ("[dead]" if refs == 0 else "")] += 1

    def census() -> None:
        def was_idle(x: int) -> bool:
            return any(a <= x < b for a, b in idle)

        arenas: dict[int, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        for a, b in maps():
            p = (a + 16383) & ~16383
            while p + 16384 <= b:
                count, arena, szidx, nxt, top = u32(p), u32(p + 32), u32(p + 36), u32(p + 40), u32(p + 44)
                size = (szidx + 1) * 16
                if (not was_idle(p) and szidx < 32 and top == 16384 - size and 48 <= nxt <= 16384
                        and 1 <= count <= (16384 - 48) // size):
                    pool(p, size, nxt, arenas[arena])
                p += 16384
        with open(out + ".arenas", "w") as f:
            for n in sorted(arenas):
                c = arenas[n]
                f.write(f"arena {n}: {sum(c.values())} blocks: {c.most_common(14)}\n")

    async def let_go() -> None:
        import sqlite3

        loop = asyncio.get_running_loop()
        for o in gc.get_objects():
            if type(o) is sqlite3.Connection:
                try:
                    for _ in range(202):  # every 200 cursors, a connection drops its dead references
                        o.cursor()
                except sqlite3.ProgrammingError:  # closed
                    pass
        futures = [loop.create_future() for _ in range(6000)]
        iters = [f.__await__() for f in futures]
        while iters:
            iters.pop()
        soon = [loop.call_soon(lambda: None) for _ in range(6000)]
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        while soon:
            soon.pop()
        later = [loop.call_later(3600, lambda: None) for _ in range(6000)]
        for h in later:
            h.cancel()
        await asyncio.sleep(0.1)
        while later:
            later.pop()
        await asyncio.sleep(0.1)
        sys._clear_type_cache()

    async def after() -> None:
        if clear:
            await let_go()
        gc.collect()
        mallocstats(out + ".after")
        census()

    def on_after(*_: object) -> None:
        asyncio.get_running_loop().create_task(after())

    signal.signal(signal.SIGUSR1, on_idle)
    signal.signal(signal.SIGUSR2, on_after)


# ============================================================ the driver
def arenas(path: Path) -> str:
    text = path.read_text()
    current = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", text)
    used = re.search(r"# bytes in allocated blocks\s*=\s*([\d,]+)", text)
    return f"{current[1] if current else '?'} arenas, {used[1] if used else '?'} bytes in blocks"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rooms", type=int, default=200, help="bot rooms at once (default 200)")
    ap.add_argument("--clear", action="store_true", help="let go of what can be let go first")
    ap.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "arena_census"),
                    help="prefix of the files written (default: %(default)s)")
    args = ap.parse_args()
    out = str(Path(args.out).resolve())
    for tag in ("idle", "after", "arenas"):  # nothing of an earlier run is taken for this one's
        Path(out + "." + tag).unlink(missing_ok=True)
    with tempfile.TemporaryDirectory() as hook_dir:
        Path(hook_dir, "sitecustomize.py").write_text(HOOK.format(here=str(Path(__file__).parent)))
        env = {**os.environ, "ARENA_CENSUS": out, "PYTHONPATH": hook_dir}
        if args.clear:
            env["ARENA_CLEAR"] = "1"
        bench = subprocess.Popen([sys.executable, "bench/server_memory.py", "--rooms", str(args.rooms),
                                  "--idle", "30"], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        assert bench.stdout is not None
        pid, ended = 0, False
        for line in bench.stdout:
            print(line, end="", flush=True)
            if m := re.search(r"\(pid (\d+)\)", line):
                pid = int(m[1])
            if re.match(r"\s+30 s\s+RSS", line) and pid:
                os.kill(pid, signal.SIGUSR1)
            if re.search(r"rooms\s+0\s+games\s+[1-9]", line) and not ended and pid:
                ended = True
                threading.Timer(26, os.kill, (pid, signal.SIGUSR2)).start()
        bench.wait()
    for tag in ("idle", "after"):
        if Path(out + "." + tag).exists():
            print(f"allocator {tag}: {arenas(Path(out + '.' + tag))}")
    if Path(out + ".arenas").exists():
        print(Path(out + ".arenas").read_text(), end="")
    return bench.returncode


if __name__ == "__main__":
    sys.exit(main())
