"""``companion install``: the table as a service on a Raspberry Pi, idempotently.

:func:`~companion.install.plan.plan_install` says what an installed table is (pure steps);
:class:`~companion.install.apply.Installer` makes a system so, changing only what differs.
"""

from companion.install.apply import Installer
from companion.install.package import from_distribution, from_wheel
from companion.install.plan import plan_install
from companion.install.steps import InstallError, Outcome, PackageSource

__all__ = [
    "InstallError",
    "Installer",
    "Outcome",
    "PackageSource",
    "from_distribution",
    "from_wheel",
    "plan_install",
]
