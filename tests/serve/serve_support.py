"""Starting and stopping `anvilrt serve` for the tests of tests/serve/ (security and browser)."""
import os
import signal
import subprocess
import urllib.parse


def default_signals():
    """In the child: the stop signals and SIGPIPE at their defaults, as a terminal starts a command (a test
    runner may have them ignored, which would hide what the server does about them)."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)


def under_wine():
    """Whether the anvilrt these tests run is the Windows build under Wine (tests/CMakeLists.txt says so)."""
    return bool(os.environ.get("ANVILRT_UNDER_WINE"))


def stop_signal():
    """What stops the server as a user would: SIGTERM, or Ctrl+C (SIGINT through Wine) on Windows."""
    return signal.SIGINT if under_wine() else signal.SIGTERM


class Served:
    """`anvilrt serve FILE ARGS...` running; `url`, `port` and `token` from its first line of stdout."""

    def __init__(self, anvilrt, path, *args):
        self.process = subprocess.Popen([anvilrt, "serve", path, *args], stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, preexec_fn=default_signals)
        self.url = self.process.stdout.readline().strip()
        if not self.url.startswith("http://"):
            self.process.kill()
            raise RuntimeError(f"anvilrt serve printed {self.url!r} first; stderr: {self.process.stderr.read()}")
        parts = urllib.parse.urlsplit(self.url)
        self.host, self.port = parts.hostname, parts.port
        self.token = urllib.parse.parse_qs(parts.fragment)["token"][0]  # "#token=": never sent by a browser

    def stop(self):
        """SIGTERM, as a service manager stops it: the exit code (0 when it stopped cleanly). The Windows
        build under Wine (ANVILRT_UNDER_WINE set) gets SIGINT, which Wine hands to the program as its console's
        Ctrl+C (SetConsoleCtrlHandler); Wine ends a program on SIGTERM without telling it."""
        self.process.send_signal(stop_signal())
        try:
            return self.process.wait(timeout=30)
        finally:
            self.process.stdout.close()
            self.process.stderr.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.stop()


class Checks:
    """The checks of one script: each printed as it is made, the failed ones kept for the exit code."""

    def __init__(self):
        self.failures = []

    def __call__(self, what, condition, detail=""):
        print(("ok   " if condition else "FAIL ") + what + (f": {detail}" if detail and not condition else ""))
        if not condition:
            self.failures.append(what)

    def summary(self):
        """Prints the count and gives the exit code: 0 when every check passed."""
        print(f"{len(self.failures)} failure(s)" if self.failures else "every check passed")
        return 1 if self.failures else 0
