"""Helpers for the installer tests: small real wheels, unit files read as systemd does, and the
systemd tools where this machine has them."""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path, PurePosixPath

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "hardware" / "systemd" / "companion.service"


def make_wheel(folder: Path, distribution: str, version: str, script: str | None = None) -> Path:
    """A pure-Python wheel of ``distribution`` with one module, and a console script named
    ``script`` (which prints its arguments) if given: what pip installs like any other."""
    stem = distribution.replace("-", "_")
    module = f"{stem}_probe"
    files = {f"{module}.py": "import sys\n\ndef main():\n    print(*sys.argv[1:])\n"}
    info = f"{stem}-{version}.dist-info"
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n"
    files[f"{info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    if script:
        files[f"{info}/entry_points.txt"] = f"[console_scripts]\n{script} = {module}:main\n"
    record = [f"{name},sha256={_digest(text)},{len(text.encode())}" for name, text in files.items()]
    files[f"{info}/RECORD"] = "\n".join([*record, f"{info}/RECORD,,"]) + "\n"
    path = folder / f"{stem}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
    return path


def _digest(text: str | bytes) -> str:
    raw = hashlib.sha256(text.encode() if isinstance(text, str) else text).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def wheelhouse(folder: Path, distribution: str) -> Path:
    """Wheels of everything pip needs to install ``distribution`` from its source tree (its
    requirements, theirs in turn, and the build backend), repacked from what this environment
    has installed: pip installs from ``folder`` with ``--no-index``, without the network."""
    build = tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]
    wanted = [*_needs(metadata.distribution(distribution)), *(Requirement(r) for r in build)]
    done = {canonicalize_name(distribution)}
    while wanted:
        requirement = wanted.pop()
        name = canonicalize_name(requirement.name)
        if name in done:
            continue
        done.add(name)
        dist = metadata.distribution(name)
        # a version pip would refuse is better told here than as "no matching distribution"
        assert requirement.specifier.contains(dist.version, prereleases=True), (requirement, dist)
        _repack(dist, folder)
        wanted += _needs(dist)
    return folder


def _needs(dist: metadata.Distribution) -> list[Requirement]:
    """``dist``'s requirements without extras, on this interpreter."""
    requirements = [Requirement(text) for text in dist.requires or []]
    return [r for r in requirements if r.marker is None or r.marker.evaluate({"extra": ""})]


def _repack(dist: metadata.Distribution, folder: Path) -> None:
    """The wheel ``dist`` was installed from, give or take what installing added: the files
    its RECORD lists inside site-packages (console scripts are made again from its entry
    points) and a new RECORD."""
    files = [f for f in dist.files or () if ".." not in f.parts and "__pycache__" not in f.parts]
    info = next(PurePosixPath(f).parent for f in files if f.name == "METADATA")
    added = {info / name for name in ("RECORD", "INSTALLER", "REQUESTED", "direct_url.json")}
    # every tag it was built for, as its file name gave them (py2.py3-none-any)
    tags = [
        line.partition(":")[2].strip().split("-")
        for line in (dist.read_text("WHEEL") or "").splitlines()
        if line.startswith("Tag:")
    ]
    tag = "-".join(".".join(dict.fromkeys(parts)) for parts in zip(*tags, strict=True))
    record = []
    with zipfile.ZipFile(folder / f"{info.stem}-{tag}.whl", "w") as wheel:
        for file in files:
            source = Path(str(dist.locate_file(file)))
            if PurePosixPath(file) in added or not source.is_file():
                continue
            data = source.read_bytes()
            wheel.writestr(str(file), data)
            record.append(f"{file},sha256={_digest(data)},{len(data)}")
        wheel.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")


def unit_settings(text: str) -> dict[str, list[str]]:
    """``Section.Key`` -> every value given, in order (systemd lets keys repeat)."""
    settings: dict[str, list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        settings.setdefault(f"{section}.{key.strip()}", []).append(value.strip())
    return settings


def systemd_analyze() -> str:
    """The systemd-analyze program, or skip: this machine has none, or one older than 250
    (no --offline)."""
    program = shutil.which("systemd-analyze")
    if program is None:
        pytest.skip("systemd-analyze is not installed")
    version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout
    found = re.match(r"systemd (\d+)", version)
    if found is None or int(found[1]) < 250:
        pytest.skip(f"systemd-analyze too old for --offline: {version.splitlines()[:1]}")
    return program


def exposure(program: str, unit: Path, root: Path | None = None) -> tuple[float, str]:
    """``systemd-analyze security --offline``'s overall exposure of ``unit`` (0 safe .. 10),
    and its full output."""
    where = [f"--root={root}"] if root else []
    result = subprocess.run(
        [program, "security", "--offline=true", "--threshold=40", *where, str(unit)],
        capture_output=True,
        text=True,
    )
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found, result.stdout + result.stderr
    score = float(found[1])
    assert (result.returncode == 0) == (score <= 4.0), result.stdout
    return score, result.stdout
