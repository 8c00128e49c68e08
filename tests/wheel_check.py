"""The wheel alone runs the product: CI's check (``.ci/check-wheel``, and ``tests/test_wheel.py``).

Builds the wheel from the checkout, looks inside it (one top-level package, ``companion``, and
every file the package has in the checkout), installs it into a fresh venv outside the
checkout, and from an empty folder runs what a new user would: ``companion cards list``,
``example``, ``replay`` of a tape the package carries, ``serve --simulate`` on an empty
database (fetching every page, the API documents and every static file the pages load), and
``demo``. A file missing from the wheel fails one of these.

Usage: python -m tests.wheel_check [WORK_FOLDER]   (exit 1 and a list of problems on failure)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGE = "companion"
#: in the checkout for people, not needed by the installed package
NOT_SHIPPED = re.compile(r"(^|/)(README\.md|__pycache__/.*|.*\.pyc)$")
PAGES = ("/", "/setup", "/history", "/enrol", "/readers")
DOCUMENTS = ("/api/state", "/api/openapi.json", "/api/readers", "/api/factions", "/api/games")
STATIC = re.compile(r"""(?:href|src)="(/static/[^"]+)\"""")
JS_IMPORT = re.compile(r"""^\s*import\b[^'"]*["'](\./[^"']+)["']""", re.MULTILINE)
TIMEOUT = 60


class Failed(Exception):
    """One thing the installed wheel got wrong."""


def build(source: Path, out: Path) -> Path:
    """``pip wheel . --no-deps`` of ``source`` into ``out``; the wheel's path."""
    run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-w", str(out), "-q"])
    wheels = sorted(out.glob("table_companion-*.whl"))
    if len(wheels) != 1:
        raise Failed(f"expected one table_companion wheel in {out}, found {wheels}")
    return wheels[0]


def tracked(root: Path = REPO) -> list[str]:
    """The checkout's files, new ones too, but not what git ignores (build leftovers, venvs)."""
    command = ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"]
    listed = subprocess.run(command, cwd=root, capture_output=True, text=True)
    if listed.returncode != 0:
        raise Failed(f"cannot list the checkout's files with git: {listed.stderr.strip()}")
    return [name for name in listed.stdout.split("\0") if name and (root / name).exists()]


def clean_copy(folder: Path, root: Path = REPO) -> Path:
    """The checkout's tracked files (links kept as links) in ``folder``: a stale ``build/`` or
    ``*.egg-info`` of the checkout must not put into the wheel what its settings leave out."""
    for name in tracked(root):
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / name, target, follow_symlinks=False)
    return folder


def package_files(root: Path = REPO) -> set[str]:
    """The package's files in the checkout, as paths inside a wheel."""
    names = [name for name in tracked(root) if name.startswith(f"{PACKAGE}/")]
    return {name for name in names if not NOT_SHIPPED.search(name)}


def contents_problems(wheel: Path, expected: set[str]) -> list[str]:
    """What is wrong inside the wheel: a top-level name other than the package (and its
    metadata), or a file of the package missing."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    problems = []
    for top in sorted({name.split("/")[0] for name in names}):
        if top != PACKAGE and not top.endswith(".dist-info"):
            problems.append(f"the wheel installs a top-level {top!r}; only {PACKAGE!r} may")
    problems += [f"{name} is not in the wheel" for name in sorted(expected - names)]
    return problems


def install(wheel: Path, folder: Path) -> Path:
    """A fresh venv in ``folder`` with the wheel (and its dependencies) installed; its bin.
    The checkout's pip installs into it (``--python``): seeding the venv with a pip of its own
    (ensurepip) took 4 of the check's 20 s, and nothing here runs the venv's pip."""
    venv = folder / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = str(venv / "bin" / "python")
    run([sys.executable, "-m", "pip", "--python", python, "install", "-q", str(wheel)])
    return venv / "bin"


def run(command: list[str], cwd: Path | None = None) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=600
    )
    if done.returncode != 0:
        raise Failed(f"`{' '.join(command)}` exited {done.returncode}:\n{done.stderr[-3000:]}")
    if "Traceback" in done.stdout + done.stderr:
        raise Failed(f"`{' '.join(command)}` printed a traceback:\n{done.stderr[-3000:]}")
    return done.stdout


def clean_env() -> dict[str, str]:
    """The environment without anything pointing back into the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    return env


def check_commands(bin_dir: Path, elsewhere: Path) -> None:
    companion = str(bin_dir / "companion")
    where = run(
        [str(bin_dir / "python"), "-c", "import companion; print(companion.__file__)"],
        cwd=elsewhere,
    ).strip()
    if not Path(where).is_relative_to(bin_dir.parent):
        raise Failed(f"the venv imports companion from {where}, not from the installed wheel")
    if len(run([companion, "cards", "list"], cwd=elsewhere).splitlines()) < 300:
        raise Failed("`companion cards list` lists fewer than 300 cards")
    if "Ann" not in run([companion, "example"], cwd=elsewhere):
        raise Failed("`companion example` printed no table")
    code = "import importlib.resources as r; print(r.files('companion.tape') / 'bundled')"
    bundled = Path(run([str(bin_dir / "python"), "-c", code], cwd=elsewhere).strip())
    tape = bundled / "oops-2p.jsonl"
    document = json.loads(run([companion, "replay", str(tape), "--json"], cwd=elsewhere))
    if [p["name"] for p in document["players"]] != ["Ann", "Ben"]:
        raise Failed(f"`companion replay {tape.name} --json` gave another game")


def check_serve(bin_dir: Path, elsewhere: Path) -> None:
    """``serve --simulate`` on an empty database: every page and what it loads, no game."""
    database = elsewhere / "first-boot" / "companion.db"
    database.parent.mkdir(exist_ok=True)
    with Served(
        [str(bin_dir / "companion"), "serve", "--simulate", "--db", str(database), "--port", "0"],
        elsewhere,
    ) as url:
        state = json.loads(fetch(url, "/api/state"))
        if state.get("playing") is not False or state.get("state") is not None:
            raise Failed(f"a first boot's /api/state is not the no-game document: {state}")
        for path in DOCUMENTS:
            json.loads(fetch(url, path))
        for path in sorted(set(PAGES) | static_files(url)):
            fetch(url, path)


def check_demo(bin_dir: Path, elsewhere: Path) -> None:
    command = [str(bin_dir / "companion"), "demo", "--port", "0", "--db", str(elsewhere / "d.db")]
    with Served(command, elsewhere) as url:
        if json.loads(fetch(url, "/api/state")).get("demo") is not True:
            raise Failed("`companion demo` serves no demo game")


def static_files(url: str) -> set[str]:
    """Every static file the pages load, following the ES modules' imports."""
    found: set[str] = set()
    todo = [path for page in PAGES for path in STATIC.findall(fetch(url, page))]
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        if path.endswith(".js"):
            folder = path.rsplit("/", 1)[0]
            todo += [f"{folder}/{name[2:]}" for name in JS_IMPORT.findall(fetch(url, path))]
    return found


def fetch(url: str, path: str) -> str:
    try:
        with urllib.request.urlopen(url + path, timeout=TIMEOUT) as answer:
            body = answer.read()
    except urllib.error.HTTPError as exc:
        raise Failed(f"GET {path} answered {exc.code}") from None
    if not body:
        raise Failed(f"GET {path} answered an empty body")
    return body.decode()


class Served:
    """A serving command, its address (from what it prints), stopped by SIGTERM."""

    ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+)/")

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.command = command
        self.process = subprocess.Popen(
            command,
            cwd=cwd,
            env=clean_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.printed: list[str] = []

    def __enter__(self) -> str:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.printed.append(line)
            found = self.ADDRESS.search(line)
            if found:
                return found.group(1)
        self.process.wait(TIMEOUT)
        raise Failed(f"`{' '.join(self.command)}` printed no address:\n{''.join(self.printed)}")

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise Failed(f"`{' '.join(self.command)}` did not stop on SIGTERM") from None
        assert self.process.stdout is not None
        rest = self.process.stdout.read()
        self.process.stdout.close()
        if exc[0] is None and (status != 0 or "Traceback" in rest):
            raise Failed(f"`{' '.join(self.command)}` stopped with {status}:\n{rest[-3000:]}")


def check(folder: Path) -> list[str]:
    """Every problem found with the wheel of this checkout (empty: it runs on its own)."""
    wheel = build(clean_copy(folder / "source"), folder / "dist")
    problems = contents_problems(wheel, package_files())
    bin_dir = install(wheel, folder)
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir(parents=True, exist_ok=True)
    for step in (check_commands, check_serve, check_demo):
        try:
            step(bin_dir, elsewhere)
        except (Failed, OSError, ValueError) as exc:
            problems.append(f"{step.__name__}: {exc}")
    return problems


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="wheel-check-") as scratch:
        folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(scratch)
        try:
            problems = check(folder)
        except Failed as exc:
            problems = [str(exc)]
    for problem in problems:
        print(f"wheel check: {problem}", file=sys.stderr)
    if not problems:
        print("wheel check: the wheel installs and runs on its own")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
