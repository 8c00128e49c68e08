"""Which package the venv gets: a wheel named on the command line, or the version that is
running the installer; and which version a venv already holds."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlparse

from companion.install.layout import DISTRIBUTION
from companion.install.steps import InstallError, PackageSource

__all__ = ["from_distribution", "from_wheel", "installed_version", "normalize"]

# PEP 427: name-version(-build)?-python-abi-platform.whl
_WHEEL_NAME = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)(-\d[^-]*)?-[^-]+-[^-]+-[^-]+\.whl$")
_DIST_INFO = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)\.dist-info$")


def normalize(name: str) -> str:
    """A distribution name as PEP 503 compares them (``Table_Companion`` = ``table-companion``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def from_wheel(path: Path, distribution: str = DISTRIBUTION) -> PackageSource:
    """The wheel at ``path``. :raises InstallError: no such file, or not a wheel of
    ``distribution``."""
    match = _WHEEL_NAME.match(path.name)
    if match is None or normalize(match["name"]) != normalize(distribution):
        raise InstallError(
            f"{path}: not a wheel of {distribution} (its name should look like "
            f"{distribution.replace('-', '_')}-1.2.0-py3-none-any.whl)"
        )
    if not path.is_file():
        raise InstallError(f"{path}: no such file; copy the wheel to the Pi first")
    return PackageSource(distribution, match["version"], str(path.resolve()))


def from_distribution(dist: metadata.Distribution) -> PackageSource:
    """The installed distribution ``dist`` (normally the one running this command): from the
    local wheel or folder it was installed from (PEP 610's ``direct_url.json``), or the source
    tree its metadata sits in, else ``name==version`` from the package index."""
    name, version = dist.metadata["Name"], dist.version
    local = _installed_from(dist.read_text("direct_url.json")) or _source_tree(dist)
    return PackageSource(name, version, local or f"{name}=={version}")


def _source_tree(dist: metadata.Distribution) -> str | None:
    # metadata beside a pyproject.toml: run from a checkout (python -m companion, the tests)
    base = Path(str(dist.locate_file("")))
    return str(base) if (base / "pyproject.toml").is_file() else None


def _installed_from(direct_url: str | None) -> str | None:
    if not direct_url:
        return None
    try:
        url = json.loads(direct_url).get("url", "")
    except (ValueError, AttributeError):
        return None
    parsed = urlparse(url)
    if parsed.scheme != "file":
        return None
    source = Path(unquote(parsed.path))
    return str(source) if source.exists() else None


def installed_version(dist_info_dirs: Iterable[str], distribution: str) -> str | None:
    """The version of ``distribution`` among a site-packages folder's entries, or None."""
    wanted = normalize(distribution)
    for entry in dist_info_dirs:
        match = _DIST_INFO.match(entry)
        if match is not None and normalize(match["name"]) == wanted:
            return match["version"]
    return None
