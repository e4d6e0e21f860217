#!/usr/bin/env python3
"""Soak: SOAK_SECONDS (default 600) of mixed load on one `lookd serve` over loopback, RSS sampled throughout.

Load, all at once:
  fetch      wrk: SDK fetches of published looks in rotating languages, plus /healthz and /v1/strings
  publish    a publisher: PUT …/look with If-Match, chained on the ETag it got back
  lint       POST /v1/lint of real catalogs plus defective ones, json / sarif / text in turn
  preview    GET /v1/preview?app=… and POST /v1/preview of a draft
  resolve    POST /v1/looks/resolve
  slow       slow readers: a large lint report and the strings catalog read through a 4 KiB receive buffer
             at SOAK_SLOW_RATE bytes per second (default 16384), so writing the body outlasts the idle timeout

Every Python-side response is checked: the expected status, and a body as long as its Content-Length (or a
complete chunked body). wrk's non-2xx/3xx responses and socket errors count as errors.

Pass when: 0 errors, 0 truncated responses, the daemon still up and exiting 0 on SIGTERM, and flat RSS: the
least-squares line through the samples after the warm-up (the first fifth, at most 60 s) rises by no more than
8 MiB + 10 % of the median over that window.

Usage: scripts/soak.py LOOKD_BINARY   (`make soak` builds the release binary and calls this)
"""
import http.client
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECONDS = int(os.environ.get("SOAK_SECONDS", "600"))
SAMPLE = float(os.environ.get("SOAK_SAMPLE_SECONDS", "5"))
SLOW_RATE = int(os.environ.get("SOAK_SLOW_RATE", "16384"))
WRK_CONNECTIONS = os.environ.get("SOAK_WRK_CONNECTIONS", "8")
APPS = 8
LANGS = ["en", "de", "ar", "ja", "pt-BR", "zh-HK", "es-419", "ru", "fr", "he"]


class Tally:
    """Counts per load kind; shared by the worker threads under one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}
        self.problems = []

    def add(self, kind, outcome, detail=None):
        with self.lock:
            self.counts.setdefault(kind, {"ok": 0, "error": 0, "truncated": 0, "refused": 0})[outcome] += 1
            if detail and len(self.problems) < 40:
                self.problems.append(f"{kind} {outcome}: {detail}")


class Daemon:
    def __init__(self, binary, access_log=False, own_session=False):
        """`access_log`: write the daemon's access log to `access.log` in its work folder (else off). `own_session`:
        start it in a session of its own, so that where the kernel shares the CPU between sessions (autogroups,
        /proc/sys/kernel/sched_autogroup_enabled) the CPU of this script and its other processes is not charged to
        the daemon's share."""
        self.work = tempfile.mkdtemp(prefix="lookd-soak-")
        self.token = os.urandom(16).hex()
        Path(self.work, "token").write_text(self.token + "\n")
        self.stderr = open(Path(self.work, "stderr.log"), "w+")
        self.process = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", "--data", str(Path(self.work, "data")),
             "--admin-token-file", str(Path(self.work, "token")), "--access-log", str(Path(self.work, "access.log")) if access_log else "off",
             "--catalogs", str(ROOT / "Resources/Localizations")],
            stdout=subprocess.DEVNULL, stderr=self.stderr, start_new_session=own_session)
        self.port = None
        for _ in range(300):
            text = Path(self.work, "stderr.log").read_text()
            match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", text)
            if match:
                self.port = int(match.group(1))
                break
            if self.process.poll() is not None:
                sys.exit(f"soak: lookd exited at start:\n{text}")
            time.sleep(0.1)
        if self.port is None:
            sys.exit("soak: lookd did not report its port")

    def rss_mib(self):
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")


def request(daemon, method, path, body=None, headers=None, timeout=60):
    """One request on a fresh connection; returns (status, headers, body) or raises on transport problems."""
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, data
    finally:
        connection.close()


