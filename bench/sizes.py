#!/usr/bin/env python3
"""Where the bytes of the page, the embed and the npm module go.

For each WebAssembly module: its sections (raw and gzipped), then the code section by symbol
group (Dear ImGui, the JSON library, the C++ and C runtimes, each stage folder of the core, the
page's UI) and by source file, the largest functions, and the data section's embedded assets.
A group's gzipped figure is its functions' bodies compressed together: an estimate of what the
group adds to the download, not an exact share (gzip works across group boundaries).

Function names come from the symbol map the link writes beside the build (--emit-symbol-map,
moved out of the deployable folders by web/CMakeLists.txt and npm/CMakeLists.txt); a name is
given a source file when exactly one object file of the build defines it (llvm-nm), and a group
from its demangled name (llvm-cxxfilt). Without a map only the sections are printed.

Usage: sizes.py BUILD_DIR          (build/wasm: the page, the embed, the card module and the npm module)
       sizes.py --wasm FILE [--symbols FILE.symbols] [--objects DIR]
Nothing here is a test: it prints.
"""
import argparse
import base64
import gzip
import os
import re
import subprocess
import sys
from collections import defaultdict

SECTION_NAMES = {0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory", 6: "global",
                 7: "export", 8: "start", 9: "element", 10: "code", 11: "data", 12: "datacount"}


def gz(data):
    return len(gzip.compress(data, compresslevel=6, mtime=0))


def kb(n):
    return f"{n / 1000:,.1f}"


def leb(data, pos):
    """Unsigned LEB128 at pos: (value, next position)."""
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def name_at(data, pos):
    n, pos = leb(data, pos)
    return data[pos:pos + n].decode("utf-8", "replace"), pos + n


