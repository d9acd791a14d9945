#!/usr/bin/env bash
# The Python package (python/), as a user gets it: `pip install ./python` into a throwaway
# virtual environment, then its pytest suite, run from outside the checkout so that the tests
# import the installed package, against the libcoredata.so that pkg-config (or $COREDATA_LIB)
# names, as the package finds it. pip fetches setuptools and pytest from PyPI.
# Usage: scripts/python-package.sh      (after scripts/install-capi.sh PREFIX and
#                                        export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work" "$root/python/build" "$root"/python/*.egg-info' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$root/python" pytest
cd "$work"
installed=$("$work/venv/bin/python" -c 'import coredata; print(coredata.__file__)')
[[ $installed == "$work/venv/"* ]] || { echo "FAIL: the tests would not import the installed package ($installed)"; exit 1; }
"$work/venv/bin/python" -m pytest -q -rs -p no:cacheprovider "$root/python/tests"