def checked(tally, kind, daemon, method, path, expect, body=None, headers=None):
    """A request whose status must be in `expect`; 429 and 503 with Retry-After count as refusals."""
    try:
        status, response_headers, data = request(daemon, method, path, body, headers)
    except http.client.IncompleteRead as error:
        tally.add(kind, "truncated", f"{method} {path}: {error!r}")
        return None
    except (OSError, http.client.HTTPException) as error:
        tally.add(kind, "error", f"{method} {path}: {error!r}")
        return None
    if status in expect:
        tally.add(kind, "ok")
        return status, response_headers, data
    if status in (429, 503) and "retry-after" in response_headers:
        tally.add(kind, "refused")
        return None
    tally.add(kind, "error", f"{method} {path}: {status} {data[:200]!r}")
    return None


def etag_of(headers, data):
    """A publish answers with the new version's tag in the body (`etag`); a header wins when present."""
    return headers.get("etag") or json.loads(data)["etag"]


def layer(index, round_):
    return {"accent": f"#{(index * 2654435761 + round_ * 40503) % 0xFFFFFF:06X}", "appName": f"Soak App {index}",
            "corners": ["round", "soft", "square"][round_ % 3], "topics": ["bug", "billing", "idea"][: 1 + round_ % 3],
            "replyExpectation": {"en": "Usually replies within a day", "de": "Antwortet meist innerhalb eines Tages"}}


def catalogs_for_lint():
    directory = ROOT / "Resources/Localizations"
    source = json.loads((directory / "en.json").read_text())
    good = [{"name": name, "text": (directory / name).read_text()} for name in ("en.json", "de.json", "ar.json", "ja.json")]
    # Defective translations: every message loses its placeholders and gets a broken plural, so each key
    # has findings and the reports are large.
    broken = {key: "{count, plural, one {#} other {x" + str(i) for i, key in enumerate(source)}
    defective = [{"name": f"{tag}.json", "text": json.dumps(broken, indent=1)} for tag in ("fr", "it", "pl", "ru", "tr", "uk")]
    return good, good + defective


def publisher(daemon, keys, etags, tally, deadline):
    admin = {"Authorization": f"Bearer {daemon.token}", "Content-Type": "application/json"}
    round_ = 1
    while time.time() < deadline:
        for index, key in enumerate(keys):
            result = checked(tally, "publish", daemon, "PUT", f"/v1/apps/{key}/look", {200},
                             json.dumps(layer(index, round_)), {**admin, "If-Match": etags[key]})
            if result:
                etags[key] = etag_of(result[1], result[2])
            if time.time() >= deadline:
                return
            time.sleep(0.2)
        round_ += 1


def linter(daemon, tally, deadline):
    good, large = catalogs_for_lint()
    formats = ["json", "sarif", "text", "github"]
    round_ = 0
    while time.time() < deadline:
        catalogs = good if round_ % 2 == 0 else large[:6]
        checked(tally, "lint", daemon, "POST", f"/v1/lint?format={formats[round_ % 4]}", {200},
                json.dumps({"catalogs": catalogs}), {"Content-Type": "application/json"})
        round_ += 1
        time.sleep(0.5)


def previewer(daemon, keys, tally, deadline):
    round_ = 0
    while time.time() < deadline:
        key = keys[round_ % len(keys)]
        lang = LANGS[round_ % len(LANGS)]
        checked(tally, "preview", daemon, "GET", f"/v1/preview?app={key}&lang={lang}", {200})
        draft = {"dashboard": layer(round_, round_), "code": {"font": "serif"}, "inferred": {"hasBundleIcon": True}}
        checked(tally, "preview", daemon, "POST", f"/v1/preview?lang={lang}", {200}, json.dumps(draft),
                {"Content-Type": "application/json"})
        checked(tally, "resolve", daemon, "POST", "/v1/looks/resolve", {200}, json.dumps(draft),
                {"Content-Type": "application/json"})
        round_ += 1
        time.sleep(0.3)


