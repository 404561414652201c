#!/usr/bin/env python3
"""transcripts.py — regenerate (or check) the command transcripts in docs/*.md.

A transcript is a fenced block right after a line `<!-- transcript -->`:

    <!-- transcript -->
    ```text
    $ moore stats slimfly:q=5 --metrics basic
    family      slimfly
    ...
    ```

Each `$ ` line is a shell command; the lines after it, up to the next `$ `
line or the fence, are what it prints (stdout and stderr together). The
commands of one document run in order in one fresh temporary directory (so a
later command can read a file an earlier one wrote), with `moore` on PATH.

    scripts/transcripts.py MOORE [DOCS...]          rewrite the transcripts
    scripts/transcripts.py --check MOORE [DOCS...]  exit 1 when any differs

Keep transcripts quick (well under a second each): tests/cli_transcripts.sh
checks them all in CI.
"""
import glob
import os
import subprocess
import sys
import tempfile

MARK = "<!-- transcript -->"


def run(cmd, cwd, env):
    p = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    return p.stdout.decode("utf-8", "replace").rstrip("\n").split("\n") if p.stdout else []


def regenerate(text, moore):
    lines = text.split("\n")
    out, i = [], 0
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(os.path.abspath(moore)) + os.pathsep + env.get("PATH", "")
    env["OMP_NUM_THREADS"] = "2"
    with tempfile.TemporaryDirectory() as cwd:
        while i < len(lines):
            out.append(lines[i])
            if lines[i].strip() != MARK:
                i += 1
                continue
            i += 1
            if i >= len(lines) or not lines[i].startswith("```"):
                raise SystemExit(f"a {MARK} line not followed by a fence")
            out.append(lines[i])
            i += 1
            body = []
            while i < len(lines) and not lines[i].startswith("```"):
                body.append(lines[i])
                i += 1
            for cmd in [b[2:] for b in body if b.startswith("$ ")]:
                out.append("$ " + cmd)
                out.extend(run(cmd, cwd, env))
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    if not args:
        raise SystemExit(__doc__)
    moore, docs = args[0], args[1:]
    if not docs:
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs")
        docs = sorted(glob.glob(os.path.join(root, "*.md")))
    bad = 0
    for path in docs:
        with open(path, encoding="utf-8") as f:
            old = f.read()
        if MARK not in old:
            continue
        new = regenerate(old, moore)
        if new == old:
            continue
        if check:
            bad += 1
            print(f"{path}: a transcript differs from what moore prints now "
                  f"(run scripts/transcripts.py MOORE to update it)")
            import difflib
            for d in list(difflib.unified_diff(old.split("\n"), new.split("\n"), lineterm=""))[:20]:
                print("    " + d)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print(f"updated {path}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
