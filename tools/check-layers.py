#!/usr/bin/env python3
"""Checks that the library's layers only look down (docs/architecture.md, "Layers").

Each directory of src/ is a layer; a file may include headers of its own layer and of the
layers below it, never of a layer above. The layers below the C API also never call a public
API function (one declared REMORA_API in include/remora/): they use the C++ interfaces of the
layers below instead. Prints every violation with file and line; exit 1 if there is one.

Usage: check-layers.py [SOURCE_DIR]   (default: the repository holding this script)
"""
import pathlib
import re
import sys

# Bottom first. ga and armci are libraries of their own on the public C API, above it.
LAYERS = ["core", "transport", "progress", "rma", "coll", "arrays", "api", "ga", "armci"]
PUBLIC_API_LAYER = LAYERS.index("api")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+)/')
DECLARED = re.compile(r"REMORA_API\s+[^;(]*?\b(remora_[a-z0-9_]+)\s*\(")
COMMENT = re.compile(r"//.*$")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')  # messages name API functions: not calls


def public_functions(root):
    names = set()
    for header in (root / "include").rglob("*.h"):
        text = header.read_text(errors="replace")
        names.update(DECLARED.findall(" ".join(text.split())))
    return names


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else __file__).resolve()
    if root.is_file():
        root = root.parent.parent
    functions = public_functions(root)
    if not functions:
        print(f"check-layers: no REMORA_API declarations found under {root}/include")
        return 1
    call = re.compile(r"\b(" + "|".join(sorted(functions)) + r")\s*\(")
    problems = []
    checked = 0
    for level, layer in enumerate(LAYERS):
        for path in sorted((root / "src" / layer).rglob("*")):
            if path.suffix not in (".hpp", ".cpp", ".h", ".c"):
                continue
            checked += 1
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                where = f"{path.relative_to(root)}:{number}"
                included = INCLUDE.match(line)
                if included and included.group(1) in LAYERS:
                    target = included.group(1)
                    if LAYERS.index(target) > level:
                        problems.append(f"{where}: layer {layer} includes {target}, a layer above it")
                if level < PUBLIC_API_LAYER:
                    called = call.search(COMMENT.sub("", STRING.sub('""', line)))
                    if called:
                        problems.append(f"{where}: layer {layer} calls the public API function "
                                        f"{called.group(1)} (use the layers below instead)")
    if checked == 0:
        print(f"check-layers: no sources found under {root}/src (wrong SOURCE_DIR?)")
        return 1
    for problem in problems:
        print(problem)
    print(f"check-layers: {checked} files, {len(functions)} public functions, "
          f"{len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
