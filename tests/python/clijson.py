"""What the Python tests share: running the moore command line (MOORE_CLI, set by ctest) and
comparing a binding's dict with the CLI's JSON object key for key."""
import json
import os
import subprocess

import pytest

CLI = os.environ.get("MOORE_CLI", "moore")


def cli(*args):
    """(status, stdout, stderr) of `moore ARGS...`."""
    p = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def cli_json(*args):
    """The JSON `moore ARGS... --json` prints (it must succeed)."""
    rc, out, err = cli(*args, "--json")
    assert rc == 0, err
    return json.loads(out)


def cli_error_line(*args):
    """The one line a refused `moore ARGS...` prints on stderr, without `moore: `."""
    rc, out, err = cli(*args)
    assert rc == 2, (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0].removeprefix("moore: ")


def assert_same(got, want, rel=1e-15):
    """The same keys and values. cJSON may print a double one ulp short, so floats are
    compared to rel; everything else exactly."""
    assert got.keys() == want.keys()
    for key, value in want.items():
        close = isinstance(got[key], float) or isinstance(value, float)
        assert got[key] == (pytest.approx(value, rel=rel) if close else value), key
