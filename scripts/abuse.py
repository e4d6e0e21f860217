#!/usr/bin/env python3
"""Abuse: the slow-client and saturation attacks of issue 27 (rows 2, 3 and 6) against one `lookd serve` over
loopback, while a well-behaved client fetches and publishes; reports that client's latency and success rate.

Attacks, all at once, for ABUSE_SECONDS (default 60), each re-opening what the daemon closes:
  slow-body  512 POSTs to /v1/lint from 4 addresses (127.0.0.2-5), Content-Length 100000, one body byte every 10 s
  slow-head  512 heads from 64 addresses (127.0.1.x), one header byte a second
  idle       512 keep-alive connections from 512 addresses (127.0.2.x, 127.0.3.x), one request each, then silent
  lint       30 clients (from 127.0.0.6) posting large defective catalogs to /v1/lint back to back
Well-behaved (from 127.0.0.1, an address no attacker uses, or ABUSE_CLIENT_ADDRESS): an SDK fetch of 8 published apps
in rotating languages on a new connection each (about 20 a second, this process), and a publisher chaining PUT .../look
on If-Match every 0.5 s (its own process, so its Python never holds the fetching one's lock), both from that one
address (so a fetch often finds a publish of the same address in flight). Success = the expected status (fetch 200,
publish 200); anything else, a refusal included, is a failure; for failed fetches the summary counts those sent while
a publish was in flight.

Latency is measured where the kernel sees it: from just before the connect to the kernel's receive timestamp
(SO_TIMESTAMPNS) of the answer's last bytes ("measured", what the fetch p99 target is about); "wall" adds this
process waking up to read them (its own scheduling on the shared cores, not the daemon's). Each fetch is classed:
`miss` (the first fetch of its app after a publish of it was answered: the publish emptied the app's cached answers,
so a worker reads the store and builds them), `during publish` (a publish of its app in flight), else `hit`; and split
into before the send, the daemon's logged duration (matched by order in the access log: from the kernel's receive
timestamp of the request to its answer queued), and from the answer queued to its arrival (writing; for a worker's
answer, waiting for its loop to take it). Every request goes to ABUSE_RECORD (JSON lines; default: the daemon's work
folder). The summary also gives /metrics' duration histogram over the client's window (every answer, attacks
included), each process's threads by name with their CPU and their wait for a CPU (/proc/PID/task/*/schedstat), and
the load average and runnable threads.

Sessions: the daemon, the attack process and this script each run in a session of their own (ABUSE_ONE_SESSION=1: one
for all, as before). Where the kernel shares the CPU between sessions first (autogroups,
/proc/sys/kernel/sched_autogroup_enabled), the attackers' CPU is then charged to their own session, not to the
daemon's share, as if they ran on machines of their own, and they still take a full session's share of the cores.

Then, with ABUSE_BODIES (default 510) > 0, the body-memory attack of row 3: that many POSTs to /v1/lint declaring
8 MiB bodies, all but 1,000 bytes sent, then one byte every 5 s for ABUSE_BODY_SECONDS (default 30); the daemon's
RSS is sampled before, at its peak and 5 s after the clients close.

The daemon writes its access log; the summary also gives the well-behaved requests' durations as the daemon measured
them (from the kernel's receive timestamp of a request's last bytes to its answer queued: waiting in the socket or
the accept queue for a busy loop included, the client's own scheduling and the write excluded), and the load average.
ABUSE_ATTACK_NICE (default 19) runs the attack process at that nice value: in a real attack the attackers' CPU is on
other machines, here it is on the same cores as the daemon and the measured client, and at the same priority its
~45 Python threads starved both (a fetch p99 of 161 ms at nice 0, 8 ms at nice 19, docs/hardening.md). 0 shows that.
In a session of its own the nice value orders the attack's threads among themselves only.
ABUSE_LINT_CLIENTS (default 30): fewer lint-saturation clients, only to see what lint saturation costs the others
(such a run never passes).

Targets (docs/hardening.md): 100 % success, fetch p99 < 50 ms. Exit 0 when both are met and the daemon is up.
Usage: scripts/abuse.py LOOKD_BINARY   (`make abuse` builds the release binary and calls this)
"""
import http.client
import json
import multiprocessing
import os
import resource
import socket
import struct
import sys
import threading
import time
import types
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import soak  # noqa: E402  (the daemon launcher, request helper, looks and lint catalogs are soak's)

