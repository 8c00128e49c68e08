"""The wheel alone runs the product (``tests/wheel_check.py``, also ``.ci/check-wheel``).

The whole check builds and installs the wheel (half a minute or so): it is marked ``wheel`` and
runs in CI (``CI=1``) or with ``--wheel``. The checks of the wheel's contents run always.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from tests import wheel_check

EXPECTED = {"companion/__init__.py", "companion/web/static/js/table.js"}


def a_wheel(folder: Path, names: list[str]) -> Path:
    path = folder / "table_companion-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name in names:
            wheel.writestr(name, "x")
    return path


def test_a_complete_wheel_passes(tmp_path: Path) -> None:
    wheel = a_wheel(tmp_path, [*EXPECTED, "table_companion-0.1.0.dist-info/RECORD"])
    assert wheel_check.contents_problems(wheel, EXPECTED) == []


def test_a_file_missing_from_the_wheel_fails_it(tmp_path: Path) -> None:
    wheel = a_wheel(tmp_path, ["companion/__init__.py"])
    assert wheel_check.contents_problems(wheel, EXPECTED) == [
        "companion/web/static/js/table.js is not in the wheel"
    ]


def test_a_generic_top_level_name_fails_it(tmp_path: Path) -> None:
    wheel = a_wheel(tmp_path, [*EXPECTED, "web/app.py"])
    assert wheel_check.contents_problems(wheel, EXPECTED) == [
        "the wheel installs a top-level 'web'; only 'companion' may"
    ]


def test_every_package_file_is_demanded_but_the_readmes() -> None:
    files = wheel_check.package_files()
    assert "companion/web/templates/table.html" in files
    assert "companion/catalogue/data/core.json" in files  # a link to cards/, shipped as a file
    assert not any(name.endswith("README.md") for name in files)


@pytest.mark.wheel
def test_the_wheel_installs_and_runs_outside_the_checkout(tmp_path: Path) -> None:
    assert wheel_check.check(tmp_path) == []
