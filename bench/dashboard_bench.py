"""Dashboard figures: a card placed on a simulated reader to the new total on the page
(``tap_to_screen_ms``), and the serving process's memory with 5 zones and 10 live clients
(``serve_rss_mb``).

It runs ``companion demo --still`` as its own process (readers, simulator, tracker, SQLite
and the web server, as on the Pi), Debian's Chromium on the table page (Playwright), and nine
more event-stream clients beside it.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from chromium import CHROMIUM_ARGS
from stats import percentile

ZONES = 5
CLIENTS = 10  # the browser and nine stream readers
SAMPLES = 60
#: records when a base's total changes on the page, in the same epoch milliseconds as Python
WATCH_TOTALS = """() => {
  window.__totals = [];
  new MutationObserver(() => {
    const at = performance.timeOrigin + performance.now();
    for (const el of document.querySelectorAll('article.base')) {
      const total = el.querySelector('.total').textContent;
      window.__totals.push({zone: el.dataset.zone, total, at});
    }
  }).observe(document.querySelector('#bases'),
             {childList: true, subtree: true, characterData: true});
}"""


class Server:
    def __init__(self, folder: Path) -> None:
        self.db = folder / "bench.db"
        command = [str(Path(sys.executable).parent / "companion"), "demo", "--still", "--port", "0"]
        command += ["--zones", str(ZONES), "--db", str(self.db)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        assert self.process.stdout is not None
        for line in self.process.stdout:
            found = re.search(r"dashboard on http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                break
        else:
            raise RuntimeError("companion demo did not start")
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        self.token = Path(f"{self.db}.token").read_text().strip()

    def request(self, method: str, path: str, body: Any = None) -> Any:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        headers = {"X-Companion-Token": self.token, "Content-Type": "application/json"}
        connection.request(method, path, json.dumps(body) if body is not None else None, headers)
        answer = json.loads(connection.getresponse().read() or b"null")
        connection.close()
        return answer

    def memory_mb(self) -> tuple[float, float]:
        """(resident now, peak resident) of the serving process, in MB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        kb = {k: int(v.split()[0]) for k, v in re.findall(r"(VmRSS|VmHWM):\s+(.+)", status)}
        return kb["VmRSS"] / 1024, kb["VmHWM"] / 1024

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


def _streams(port: int, count: int, stop: threading.Event) -> list[threading.Thread]:
    def read() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        while not stop.is_set() and response.readline():
            pass
        connection.close()

    threads = [threading.Thread(target=read, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def _tap(server: Server, zone: str, uid: str, settle: float = 0.35) -> None:
    server.request("POST", f"/api/sim/{zone}/place", {"uid": uid})
    time.sleep(settle)
    server.request("POST", f"/api/sim/{zone}/lift", {"uid": uid})


def bench_dashboard() -> dict[str, Any]:
    chromium = shutil.which("chromium")
    if chromium is None:
        return {"tap_to_screen_ms": "not measured: install Debian's chromium"}
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder))
        stop = threading.Event()
        try:
            cards = server.request("GET", "/api/sim/cards")["cards"]
            bases = [c for c in cards if c["type"] == "base" and not c["in_play"]]
            zones = [f"base-{n}" for n in range(1, ZONES + 1)]
            for zone, base in zip(zones, bases, strict=False):
                if not any(c["zone"] == zone for c in cards if c["in_play"]):
                    _tap(server, zone, base["uid"])
            minions = [c["uid"] for c in cards if c["type"] == "minion"]
            _streams(server.port, CLIENTS - 1, stop)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1280, "height": 800})
                page.goto(f"http://127.0.0.1:{server.port}/?token={server.token}")
                page.wait_for_selector('#connection[data-status="live"]')
                page.wait_for_selector("article.base")
                page.evaluate(WATCH_TOTALS)
                samples = []
                for n in range(SAMPLES):
                    zone, uid = zones[n % ZONES], minions[n]
                    before = page.evaluate(
                        f"document.querySelector('article.base[data-zone=\"{zone}\"] .total')"
                        ".textContent"
                    )
                    placed = time.time() * 1000
                    server.request("POST", f"/api/sim/{zone}/place", {"uid": uid})
                    shown = page.wait_for_function(
                        f"""() => (window.__totals.find((c) => c.zone === '{zone}' &&
                             c.at >= {placed} && c.total !== '{before}') || {{}}).at""",
                        timeout=5000,
                    ).json_value()
                    samples.append(shown - placed)
                    time.sleep(0.15)
                    server.request("POST", f"/api/sim/{zone}/lift", {"uid": uid})
                    time.sleep(0.25)  # nfcpy's presence check notices the lift
                browser.close()
            rss, peak = server.memory_mb()
        finally:
            stop.set()
            server.stop()
    return {
        "tap_to_screen_ms_p50": round(percentile(samples, 0.5), 1),
        "tap_to_screen_ms_p99": round(percentile(samples, 0.99), 1),
        "tap_to_screen_samples": len(samples),
        "serve_rss_mb": round(rss, 1),
        "serve_rss_mb_peak": round(peak, 1),
    }


if __name__ == "__main__":
    print(json.dumps(bench_dashboard(), indent=2))
