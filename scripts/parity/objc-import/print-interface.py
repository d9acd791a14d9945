#!/usr/bin/env python3
"""Prints the Swift interface that Swift's own importer derives from a directory of
Objective-C headers, on Linux, by asking SourceKit (libsourcekitdInProc.so, part of the Swift
toolchain) to open the interface of a Clang module with Objective-C interop switched on.

The directory must hold a module.modulemap declaring the module (and any stand-in modules it
imports, such as the Foundation stand-in Prelude.h next to this script), and may hold a
`<Module>.apinotes` file, which the importer applies as it does in Apple's SDK.

Usage: print-interface.py MODULE HEADER_DIR [-o OUTPUT]
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import tempfile


def sourcekitd():
    swift = shutil.which("swift")
    if not swift:
        raise SystemExit("swift is not on PATH")
    lib_dir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(swift))), "lib")
    lib = ctypes.CDLL(os.path.join(lib_dir, "libsourcekitdInProc.so"))
    lib.sourcekitd_initialize()
    lib.sourcekitd_request_create_from_yaml.restype = ctypes.c_void_p
    lib.sourcekitd_request_create_from_yaml.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
    lib.sourcekitd_send_request_sync.restype = ctypes.c_void_p
    lib.sourcekitd_send_request_sync.argtypes = [ctypes.c_void_p]
    lib.sourcekitd_response_description_copy.restype = ctypes.c_void_p
    lib.sourcekitd_response_description_copy.argtypes = [ctypes.c_void_p]
    return lib


def interface(module, header_dir):
    lib = sourcekitd()
    cache = tempfile.mkdtemp(prefix="parity-modulecache-")
    args = ["-I", os.path.abspath(header_dir), "-Xfrontend", "-enable-objc-interop",
            "-Xcc", "-w", "-module-cache-path", cache]
    request = ("{key.request: source.request.editor.open.interface, key.name: \"parity\", "
               f"key.modulename: \"{module}\", key.compilerargs: [{', '.join(json.dumps(a) for a in args)}]}}")
    error = ctypes.c_char_p()
    req = lib.sourcekitd_request_create_from_yaml(request.encode(), ctypes.byref(error))
    if not req:
        raise SystemExit(f"bad request: {error.value}")
    response = lib.sourcekitd_send_request_sync(req)
    text = ctypes.cast(lib.sourcekitd_response_description_copy(response), ctypes.c_char_p).value.decode()
    shutil.rmtree(cache, ignore_errors=True)
    m = re.search(r'key.sourcetext: "(.*)"\n', text, re.S)
    if not m:
        raise SystemExit(text[-4000:])
    return m.group(1).encode().decode("unicode_escape")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module")
    parser.add_argument("header_dir")
    parser.add_argument("-o", "--output")
    args = parser.parse_args()
    text = interface(args.module, args.header_dir)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        print(text)


if __name__ == "__main__":
    main()
