#!/usr/bin/python3
"""Writes scripts/hot-code.order: the functions of Meridian's binary (its own, the Swift
runtime's, the C targets') that the map scenario runs, found by running it under callgrind.

    scripts/hot-code.py [BINARY]        (the release build: make build first)

The release link lays these out first and together (scripts/release-flags.sh), so that a
map's first minutes touch a few contiguous MiB of code instead of pages spread over all of
it: the kernel maps 64 KiB around every page touched, so scattered hot code costs memory
for everything beside it. The scenario: start on loopback street tiles at zoom 6, pan,
zoom in and out with the wheel, open the search, and idle, as peer-bench's map, pan and zoom
scenarios and a first look do. Names that a later build no longer has are skipped by the
linker; run this again when the code has changed much."""
import collections, os, re, subprocess, sys, tempfile, time

from map_scenario import MapScenario, ROOT

BINARY = os.path.realpath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/meridian"))
ORDER = os.path.join(ROOT, "scripts/hot-code.order")


def functions(callgrind_out, binary):
    """Function names run in `binary`, in the order callgrind first names them."""
    objects, names, found, seen = {}, {}, [], set()
    current = None

    def named(table, text):
        # "(12) name" defines id 12; "(12)" refers to it.
        m = re.match(r"\((\d+)\)(?: (.*))?$", text)
        if not m:
            return text
        if m[2] is not None:
            table[m[1]] = m[2]
        return table.get(m[1], "")

    with open(callgrind_out) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key in ("ob", "cob", "jfi", "jump") or not value:
                if key == "ob":
                    current = named(objects, value)
                elif key == "cob":
                    named(objects, value)
                continue
            if key in ("fn", "cfn"):
                # Callgrind tells a function's recursion levels apart ("f'2"); unnamed code is
                # an address, which no linker can place.
                name = re.sub(r"'\d+$", "", named(names, value))
                if name.startswith("0x"):
                    continue
                if key == "fn" and current and os.path.realpath(current) == binary and name and name not in seen:
                    seen.add(name)
                    found.append(name)
    return found


def main():
    if not os.path.exists(BINARY):
        sys.exit(f"no {BINARY}: make build first")
    out = tempfile.mktemp(prefix="meridian-callgrind-")
    # Valgrind cannot read the toolchain's DWARF 5: a copy without debug info (its symbol
    # table, which names the functions, kept).
    profiled = tempfile.mktemp(prefix="meridian-profiled-")
    subprocess.run(["objcopy", "--strip-debug", BINARY, profiled], check=True)
    valgrind = ["valgrind", "--tool=callgrind", "--demangle=no", "--dump-instr=no", "--compress-strings=yes",
                f"--callgrind-out-file={out}"]
    with MapScenario(profiled, wrapper=valgrind) as s:
        # Under callgrind the app runs some fifty times slower: generous waits.
        if not s.wait_for("memory ", 300):
            sys.exit("the map did not settle under callgrind:\n" + s.log()[-2000:])
        s.xdotool("mousemove", "640", "400")
        for dx in (200, -200):
            s.xdotool("mousedown", "1")
            for step in range(1, 6):
                s.xdotool("mousemove", str(640 + dx * step // 5), "400")
                time.sleep(0.3)
            s.xdotool("mouseup", "1")
            time.sleep(3)
        for button in ("4", "4", "5", "5"):
            s.xdotool("click", button)
            time.sleep(3)
        s.xdotool("key", "slash")
        time.sleep(3)
        s.xdotool("type", "Zur")
        time.sleep(5)
        s.xdotool("key", "Escape")
        time.sleep(10)
        pid = s.pid("callgrind-out-file")
        if pid:
            os.kill(int(pid), 15)
        deadline = time.time() + 120
        while time.time() < deadline and pid and os.path.exists(f"/proc/{pid}"):
            time.sleep(0.5)
    names = functions(out, profiled)
    os.unlink(out)
    # A name defined more than once (a local value witness, an outlined copy, in many objects)
    # would pull every section that has one to the front: only names that say one function.
    defined = collections.Counter(line.split()[-1] for line in subprocess.run(
        ["nm", "--defined-only", profiled], capture_output=True, text=True, check=True).stdout.splitlines() if line.strip())
    names = [n for n in names if defined[n] == 1]
    os.unlink(profiled)
    if len(names) < 1000:
        sys.exit(f"only {len(names)} functions ran: not the whole scenario")
    with open(ORDER, "w") as f:
        f.write("\n".join(names) + "\n")
    print(f"{ORDER}: {len(names)} functions")


if __name__ == "__main__":
    main()
