"""axe-core (bundled by axe-playwright-python) run inside a Playwright page: the WCAG 2.2 AA
rules, with each violation named by rule, its help and the elements it found."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

#: the rule tags of WCAG 2.0, 2.1 and 2.2 at levels A and AA
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
_AXE = Axe()


def axe_violations(page: Any) -> list[str]:
    """Every WCAG 2.2 AA violation axe finds on the page as it is now, in words."""
    options = {"runOnly": {"type": "tag", "values": WCAG22_AA}, "resultTypes": ["violations"]}
    results = _AXE.run(page, options=options)
    return [
        f"{rule['id']}: {rule['help']} at "
        + "; ".join(str(node["target"]) for node in rule["nodes"][:5])
        for rule in results.response["violations"]
    ]
