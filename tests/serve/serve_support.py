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
        self.token = urllib.parse.parse_qs(parts.query)["token"][0]

    def stop(self):
        """SIGTERM, as a service manager stops it: the exit code (0 when it stopped cleanly)."""
        self.process.send_signal(signal.SIGTERM)
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
