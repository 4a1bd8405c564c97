"""The ABI between Python and libthrum cannot drift unseen: every option struct of include/thrum.h is the
ctypes Structure of the same name field for field (names, C types, order), and a C compiler's layout of the
header (sizeof, offsetof) equals ctypes'. Renaming an option in thrum.h, or in the command line (which only
maps its own flags onto the same services; neither door parses the other's text), fails here or in the
library's build, never at a user's call."""
import ctypes
import re
import shutil
import subprocess

import pytest

from thrum import _native
from conftest import REPOSITORY

HEADER = REPOSITORY / "include" / "thrum.h"

C_TYPES = {
    "size_t": ctypes.c_size_t, "int64_t": ctypes.c_int64, "int": ctypes.c_int, "double": ctypes.c_double,
    "const char *": ctypes.c_char_p, "const char *const *": ctypes.POINTER(ctypes.c_char_p),
}


def header_structs() -> dict:
    """{struct name: [(field, C type), ...]} of every `typedef struct NAME {...} NAME;` in thrum.h."""
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    structs = {}
    for name, body, alias in re.findall(r"typedef struct (\w+) \{(.*?)\} (\w+);", text, flags=re.S):
        assert name == alias, name
        fields = []
        for declaration in body.split(";"):
            declaration = " ".join(declaration.split())
            if not declaration:
                continue
            match = re.fullmatch(r"(.*?)(\w+(?:, \w+)*)", declaration)
            kind = re.sub(r"\s*\*\s*", " *", match.group(1).strip()).strip()  # "const char *const *"
            for field in match.group(2).split(", "):
                fields.append((field, kind))
        structs[name] = fields
    return structs


def ctypes_type(kind: str):
    if kind in C_TYPES:
        return C_TYPES[kind]
    pointee = re.fullmatch(r"const (\w+) \*", kind)
    assert pointee, f"thrum.h uses a C type the test does not know: {kind!r}"
    return ctypes.POINTER(_native.STRUCTS[pointee.group(1)])


def test_every_struct_of_the_header_is_a_ctypes_structure_field_for_field():
    structs = header_structs()
    assert set(structs) == set(_native.STRUCTS), "thrum.h's option structs and python/thrum/_native.py's differ"
    for name, fields in structs.items():
        python = _native.STRUCTS[name]._fields_
        assert [field for field, _ in python] == [field for field, _ in fields], name
        for (field, kind), (_, python_kind) in zip(fields, python):
            assert python_kind == ctypes_type(kind), f"{name}.{field}: thrum.h {kind!r}, ctypes {python_kind}"


def test_a_c_compiler_lays_the_structs_out_as_ctypes_does(tmp_path):
    compiler = shutil.which("cc")
    if not compiler:
        pytest.skip("no C compiler (cc) to lay out thrum.h with")
    structs = header_structs()
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "thrum.h"', "int main(void) {"]
    for name, fields in structs.items():
        lines.append(f'    printf("{name} %zu\\n", sizeof({name}));')
        for field, _ in fields:
            lines.append(f'    printf("{name}.{field} %zu\\n", offsetof({name}, {field}));')
    lines += ["    return 0;", "}"]
    (tmp_path / "layout.c").write_text("\n".join(lines) + "\n")
    subprocess.run([compiler, "-std=c99", "-I", str(HEADER.parent), "-o", str(tmp_path / "layout"),
                    str(tmp_path / "layout.c")], check=True)
    layout = dict(line.rsplit(" ", 1) for line in subprocess.run(
        [str(tmp_path / "layout")], check=True, capture_output=True, text=True).stdout.splitlines())
    for name, structure in _native.STRUCTS.items():
        assert int(layout[name]) == ctypes.sizeof(structure), f"sizeof({name})"
        for field, _ in structure._fields_:
            assert int(layout[f"{name}.{field}"]) == getattr(structure, field).offset, f"offsetof({name}, {field})"


def test_defaults_are_what_the_header_says_not_given_means():
    options = _native.RenderOptions()
    assert options.struct_size == ctypes.sizeof(_native.RenderOptions)
    assert options.loops == -1 and options.rate != options.rate and not options.engine and options.loop == 0