def slow_read(daemon, method, path, body, headers):
    """Sends one request through a 4 KiB receive buffer and reads the answer at SLOW_RATE bytes per second.
    Returns (status, expected length or None, bytes received, complete)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(120)
    sock.connect(("127.0.0.1", daemon.port))
    connection = http.client.HTTPConnection("127.0.0.1", daemon.port, timeout=120)
    connection.sock = sock
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        length = response.getheader("Content-Length")
        received = 0
        step = 4096
        pause = step / SLOW_RATE
        try:
            while True:
                chunk = response.read(step)
                if not chunk:
                    break
                received += len(chunk)
                time.sleep(pause)
            complete = length is None or received == int(length)
        except http.client.IncompleteRead as error:
            received += len(error.partial)
            complete = False
        return response.status, (int(length) if length else None), received, complete
    finally:
        connection.close()


def slow_reader(daemon, tally, deadline, sizes):
    _, large = catalogs_for_lint()
    body = json.dumps({"catalogs": large})
    round_ = 0
    while time.time() < deadline:
        if round_ % 2 == 0:
            args = ("POST", "/v1/lint?format=sarif", body, {"Content-Type": "application/json"})
        else:
            args = ("GET", f"/v1/strings?lang={LANGS[round_ % len(LANGS)]}", None, {})
        try:
            status, length, received, complete = slow_read(daemon, *args)
        except (OSError, http.client.HTTPException) as error:
            tally.add("slow", "error", f"{args[0]} {args[1]}: {error!r}")
        else:
            sizes.append(received)
            if not complete:
                tally.add("slow", "truncated", f"{args[1]}: {received} of {length} bytes")
            elif status == 200:
                tally.add("slow", "ok")
            elif status in (429, 503):
                tally.add("slow", "refused")
            else:
                tally.add("slow", "error", f"{args[1]}: status {status}")
        round_ += 1


WRK_SCRIPT = """
local paths = {%s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i %% #paths) + 1])
end
"""


def run_wrk(daemon, keys, seconds):
    paths = [f"/v1/apps/{key}/look?lang={lang}" for key in keys for lang in LANGS]
    paths += ["/healthz", "/v1/strings?lang=de", "/readyz"]
    script = Path(daemon.work, "fetch.lua")
    script.write_text(WRK_SCRIPT % ", ".join(f'"{p}"' for p in paths))
    return subprocess.Popen(["wrk", "-t1", f"-c{WRK_CONNECTIONS}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script),
                             f"http://127.0.0.1:{daemon.port}"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def parse_wrk(output):
    requests = re.search(r"(\d+) requests in", output)
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return {"requests": int(requests.group(1)) if requests else 0,
            "non_2xx_3xx": int(non_2xx.group(1)) if non_2xx else 0,
            "socket_errors": sum(int(n) for n in socket_errors.groups()) if socket_errors else 0,
            "rate": (re.search(r"Requests/sec:\s*([\d.]+)", output) or [None, "0"])[1]}


def slope_mib_per_minute(samples):
    if len(samples) < 3:
        return 0.0
    xs = [t for t, _ in samples]
    ys = [r for _, r in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    denominator = sum((x - mx) ** 2 for x in xs)
    return 0.0 if denominator == 0 else sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / denominator * 60


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    daemon = Daemon(sys.argv[1])
    tally = Tally()
    try:
        keys = subprocess.run([sys.argv[1], "keygen", "--count", str(APPS)], check=True, capture_output=True,
                              text=True).stdout.split()
        etags = {}
        admin = {"Authorization": f"Bearer {daemon.token}", "Content-Type": "application/json"}
        for index, key in enumerate(keys):
            status, headers, data = request(daemon, "PUT", f"/v1/apps/{key}/look", json.dumps(layer(index, 0)),
                                            {**admin, "If-None-Match": "*"})
            if status != 201:
                sys.exit(f"soak: the first publish of {key} answered {status}: {data[:300]!r}")
            etags[key] = etag_of(headers, data)

        print(f"soak: lookd pid {daemon.process.pid} on 127.0.0.1:{daemon.port}, {SECONDS} s, RSS every {SAMPLE:g} s")
        start = time.time()
        deadline = start + SECONDS
        wrk = run_wrk(daemon, keys, SECONDS)
        sizes = []
        workers = [threading.Thread(target=publisher, args=(daemon, keys, etags, tally, deadline)),
                   threading.Thread(target=linter, args=(daemon, tally, deadline)),
                   threading.Thread(target=previewer, args=(daemon, keys, tally, deadline)),
                   threading.Thread(target=slow_reader, args=(daemon, tally, deadline, sizes)),
                   threading.Thread(target=slow_reader, args=(daemon, tally, deadline, sizes))]
        for worker in workers:
            worker.start()
        samples = []
        while time.time() < deadline:
            if daemon.process.poll() is not None:
                break
            samples.append((time.time() - start, daemon.rss_mib()))
            elapsed = int(time.time() - start)
            if len(samples) % 12 == 1:
                print(f"soak: {elapsed:4d} s  RSS {samples[-1][1]:7.1f} MiB", flush=True)
            time.sleep(SAMPLE)
        wrk_output, _ = wrk.communicate(timeout=120)
        for worker in workers:
            worker.join(timeout=300)
        alive = daemon.process.poll() is None
        if alive:
            samples.append((time.time() - start, daemon.rss_mib()))
    finally:
        if daemon.process.poll() is None:
            daemon.process.send_signal(signal.SIGTERM)
            try:
                daemon.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                daemon.process.kill()
                daemon.process.wait()
    exit_status = daemon.process.returncode

    wrk_figures = parse_wrk(wrk_output)
    warmup = min(60.0, SECONDS / 5)
    steady = [(t, r) for t, r in samples if t >= warmup] or samples
    rss = [r for _, r in samples]
    steady_rss = [r for _, r in steady]
    slope = slope_mib_per_minute(steady)
    window_minutes = (steady[-1][0] - steady[0][0]) / 60 if len(steady) > 1 else 0
    growth = slope * window_minutes
    allowed = 8 + 0.10 * statistics.median(steady_rss)
    totals = {outcome: sum(c[outcome] for c in tally.counts.values()) for outcome in ("ok", "error", "truncated", "refused")}
    errors = totals["error"] + wrk_figures["non_2xx_3xx"] + wrk_figures["socket_errors"]

    print()
    print(f"soak summary ({SECONDS} s, {len(samples)} RSS samples):")
    print(f"  RSS MiB: min {min(rss):.1f}  median {statistics.median(rss):.1f}  max {max(rss):.1f}  "
          f"first {rss[0]:.1f}  last {rss[-1]:.1f}")
    print(f"  RSS slope after {warmup:.0f} s warm-up: {slope:+.3f} MiB/min ({growth:+.1f} MiB over {window_minutes:.1f} min; "
          f"flat means at most {allowed:.1f})")
    print(f"  wrk fetches: {wrk_figures['requests']} requests ({wrk_figures['rate']}/s), "
          f"non-2xx/3xx {wrk_figures['non_2xx_3xx']}, socket errors {wrk_figures['socket_errors']}")
    for kind in sorted(tally.counts):
        c = tally.counts[kind]
        print(f"  {kind:8s} ok {c['ok']:6d}  errors {c['error']}  truncated {c['truncated']}  refused {c['refused']}")
    if sizes:
        print(f"  slow-read bodies: {len(sizes)}, largest {max(sizes)} bytes")
    print(f"  errors {errors}, truncated {totals['truncated']}, daemon {'up' if alive else 'DIED'}, exit on SIGTERM {exit_status}")
    for problem in tally.problems:
        print(f"  ! {problem}")
    passed = errors == 0 and totals["truncated"] == 0 and alive and exit_status == 0 and growth <= allowed
    if not alive:
        print(Path(daemon.work, "stderr.log").read_text()[-3000:])
    print("soak: PASS" if passed else "soak: FAIL")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
