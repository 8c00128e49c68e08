"""axe-core (bundled by axe-playwright-python) run inside a Playwright page: the WCAG 2.2 AA
rules, with each violation named by rule, its help and the elements it found."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe

#: the rule tags of WCAG 2.0, 2.1 and 2.2 at levels A and AA
WCAG22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
OPTIONS = {"runOnly": {"type": "tag", "values": WCAG22_AA}, "resultTypes": ["violations"]}
_AXE = Axe()
#: axe.run in the page, answering only what the message needs (the whole result is far larger)
RUN = """(options) => axe.run(options).then((results) => results.violations.map((rule) => ({
  id: rule.id, help: rule.help, targets: rule.nodes.slice(0, 5).map((node) => node.target),
})))"""


def axe_violations(page: Any) -> list[str]:
    """Every WCAG 2.2 AA violation axe finds on the page as it is now, in words."""
    # axe's 570 KB source goes into a document once: Axe.run evaluated it before every run
    # (0.2-0.4 s each; a test checks several states of one document)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_AXE.axe_script)
    return [
        f"{rule['id']}: {rule['help']} at " + "; ".join(str(target) for target in rule["targets"])
        for rule in page.evaluate(RUN, OPTIONS)
    ]
