"""The CI's own checks: .ci/check-aarch64-deps reads the dependencies from pyproject.toml."""

from __future__ import annotations

import tomllib
from importlib.machinery import SourceFileLoader
from pathlib import Path
from types import ModuleType

from tests.installing import REPO


def _check_script() -> ModuleType:
    loader = SourceFileLoader("check_aarch64_deps", str(REPO / ".ci" / "check-aarch64-deps"))
    module = ModuleType(loader.name)
    loader.exec_module(module)
    return module


def test_the_runtime_requirements_are_pyprojects_without_dev(tmp_path: Path) -> None:
    script = _check_script()
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(
        '[project]\nname = "x"\ndependencies = ["a>=1", "b"]\n'
        '[project.optional-dependencies]\ndev = ["pytest"]\nleague = ["c[binary]>=3"]\n'
    )
    assert script.runtime_requirements(pyproject) == ["a>=1", "b", "c[binary]>=3"]
    ours = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    found = script.runtime_requirements(REPO / "pyproject.toml")
    assert set(ours["dependencies"]) <= set(found)
    assert not set(ours["optional-dependencies"]["dev"]) & set(found)
