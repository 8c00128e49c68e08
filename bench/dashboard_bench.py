"""Dashboard figures: a card placed on a simulated reader to the new total on the page
(``tap_to_screen_ms``), and the serving process's memory with 5 zones and 10 live clients
(``serve_rss_mb``).

It runs ``companion demo --still`` as its own process (readers, simulator, tracker, SQLite
and the web server, as on the Pi), Debian's Chromium on the table page (Playwright), and nine
more event-stream clients beside it.

The same taps' stage times, as the server kept them (``/api/readers``, on the machine's
monotonic clock, which this process shares), split ``tap_to_screen`` into place -> nfcpy's
activation -> reader event -> tap -> stored -> screen (``screen_breakdown_ms``), so it can be
set beside the table bench's ``sim_place_to_state``: ``screen_place_to_stored_ms`` is the
same stretch measured in this run (it includes the HTTP request that places the card).
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from chromium import CHROMIUM_ARGS
from playwright.sync_api import Page, sync_playwright
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
    def read(n: int) -> None:
        # one loopback address per client, like one device each (the table caps streams per
        # address)
        source = (f"127.0.0.{n + 2}", 0)
        connection = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=30, source_address=source
        )
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        while not stop.is_set() and response.readline():
            pass
        connection.close()

    threads = [threading.Thread(target=read, args=(n,), daemon=True) for n in range(count)]
    for thread in threads:
        thread.start()
    return threads


def _tap(server: Server, zone: str, uid: str, settle: float = 0.35) -> None:
    server.request("POST", f"/api/sim/{zone}/place", {"uid": uid})
    time.sleep(settle)
    server.request("POST", f"/api/sim/{zone}/lift", {"uid": uid})


def _sample(page: Page, server: Server, zone: str, uid: str) -> dict[str, Any]:
    """Place ``uid`` on ``zone``; when (monotonic s) it was placed and its total shown."""
    before = page.evaluate(
        f"document.querySelector('article.base[data-zone=\"{zone}\"] .total').textContent"
    )
    placed_epoch, placed = time.time() * 1000, time.monotonic()
    server.request("POST", f"/api/sim/{zone}/place", {"uid": uid})
    shown_epoch = page.wait_for_function(
        f"""() => (window.__totals.find((c) => c.zone === '{zone}' &&
             c.at >= {placed_epoch} && c.total !== '{before}') || {{}}).at""",
        timeout=5000,
    ).json_value()
    time.sleep(0.15)
    server.request("POST", f"/api/sim/{zone}/lift", {"uid": uid})
    time.sleep(0.25)  # the lift is noticed, and the next placement falls at a random phase
    return {"uid": uid, "placed": placed, "shown": placed + (shown_epoch - placed_epoch) / 1000}


def _measure(server: Server, zones: list[str], minions: list[str]) -> list[dict[str, Any]]:
    chromium = shutil.which("chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"http://127.0.0.1:{server.port}/?token={server.token}")
        page.wait_for_selector('#connection[data-status="live"]')
        page.wait_for_selector("article.base")
        page.evaluate(WATCH_TOTALS)
        samples = [_sample(page, server, zones[n % ZONES], minions[n]) for n in range(SAMPLES)]
        browser.close()
    answer = server.request("GET", "/api/readers")
    timings = {t["uid"]: t for t in answer.get("taps", [])}  # (older servers kept none)
    for sample in samples:
        sample["timing"] = timings.get(sample["uid"])
    return samples


def _breakdown(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Stage by stage (ms), for the samples the server kept stage times of."""
    stages: dict[str, list[float]] = {
        "place_to_activation": [],
        "activation_to_event": [],
        "event_to_tap": [],
        "tap_to_stored": [],
        "stored_to_screen": [],
    }
    timed = [s for s in samples if s["timing"] is not None]
    for sample in timed:
        t = sample["timing"]
        activated = t["activated"] if t["activated"] is not None else t["read"]
        stages["place_to_activation"].append((activated - sample["placed"]) * 1000)
        stages["activation_to_event"].append((t["read"] - activated) * 1000)
        stages["event_to_tap"].append((t["tap"] - t["read"]) * 1000)
        stages["tap_to_stored"].append((t["stored"] - t["tap"]) * 1000)
        stages["stored_to_screen"].append((sample["shown"] - t["stored"]) * 1000)
    if not timed:
        return {"samples_with_stage_times": 0}
    totals = [(s["shown"] - s["placed"]) * 1000 for s in timed]
    return {
        "p50": {name: round(percentile(v, 0.5), 2) for name, v in stages.items()},
        "mean": {name: round(statistics.fmean(v), 2) for name, v in stages.items()},
        "sum_of_means": round(sum(statistics.fmean(v) for v in stages.values()), 2),
        "place_to_screen_mean": round(statistics.fmean(totals), 2),
        "samples_with_stage_times": len(timed),
    }


def bench_dashboard() -> dict[str, Any]:
    if shutil.which("chromium") is None:
        return {"tap_to_screen_ms": "not measured: install Debian's chromium"}
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
            samples = _measure(server, zones, minions)
            rss, peak = server.memory_mb()
        finally:
            stop.set()
            server.stop()
    screen = [(s["shown"] - s["placed"]) * 1000 for s in samples]
    stored = [(s["timing"]["stored"] - s["placed"]) * 1000 for s in samples if s["timing"]]
    return {
        "tap_to_screen_ms_p50": round(percentile(screen, 0.5), 1),
        "tap_to_screen_ms_p99": round(percentile(screen, 0.99), 1),
        "tap_to_screen_samples": len(screen),
        "screen_place_to_stored_ms_p50": round(percentile(stored, 0.5), 1) if stored else None,
        "screen_place_to_stored_ms_p99": round(percentile(stored, 0.99), 1) if stored else None,
        "screen_breakdown_ms": _breakdown(samples),
        "serve_rss_mb": round(rss, 1),
        "serve_rss_mb_peak": round(peak, 1),
    }


if __name__ == "__main__":
    print(json.dumps(bench_dashboard(), indent=2))