SECONDS = int(os.environ.get("ABUSE_SECONDS", "60"))
BODIES = int(os.environ.get("ABUSE_BODIES", "510"))
BODY_SECONDS = int(os.environ.get("ABUSE_BODY_SECONDS", "30"))
ATTACK_NICE = int(os.environ.get("ABUSE_ATTACK_NICE", "19"))
CLIENT_ADDRESS = os.environ.get("ABUSE_CLIENT_ADDRESS", "127.0.0.1")
RECORD = os.environ.get("ABUSE_RECORD")
# "1": the daemon, the attack process and this script (the well-behaved client) in one session, as before the seventh
# run (docs/hardening.md); by default each has its own.
ONE_SESSION = os.environ.get("ABUSE_ONE_SESSION") == "1"
# The lint-saturation clients (30); fewer only to see what the others cost without them (never for the targets).
LINT_CLIENTS = int(os.environ.get("ABUSE_LINT_CLIENTS", "30"))
LOOK_ROUTE = "/v1/apps/{appKey}/look"
APPS = 8


def connect(port, source, payload):
    """A connection from `source` that has sent `payload`, non-blocking afterwards; None when that failed."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((source, 0))
        sock.settimeout(2)
        sock.connect(("127.0.0.1", port))
        sock.sendall(payload)
        sock.setblocking(False)
        return sock
    except OSError:
        sock.close()
        return None


def trickler(port, sources, count, head, byte, interval, deadline, counts, name):
    """Keeps `count` connections (round-robin over `sources`) each sending `head` then `byte` every `interval` s;
    re-opens any the daemon closes. Counts openings and closes by the daemon."""
    slots = [None] * count
    due = [0.0] * count
    while time.time() < deadline:
        now = time.time()
        for i in range(count):
            sock = slots[i]
            if sock is None:
                slots[i] = connect(port, sources[i % len(sources)], head)
                counts[name + " opened"] = counts.get(name + " opened", 0) + 1
                due[i] = now + interval
                continue
            try:
                if sock.recv(65536, socket.MSG_DONTWAIT) == b"":
                    raise ConnectionResetError
                # An answer arrived (408, 503): the daemon is done with it.
                sock.close()
                slots[i] = None
                counts[name + " answered or closed"] = counts.get(name + " answered or closed", 0) + 1
                continue
            except BlockingIOError:
                pass
            except OSError:
                sock.close()
                slots[i] = None
                counts[name + " answered or closed"] = counts.get(name + " answered or closed", 0) + 1
                continue
            if now >= due[i]:
                try:
                    sock.send(byte)
                except OSError:
                    sock.close()
                    slots[i] = None
                due[i] = now + interval
        time.sleep(0.2)
    for sock in slots:
        if sock:
            sock.close()


def idler(port, sources, deadline, counts):
    """One keep-alive connection per source: a request, its answer, then silence; re-opened when closed."""
    slots = [None] * len(sources)
    while time.time() < deadline:
        for i, source in enumerate(sources):
            sock = slots[i]
            if sock is not None:
                try:
                    if sock.recv(65536, socket.MSG_DONTWAIT) == b"":
                        raise ConnectionResetError
                except BlockingIOError:
                    continue
                except OSError:
                    pass
                sock.close()
                slots[i] = None
                counts["idle closed"] = counts.get("idle closed", 0) + 1
            slots[i] = connect(port, source, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            counts["idle opened"] = counts.get("idle opened", 0) + 1
        time.sleep(0.5)
    for sock in slots:
        if sock:
            sock.close()


def lint_saturation(port, deadline, counts):
    _, large = soak.catalogs_for_lint()
    body = json.dumps({"catalogs": large[:8]})
    while time.time() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60, source_address=("127.0.0.6", 0))
            connection.request("POST", "/v1/lint?format=sarif", body=body, headers={"Content-Type": "application/json"})
            status = connection.getresponse()
            status.read()
            counts[f"lint {status.status}"] = counts.get(f"lint {status.status}", 0) + 1
            connection.close()
        except (OSError, http.client.HTTPException):
            counts["lint error"] = counts.get("lint error", 0) + 1


def attackers(port, deadline, queue):
    """The attacks, in their own process (their sockets and Python's lock never delay the measured client) and their
    own session: where the kernel shares the CPU between sessions (autogroups), the attackers' CPU is then charged to
    them, not to the daemon's share, as if they ran on machines of their own."""
    if not ONE_SESSION:
        os.setsid()
    if ATTACK_NICE > 0:
        os.nice(ATTACK_NICE)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    counts = {}
    body_head = (b"POST /v1/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{")
    threads = [
        threading.Thread(target=trickler, args=(port, [f"127.0.0.{h}" for h in range(2, 6)], 512, body_head, b" ", 10,
                                                deadline, counts, "slow-body")),
        threading.Thread(target=trickler, args=(port, [f"127.0.1.{h}" for h in range(1, 65)], 512,
                                                b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", b"a", 1, deadline, counts,
                                                "slow-head")),
        threading.Thread(target=idler, args=(port, [f"127.0.{2 + i // 250}.{1 + i % 250}" for i in range(512)], deadline,
                                             counts)),
    ] + [threading.Thread(target=lint_saturation, args=(port, deadline, counts)) for _ in range(LINT_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put(counts)


SO_TIMESTAMPNS = 35   # Linux (asm-generic): each recvmsg also returns the kernel's receive timestamp of its bytes


def exchange(port, method, path, body=b"", headers=None):
    """One request on a new connection from CLIENT_ADDRESS (the bytes http.client would send), timed where the kernel
    sees it. Returns a dict: status (None after a transport error), headers, body, and wall-clock seconds: `started`
    (before the connect), `sent` (before the send), `arrived` (the kernel's receive timestamp of the response's last
    bytes), `done` (when this process had read them); `cpu`, this thread's CPU seconds spent on it. `arrived -
    started` is the request as the network sees it; `done - arrived` is this process waking up to read it."""
    record = {"status": None, "headers": {}, "body": b""}
    cpu = time.thread_time()
    record["started"] = time.time()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
        sock.settimeout(30)
        sock.bind((CLIENT_ADDRESS, 0))
        sock.connect(("127.0.0.1", port))
        fields = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        if body:
            fields += f"Content-Length: {len(body)}\r\n"
        payload = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept-Encoding: identity\r\n{fields}\r\n"
                   .encode() + body)
        record["sent"] = time.time()
        sock.sendall(payload)
        data = b""
        head_end = -1
        length = None
        while True:
            chunk, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(16))
            for level, kind, value in ancillary:
                if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                    seconds, nanoseconds = struct.unpack("qq", value[:16])
                    record["arrived"] = seconds + nanoseconds / 1e9
            if not chunk:
                break
            data += chunk
            if head_end < 0 and (head_end := data.find(b"\r\n\r\n")) >= 0:
                lines = data[:head_end].decode("latin-1").split("\r\n")
                record["status"] = int(lines[0].split()[1])
                record["headers"] = {k.strip().lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
                length = int(record["headers"].get("content-length", "0"))
            if head_end >= 0 and len(data) >= head_end + 4 + length:
                break
        record["done"] = time.time()
        if head_end < 0 or len(data) < head_end + 4 + (length or 0):
            record["status"] = None
            record["body"] = f"incomplete response: {data[:100]!r}".encode()
        else:
            record["body"] = data[head_end + 4:head_end + 4 + length]
    except (OSError, ValueError, IndexError) as error:
        record["done"] = time.time()
        record["status"] = None
        record["body"] = repr(error).encode()
    finally:
        sock.close()
    record.setdefault("sent", record["started"])
    record.setdefault("arrived", record["done"])
    record["cpu"] = time.thread_time() - cpu
    return record


def thread_times(pid):
    """{tid: (name, CPU seconds, seconds waiting for a CPU while runnable)} of a process's threads
    (/proc/PID/task/TID/schedstat); empty when it is gone."""
    times = {}
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            cpu, waited, _ = (task / "schedstat").read_text().split()
        except (OSError, ValueError):
            continue
        times[task.name] = (name, int(cpu) / 1e9, int(waited) / 1e9)
    return times


def thread_report(before, after, seconds):
    """Per thread name: threads, CPU and run-queue wait over a window (from two `thread_times`), as text."""
    groups = {}
    for tid, (name, cpu, waited) in after.items():
        _, cpu0, waited0 = before.get(tid, (name, 0, 0))
        group = groups.setdefault(name, [0, 0.0, 0.0])
        group[0] += 1
        group[1] += cpu - cpu0
        group[2] += waited - waited0
    return "; ".join(f"{name} ×{n}: CPU {100 * cpu / seconds:.0f} %, waited for a CPU {100 * waited / seconds:.0f} %"
                     for name, (n, cpu, waited) in sorted(groups.items(), key=lambda item: -item[1][1]))


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def publisher(port, token, keys, etags, deadline, queue):
    """The well-behaved publisher, in its own process (so its Python never holds the fetching process's lock):
    PUT …/look on If-Match every 0.5 s, over the apps in turn."""
    admin = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    rows = []
    round_ = 1
    while time.time() < deadline:
        for index, key in enumerate(keys):
            record = exchange(port, "PUT", f"/v1/apps/{key}/look", json.dumps(soak.layer(index, round_)).encode(),
                              {**admin, "If-Match": etags[key]})
            if record["status"] == 200:
                etags[key] = soak.etag_of(record["headers"], record["body"])
            record["key"] = key
            record["body"] = record["body"][:160]
            del record["headers"]
            rows.append(record)
            time.sleep(0.5)
            if time.time() >= deadline:
                break
        round_ += 1
    queue.put(rows)


def sampler(deadline, queue):
    """The machine's load, in its own process: (time, 1-minute load average, runnable threads) every second."""
    rows = []
    while time.time() < deadline:
        fields = Path("/proc/loadavg").read_text().split()
        rows.append((time.time(), float(fields[0]), int(fields[3].split("/")[0])))
        time.sleep(1)
    queue.put(rows)


def well_behaved(daemon, keys, etags, deadline, results):
    """Fetches in this process (nice 0, like the daemon), the publisher and the load sampler in their own."""
    queue, loads = multiprocessing.Queue(), multiprocessing.Queue()
    publishing = multiprocessing.Process(target=publisher, args=(daemon.port, daemon.token, keys, etags, deadline, queue))
    sampling = multiprocessing.Process(target=sampler, args=(deadline, loads))
    publishing.start()
    sampling.start()
    index = 0
    while time.time() < deadline:
        key = keys[index % len(keys)]
        lang = soak.LANGS[index % len(soak.LANGS)]
        record = exchange(daemon.port, "GET", f"/v1/apps/{key}/look?lang={lang}")
        record["key"] = key
        record["body"] = record["body"][:160]
        del record["headers"]
        results["fetch"].append(record)
        index += 1
        time.sleep(0.05)
    results["publish"] = queue.get(timeout=120)
    results["load"] = loads.get(timeout=120)
    publishing.join(timeout=30)
    sampling.join(timeout=30)


def daemon_lines(path, skip):
    """The well-behaved requests as the daemon logged them, in order: the look route (fetch: GET, publish: PUT),
    which no attacker uses; the first `skip` lines are passed over."""
    measured = {"fetch": [], "publish": []}
    for line in path.read_text().splitlines()[skip:]:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("route") == LOOK_ROUTE and entry.get("method") in ("GET", "PUT"):
            measured["fetch" if entry["method"] == "GET" else "publish"].append(entry)
    return measured


def metrics_histogram(port):
    """lookd_http_request_duration_seconds from /metrics (every request the daemon answered): {bound: cumulative}."""
    try:
        status, _, data = soak.request(types.SimpleNamespace(port=port), "GET", "/metrics", timeout=10)
    except (OSError, http.client.HTTPException):
        return {}
    buckets = {}
    for line in data.decode().splitlines():
        if line.startswith("lookd_http_request_duration_seconds_bucket{le=\""):
            bound = line.split('"')[1]
            buckets[float("inf") if bound == "+Inf" else float(bound)] = int(line.split()[-1])
    return buckets if status == 200 else {}


def classify(results):
    """Each fetch's kind: `miss` (the first fetch of its app after a publish of that app had been answered: the
    publish emptied the app's cached answers), `during publish` (sent while a publish of its app was in flight), else
    `hit`."""
    last_fetch = {}
    publishes = [row for row in results["publish"] if row["status"] == 200]
    for row in results["fetch"]:
        key, sent = row["key"], row["started"]
        mine = [p for p in publishes if p["key"] == key and p["started"] < sent]
        if any(p["done"] > sent for p in mine):
            row["kind"] = "during publish"
        elif mine and max(p["done"] for p in mine) > last_fetch.get(key, 0):
            row["kind"] = "miss"
        else:
            row["kind"] = "hit"
        last_fetch[key] = row["done"]


def explain(results, logged, histograms, path):
    """Where the well-behaved fetches' time went: per kind, and for the slowest, split into the client's own part
    (before its send, and waking up to read the answer) and the daemon's (its logged duration, and from the answer
    queued to its bytes at the client: writing, a worker's answer waiting for its loop). Writes every request to
    `path` (JSON lines)."""
    classify(results)
    fetches = results["fetch"]
    matched = len(logged["fetch"]) == len([r for r in fetches if r["status"] is not None])
    answered = iter(logged["fetch"])
    for row in fetches:
        row["measured"] = row["arrived"] - row["started"]
        row["wall"] = row["done"] - row["started"]
        if matched and row["status"] is not None:
            row["daemon"] = next(answered)["duration_ms"] / 1000
            row["after"] = row["arrived"] - row["sent"] - row["daemon"]
        nearest = min(results["load"], key=lambda sample: abs(sample[0] - row["started"]), default=(0, 0, 0))
        row["load"], row["runnable"] = nearest[1], nearest[2]
    with open(path, "w") as out:
        for kind in ("fetch", "publish"):
            for row in results[kind]:
                out.write(json.dumps({"request": kind, **{k: (v.decode("latin-1") if isinstance(v, bytes) else v)
                                                           for k, v in row.items()}}) + "\n")
    print("  where the fetches' time went (ms; measured = connect to the kernel's receipt of the answer's last bytes,"
          " wall = to this process having read them):")
    for kind in ("hit", "miss", "during publish"):
        rows = [r for r in fetches if r.get("kind") == kind]
        if rows:
            print(f"    {kind}: {len(rows)}; measured p50 {1000 * percentile([r['measured'] for r in rows], 0.5):.1f} "
                  f"p99 {1000 * percentile([r['measured'] for r in rows], 0.99):.1f} max "
                  f"{1000 * max(r['measured'] for r in rows):.1f}; wall p99 {1000 * percentile([r['wall'] for r in rows], 0.99):.1f}")
    slowest = sorted(fetches, key=lambda r: r["measured"], reverse=True)[:max(1, len(fetches) // 100 + 2)]
    print(f"    the {len(slowest)} slowest by measured: kind, measured = before the send + daemon-logged + answer"
          f" queued to arrival; then the client's wake-up, its CPU, load/runnable")
    for r in slowest:
        daemon_part = f"{1000 * r['daemon']:.1f} + {1000 * r['after']:.1f}" if "daemon" in r else "? (unmatched)"
        print(f"      {r['kind']:>14}: {1000 * r['measured']:6.1f} = {1000 * (r['sent'] - r['started']):.1f} + "
              f"{daemon_part}; wake {1000 * (r['done'] - r['arrived']):.1f}, cpu {1000 * r['cpu']:.1f}; "
              f"load {r['load']:.1f}/{r['runnable']}")
    if matched:
        for name, part in (("daemon-logged", lambda r: r["daemon"]), ("answer queued to arrival", lambda r: r["after"]),
                           ("before the send", lambda r: r["sent"] - r["started"]),
                           ("client wake-up", lambda r: r["done"] - r["arrived"])):
            values = [part(r) for r in fetches if "daemon" in r]
            print(f"    {name}: p50 {1000 * percentile(values, 0.5):.2f} p99 {1000 * percentile(values, 0.99):.2f} "
                  f"max {1000 * max(values, default=float('nan')):.2f}")
    else:
        print(f"    (the access log's {len(logged['fetch'])} fetches do not pair with the client's; no split)")
    before, after = histograms
    if before and after:
        total = after[float("inf")] - before[float("inf")]
        over = {bound: total - (after[bound] - before[bound]) for bound in (0.025, 0.05, 0.1)}
        print(f"    /metrics over the client's window, every answer of the daemon (attacks included): {total}; over 25 ms"
              f" {over[0.025]}, over 50 ms {over[0.05]}, over 100 ms {over[0.1]}")
    print(f"    every request: {path}")


def body_memory(daemon):
    """Row 3: BODIES bodies declared 8 MiB, all but 1,000 bytes sent, then a byte every 5 s; RSS before, peak, after."""
    before = daemon.rss_mib()
    declared = 8 << 20
    chunk = b" " * (1 << 20)
    sockets = []
    refused = 0
    peak = before

    def feed(index):
        nonlocal refused
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind((f"127.0.{10 + index // 128}.{1 + index % 128}", 0))
            sock.settimeout(30)
            sock.connect(("127.0.0.1", daemon.port))
            sock.sendall(b"POST /v1/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {declared}\r\n\r\n".encode())
            left = declared - 1000
            while left > 0:
                n = min(left, len(chunk))
                sock.sendall(chunk[:n])
                left -= n
            sockets.append(sock)
        except OSError:
            refused += 1
            sock.close()

    threads = [threading.Thread(target=feed, args=(i,)) for i in range(BODIES)]
    for start in range(0, len(threads), 32):
        for thread in threads[start:start + 32]:
            thread.start()
        for thread in threads[start:start + 32]:
            thread.join()
        peak = max(peak, daemon.rss_mib())
    end = time.time() + BODY_SECONDS
    while time.time() < end:
        for sock in list(sockets):
            try:
                sock.send(b" ")
            except OSError:
                sockets.remove(sock)
        peak = max(peak, daemon.rss_mib())
        time.sleep(5)
    held = len(sockets)
    for sock in sockets:
        sock.close()
    time.sleep(5)
    return before, peak, daemon.rss_mib(), held, refused


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    daemon = soak.Daemon(sys.argv[1], access_log=True, own_session=not ONE_SESSION)
    try:
        keys = soak.subprocess.run([sys.argv[1], "keygen", "--count", str(APPS)], check=True, capture_output=True,
                                   text=True).stdout.split()
        etags = {}
        admin = {"Authorization": f"Bearer {daemon.token}", "Content-Type": "application/json"}
        for index, key in enumerate(keys):
            status, headers, data = soak.request(daemon, "PUT", f"/v1/apps/{key}/look", json.dumps(soak.layer(index, 0)),
                                                 {**admin, "If-None-Match": "*"})
            if status != 201:
                sys.exit(f"abuse: the first publish of {key} answered {status}: {data[:300]!r}")
            etags[key] = soak.etag_of(headers, data)
        print(f"abuse: lookd pid {daemon.process.pid} on 127.0.0.1:{daemon.port}; {SECONDS} s of attacks", flush=True)
        start = time.time()
        loads = [os.getloadavg()[0]]
        logged_before = len(Path(daemon.work, "access.log").read_text().splitlines())   # the first publishes
        queue = multiprocessing.Queue()
        # The attacks end 2 s after the measured client, so that their threads are still there to be counted.
        attack = multiprocessing.Process(target=attackers, args=(daemon.port, start + SECONDS + 7, queue))
        attack.start()
        time.sleep(5)   # the attacks fill the table before the measured client starts
        print(f"abuse: open connections filled; RSS {daemon.rss_mib():.0f} MiB; the well-behaved client starts", flush=True)
        results = {"fetch": [], "publish": []}
        histogram_before = metrics_histogram(daemon.port)
        threads_before = (thread_times(daemon.process.pid), thread_times(attack.pid), thread_times(os.getpid()),
                          time.time())
        well_behaved(daemon, keys, etags, start + SECONDS + 5, results)
        threads_after = (thread_times(daemon.process.pid), thread_times(attack.pid), thread_times(os.getpid()),
                         time.time())
        histogram_after = metrics_histogram(daemon.port)
        loads += [sample[1] for sample in results["load"]]
        logged = daemon_lines(Path(daemon.work, "access.log"), logged_before)
        counts = queue.get(timeout=120)
        attack.join(timeout=60)
        rss_attack = daemon.rss_mib()
        memory = body_memory(daemon) if BODIES > 0 else None
        alive = daemon.process.poll() is None
    finally:
        if daemon.process.poll() is None:
            daemon.process.terminate()
            daemon.process.wait(timeout=30)

    print()
    print(f"abuse summary ({SECONDS} s of attacks):")
    for name in sorted(counts):
        print(f"  attack {name}: {counts[name]}")
    passed = alive and LINT_CLIENTS >= 30
    for kind, expected in (("fetch", 200), ("publish", 200)):
        rows = results[kind]
        ok = [row for row in rows if row["status"] == expected]
        rate = 100.0 * len(ok) / len(rows) if rows else 0.0
        measured = [row["arrived"] - row["started"] for row in rows]
        wall = [row["done"] - row["started"] for row in rows]
        print(f"  well-behaved {kind}: {len(rows)} requests, {rate:.2f} % success; latency ms (measured) p50 "
              f"{1000 * percentile(measured, 0.5):.1f} p99 {1000 * percentile(measured, 0.99):.1f} "
              f"max {1000 * max(measured, default=float('nan')):.1f}; wall p99 {1000 * percentile(wall, 0.99):.1f} "
              f"max {1000 * max(wall, default=float('nan')):.1f}")
        failures = {}
        for row in rows:
            if row["status"] != expected:
                failure = f"{row['status']} {row['body'][:100]!r}"
                failures[failure] = failures.get(failure, 0) + 1
        for failure, count in list(failures.items())[:5]:
            print(f"    ! {count} × {failure}")
        if kind == "fetch" and failures:
            # Whether the client's address held another connection then: a publish in flight overlapping the fetch.
            publishes = [(row["started"], row["done"]) for row in results["publish"]]
            failed = [(row["started"], row["done"]) for row in rows if row["status"] != expected]
            overlapping = sum(any(p0 < f1 and f0 < p1 for p0, p1 in publishes) for f0, f1 in failed)
            print(f"    failed fetches sent while a publish of the same client was in flight: {overlapping} of {len(failed)}")
        passed = passed and rows and rate == 100.0
        if kind == "fetch":
            passed = passed and percentile(measured, 0.99) < 0.050
    for kind, entries in logged.items():
        durations = [entry["duration_ms"] / 1000 for entry in entries]
        print(f"  daemon-side {kind} (access log): {len(durations)} requests; ms p50 {1000 * percentile(durations, 0.5):.2f} "
              f"p99 {1000 * percentile(durations, 0.99):.2f} max {1000 * max(durations, default=float('nan')):.2f}")
    explain(results, logged, (histogram_before, histogram_after), Path(RECORD or Path(daemon.work, "requests.jsonl")))
    window = threads_after[3] - threads_before[3]
    for index, who in enumerate(("daemon", "attack process", "client (fetching process)")):
        print(f"  {who} threads over the client's {window:.0f} s: {thread_report(threads_before[index], threads_after[index], window)}")
    print(f"  load average (1 min) during the attacks: min {min(loads):.1f}, max {max(loads):.1f}"
          f"{f'; attack process at nice {ATTACK_NICE}' if ATTACK_NICE else ''}"
          f"; {'one session for all' if ONE_SESSION else 'daemon, attack process and client each in its own session'}"
          f"{f'; {LINT_CLIENTS} lint clients (a diagnostic run: the targets need 30)' if LINT_CLIENTS != 30 else ''}")
    print(f"  RSS after the attacks: {rss_attack:.0f} MiB")
    if memory:
        before, peak, after, held, refused = memory
        print(f"  row 3, {BODIES} bodies declared 8 MiB: RSS before {before:.0f} MiB, peak {peak:.0f} MiB, 5 s after the "
              f"clients closed {after:.0f} MiB; {held} connections still held after {BODY_SECONDS} s, {refused} refused "
              f"while sending")
    print(f"  daemon {'up' if alive else 'DIED'}")
    print("abuse: PASS" if passed else "abuse: FAIL (targets: 100 % success, fetch p99 < 50 ms)")
    sys.exit(0 if passed else 1)


if __name__ == "__main__":
    main()
