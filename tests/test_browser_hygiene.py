"""In Debian's Chromium: every page runs under the content security policy without breaking it
(no inline scripts or styles), and the control token leaves the address bar at once."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser import TOKEN, LiveTable

WATCH_POLICY = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
  (event) => window.__violations.push(event.violatedDirective + " " + event.blockedURI));
"""


@pytest.mark.parametrize("path", ["/", "/setup", "/history", "/enrol", "/readers"])
def test_pages_keep_the_policy_and_drop_the_token_from_the_address(
    page: Any, live_table: LiveTable, path: str
) -> None:
    page.add_init_script(WATCH_POLICY)
    page.goto(f"{live_table.url}{path}?token={TOKEN}")
    page.wait_for_function("() => !location.search.includes('token')")
    assert TOKEN not in page.url and page.url.endswith(path)
    assert page.evaluate("localStorage.getItem('companion-token')") == TOKEN
    page.wait_for_load_state("load")
    assert page.evaluate("window.__violations") == []
    assert page.errors == []
