"""A headless Chromium driven over the DevTools protocol on a pipe: the browser test's driver, and the screenshot
script's (scripts/page_screenshots.py).

Chromium started with ``--remote-debugging-pipe`` reads the protocol's commands on its file descriptor 3 and
writes its answers and events on 4, each message one JSON text ended by a NUL byte. That needs no package
(no websocket client, no webdriver, no chromedriver matching the browser's version) and no port: nothing listens on
the network, and two test runs on one machine never meet. The browser is started by ``posix_spawn`` in a session
of its own (its helper processes with it), so that closing it ends every one of its processes.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import signal
import tempfile
import time
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe")
"""How the browser is started: headless as root (no sandbox), nothing fetched in the background."""


def find_chromium() -> str | None:
    """The Chromium (or Chrome) to drive: ``$CHROMIUM`` if set, else the first of Debian's names on the path."""
    if os.environ.get("CHROMIUM"):
        return os.environ["CHROMIUM"]
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(RuntimeError):
    """The browser answered a command with an error, closed its pipe, or kept an answer past the timeout."""


class Browser:
    """One headless Chromium and one page (tab) of it, attached; ``events`` collects every event it sent."""

    def __init__(self, executable: str, *, width: int = 1360, height: int = 1000, timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="reversis-chromium-")
        theirs_r, ours_w = os.pipe()  # commands: we write, the browser reads on its fd 3
        ours_r, theirs_w = os.pipe()  # answers and events: the browser writes on its fd 4, we read
        # above 4, so that moving them onto 3 and 4 in the child never overwrites one with the other
        high_r, high_w = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (theirs_r, theirs_w))
        os.close(theirs_r)
        os.close(theirs_w)
        self.log = open(Path(self.profile) / "chromium.log", "wb")  # noqa: SIM115 - closed in close()
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            self.pid = os.posix_spawn(
                executable, [executable, *FLAGS, f"--user-data-dir={self.profile}",
                             f"--window-size={width},{height}", "about:blank"], os.environ,
                file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, self.log.fileno(), 1),
                              (os.POSIX_SPAWN_DUP2, self.log.fileno(), 2), (os.POSIX_SPAWN_DUP2, high_r, 3),
                              (os.POSIX_SPAWN_DUP2, high_w, 4)],
                setsid=True)
        finally:
            for fd in (devnull, high_r, high_w):
                os.close(fd)
        self.write_fd, self.read_fd = ours_w, ours_r
        self.buffer = b""
        self.next_id = 0
        self.events: list[dict] = []
        self.session = None
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)[
            "sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=False)

    # the protocol
    def _send(self, method: str, params: dict, browser: bool) -> int:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params}
        if self.session and not browser:
            message["sessionId"] = self.session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self.write_fd, data):]
        return self.next_id

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.read_fd], [], [], left)[0]:
                raise BrowserError("the browser sent nothing before the timeout")
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise BrowserError(f"the browser closed its pipe (its log: {self.profile}/chromium.log)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, browser: bool = False, **params) -> dict:
        """Send one command (to the page once attached; to the browser with ``browser``) and return its result,
        keeping the events that arrive meanwhile."""
        browser = browser or method.startswith(("Target.", "Browser."))
        i = self._send(method, params, browser)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == i:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error']}")
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def wait_for(self, method: str, since: int = 0) -> dict:
        """The first event ``method`` among the events from index ``since`` on, waiting for it to arrive."""
        deadline = time.monotonic() + self.timeout
        while True:
            for event in self.events[since:]:
                if event["method"] == method:
                    return event
            since = len(self.events)
            message = self._receive(deadline)
            if "method" in message:
                self.events.append(message)

    # what a test does with a page
    def open(self, url: str) -> None:
        """Load ``url`` and wait for its load event."""
        since = len(self.events)
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired", since)

    def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page (returned by value: JSON-like data)."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:60]}...: {result['exceptionDetails']}")
        return result["result"].get("value")

    def press(self, key: str) -> None:
        """Press and release one key as a person does (``ArrowRight``, ``End``, ``a``)."""
        codes = {"ArrowLeft": 37, "ArrowUp": 38, "ArrowRight": 39, "ArrowDown": 40, "Home": 36, "End": 35,
                 "PageUp": 33, "PageDown": 34, "Enter": 13, "Escape": 27}
        code = codes.get(key, ord(key.upper()[0]))
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code,
                      nativeVirtualKeyCode=code)

    def click(self, selector: str) -> None:
        """A mouse click in the middle of the first element ``selector`` finds (scrolled into view first)."""
        box = self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); "
                            "e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); "
                            "return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=box[0], y=box[1], button="left", clickCount=1)

    def screenshot(self, path: Path, *, full_page: bool = False) -> None:
        """The page as a PNG file (the viewport, or the whole page)."""
        params = {"format": "png"}
        if full_page:
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        Path(path).write_bytes(base64.b64decode(self.call("Page.captureScreenshot", **params)["data"]))

    def errors(self) -> list[str]:
        """Every error that reached the browser's console: uncaught exceptions, ``console.error`` and
        ``console.assert``, and the browser's own log entries of level error (a resource refused, a policy); what the
        page's timers still had to do runs first."""
        self.evaluate("new Promise((done) => setTimeout(done, 200))")
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                d = p["exceptionDetails"]
                out.append(d.get("exception", {}).get("description") or d.get("text", "exception"))
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif e["method"] == "Log.entryAdded" and p["entry"]["level"] == "error":
                out.append(p["entry"]["text"])
        return out

    def requests(self) -> list[str]:
        """The URL of every request the page made."""
        return [e["params"]["request"]["url"] for e in self.events if e["method"] == "Network.requestWillBeSent"]

    def close(self) -> None:
        """Close the browser (every process of its session) and remove its profile."""
        try:
            self._send("Browser.close", {}, True)
        except OSError:
            pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and os.waitpid(self.pid, os.WNOHANG) == (0, 0):
            time.sleep(0.05)
        for fd in (self.write_fd, self.read_fd):
            os.close(fd)
        try:
            os.killpg(self.pid, signal.SIGKILL)  # the helpers of its session, and the browser if it lingers
        except ProcessLookupError:
            pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
