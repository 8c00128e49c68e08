"""Helpers for the installer tests: small real wheels, unit files read as systemd does, and the
systemd tools where this machine has them."""

from __future__ import annotations

import base64
import hashlib
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

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


def _digest(text: str) -> str:
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


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