def sections(wasm):
    """[(id, name, payload start, payload end)] of a module."""
    if wasm[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    out, pos = [], 8
    while pos < len(wasm):
        sid = wasm[pos]
        size, start = leb(wasm, pos + 1)
        name = SECTION_NAMES.get(sid, f"#{sid}")
        if sid == 0:
            name = "custom: " + name_at(wasm, start)[0]
        out.append((sid, name, start, start + size))
        pos = start + size
    return out


def imported_functions(wasm, start):
    count, pos = leb(wasm, start)
    funcs = 0
    for _ in range(count):
        _, pos = name_at(wasm, pos)
        _, pos = name_at(wasm, pos)
        kind = wasm[pos]
        pos += 1
        if kind == 0:
            _, pos = leb(wasm, pos)
            funcs += 1
        elif kind in (1, 2):
            if kind == 1:
                pos += 1  # reference type
            flags = wasm[pos]
            _, pos = leb(wasm, pos + 1)
            if flags & 1:
                _, pos = leb(wasm, pos)
        elif kind == 3:
            pos += 2
    return funcs


def function_bodies(wasm, start):
    """[(body start, body end)] of the code section, in function order."""
    count, pos = leb(wasm, start)
    out = []
    for _ in range(count):
        size, pos = leb(wasm, pos)
        out.append((pos, pos + size))
        pos += size
    return out


def data_segments(wasm, start):
    count, pos = leb(wasm, start)
    out = []
    for _ in range(count):
        flags, pos = leb(wasm, pos)
        if flags == 2:
            _, pos = leb(wasm, pos)
        if flags in (0, 2):  # an offset expression: i32.const or global.get with its operand, then `end`
            _, pos = leb(wasm, pos + 1)
            pos += 1
        size, pos = leb(wasm, pos)
        out.append(wasm[pos:pos + size])
        pos += size
    return out


def read_symbols(path):
    """Function index -> name. Emscripten writes the names demangled, with characters outside
    [A-Za-z0-9_:<>.-] as \\XX hex escapes ("App::frame\\28\\29"); mangled ones (_Z...) are demangled later."""
    names = {}
    if path and os.path.isfile(path):
        for line in open(path, encoding="utf-8", errors="replace"):
            index, _, name = line.rstrip("\n").partition(":")
            if index.isdigit():
                names[int(index)] = re.sub(r"\\([0-9a-fA-F]{2})", lambda m: chr(int(m.group(1), 16)), name)
    return names


def demangle(names):
    """Mangled -> demangled, through llvm-cxxfilt (c++filt as a fallback), in one call."""
    mangled = sorted({n for n in names if n.startswith("_Z")})
    for tool in ("llvm-cxxfilt", "c++filt"):
        try:
            out = subprocess.run([tool], input="\n".join(mangled), capture_output=True, text=True, check=True).stdout
            return dict(zip(mangled, out.split("\n")))
        except (OSError, subprocess.CalledProcessError):
            continue
    return {}


def defining_objects(objects_dir):
    """Symbol -> the object files (relative paths) that define it, from llvm-nm over a build tree."""
    objs = []
    for root, _, files in os.walk(objects_dir):
        objs += [os.path.join(root, f) for f in files if f.endswith(".o")]
    where = defaultdict(set)
    if not objs:
        return where
    try:
        out = subprocess.run(["llvm-nm", "--defined-only", "--demangle", "-A", *objs], capture_output=True, text=True).stdout
    except OSError:
        return where
    for line in out.splitlines():
        # "path.o: 0000002a T traincost::web::App::frame()" (demangled names hold spaces); an
        # LLVM bitcode object (the wasm build's -flto) has "--------" in place of the address.
        m = re.match(r"^(.*?\.o): (?:[0-9a-f]+ |-+ |\s+)([TtWw]) (.+)$", line)
        if m:
            where[m.group(3)].add(source_of(m.group(1)))
    return where


def source_of(object_path):
    """core/CMakeFiles/traincost_core.dir/src/engine/evaluate.cpp.o -> core/src/engine/evaluate.cpp"""
    m = re.search(r"(?:^|/)(\w+)/CMakeFiles/[^/]+\.dir/(.+)\.o$", object_path)
    if not m:
        return os.path.basename(object_path)
    folder, rel = m.groups()
    rel = re.sub(r"^(?:__/)+", "", rel)  # CMake's ../ in object paths
    if rel.startswith("generated/"):
        return f"{folder}/{rel} (generated)"
    if "imgui" in rel and not rel.startswith(("ui/", "src/")):
        return "imgui/" + os.path.basename(rel)
    return f"{folder}/{rel}" if folder in ("core", "web", "npm", "cli", "bench") else rel


def group_of(name, demangled, source):
    """A symbol group for a function: what a reader would call the part of the program it is."""
    d = demangled or name
    if source and source.startswith("core/src/"):
        return "core: " + source.split("/")[2]
    if source and source.startswith("core/generated"):
        return "core: embedded data"
    if source and source.startswith("web/"):
        return "page UI (web/)"
    if source and source.startswith("imgui/"):
        return "Dear ImGui"
    if "nlohmann::" in d:
        # Two instantiations of basic_json: Json (std::map) and OrderedJson (ordered_map).
        return "JSON library: " + ("OrderedJson (ordered_map)" if "ordered_map" in d else "Json (std::map)")
    if re.match(r"^(ImGui|Im[A-Z]|ImGui_Impl|stb|ImStb|ImFont)", d) or "ImGui" in d[:40]:
        return "Dear ImGui"
    if d.startswith("traincost::web::"):
        return "page UI (web/)"
    if d.startswith("traincost::"):
        return "core (inline/templates)"
    if d.startswith(("std::", "void std::", "bool std::")) or "std::__2::" in d[:60]:
        return "C++ library (libc++)"
    if name.startswith("_Z"):
        return "other C++"
    if name.startswith(("emscripten_", "_emscripten", "glfw", "_glfw", "gl", "emscripten")):
        return "Emscripten runtime, GLFW, GL"
    return "C library and runtime (libc, malloc, printf, math)"


def report(label, wasm, symbols=None, objects=None, embedded=(), top=15, out=sys.stdout):
    p = lambda *a: print(*a, file=out)
    secs = sections(wasm)
    p(f"== {label}: {kb(len(wasm))} KB raw, {kb(gz(wasm))} KB gzipped (gzip -6; KB = 1000 bytes)")
    p(f"  {'section':36}{'raw KB':>10}{'gzip KB':>10}")
    for _, name, a, b in secs:
        p(f"  {name:36}{kb(b - a):>10}{kb(gz(wasm[a:b])):>10}")
    names = read_symbols(symbols)
    code = next(((a, b) for sid, _, a, b in secs if sid == 10), None)
    imports = next((a for sid, _, a, _ in secs if sid == 2), None)
    data = next((a for sid, _, a, _ in secs if sid == 11), None)
    if data is not None and embedded:
        blob = b"".join(data_segments(wasm, data))
        found = [(os.path.basename(f), len(t)) for f, t in embedded if t and t in blob]
        if found:
            p(f"  of the data section, embedded assets: " + ", ".join(f"{n} {kb(s)} KB" for n, s in found) +
              f" (together {kb(sum(s for _, s in found))} KB raw)")
    if not code or not names:
        if not names:
            p("  (no symbol map: only sections)")
        return
    first = imported_functions(wasm, imports) if imports is not None else 0
    bodies = function_bodies(wasm, code[0])
    plain = demangle(names.values())
    where = defining_objects(objects) if objects else {}
    groups, files, funcs = defaultdict(list), defaultdict(list), []
    for i, (a, b) in enumerate(bodies):
        name = names.get(first + i, f"function {first + i}")
        defs = where.get(name, set())
        source = next(iter(defs)) if len(defs) == 1 else None
        d = plain.get(name, name)
        g = group_of(name, d, source)
        groups[g].append(wasm[a:b])
        files[source or f"(inline or library) {g}"].append(wasm[a:b])
        funcs.append((b - a, d))

    def table(title, buckets, n):
        rows = sorted(((sum(map(len, v)), gz(b"".join(v)), k, len(v)) for k, v in buckets.items()), reverse=True)
        p(f"  {title:60}{'raw KB':>10}{'gzip KB':>10}{'funcs':>7}")
        for raw, z, k, count in rows[:n]:
            p(f"    {k[:58]:58}{kb(raw):>10}{kb(z):>10}{count:>7}")
        if len(rows) > n:
            rest = rows[n:]
            p(f"    {f'({len(rest)} more)':58}{kb(sum(r[0] for r in rest)):>10}{'':>10}{sum(r[3] for r in rest):>7}")

    table("code by group", groups, 40)
    table("code by source file", files, top + 10)
    p(f"  largest functions{'':43}{'raw KB':>10}")
    for size, d in sorted(funcs, reverse=True)[:top]:
        p(f"    {d[:70]:70}{kb(size):>8}")


def npm_wasm(module_js):
    """The wasm a SINGLE_FILE Emscripten module carries as a base64 data URI."""
    text = open(module_js, encoding="utf-8", errors="replace").read()
    m = re.search(r"data:application/octet-stream;base64,([A-Za-z0-9+/=]+)", text)
    return base64.b64decode(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", help="the wasm build folder (build/wasm)")
    ap.add_argument("--wasm")
    ap.add_argument("--symbols")
    ap.add_argument("--objects")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    source_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    embedded = []
    for rel in ["assets/catalog.json", "assets/published_runs.json", "assets/presets.json"] + \
               [os.path.join("assets/scenarios", f) for f in sorted(os.listdir(os.path.join(source_dir, "assets/scenarios")))]:
        with open(os.path.join(source_dir, rel), "rb") as f:
            embedded.append((rel, f.read()))
    if args.wasm:
        with open(args.wasm, "rb") as f:
            report(args.wasm, f.read(), args.symbols, args.objects, embedded, args.top)
        return
    build = os.path.abspath(args.build or "build/wasm")
    page = os.path.join(build, "site", "traincost.wasm")
    if os.path.isfile(page):
        with open(page, "rb") as f:
            report("the page's module (calculator.html, also the embed)", f.read(), os.path.join(build, "web", "traincost.js.symbols"),
                   build, embedded, args.top)
    card = os.path.join(build, "site", "traincost-card.wasm")
    if os.path.isfile(card):
        with open(card, "rb") as f:
            print()
            report("the card module (traincost-card.wasm: a link's card before the calculator, and the embed until it is asked for)",
                   f.read(), os.path.join(build, "web", "traincost-card.js.symbols"), build, embedded, args.top)
    npm = os.path.join(build, "npm", "traincost", "traincost_core.js")
    if os.path.isfile(npm):
        wasm = npm_wasm(npm)
        if wasm:
            print()
            report("the npm module's wasm (inside traincost_core.js as base64)", wasm, os.path.join(build, "npm", "traincost_core.js.symbols"),
                   build, embedded, args.top)


if __name__ == "__main__":
    main()
