"""``companion install``: the table as a service on a Raspberry Pi, idempotently.

:func:`~companion.install.plan.plan_install` says what an installed table is (pure steps);
:class:`~companion.install.apply.Installer` makes a system so, changing only what differs.
"""
