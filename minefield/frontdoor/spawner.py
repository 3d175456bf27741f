"""Sessions' processes: the ordinary ``minefield`` client in a pseudo-terminal, forked from a
process that has already imported the app.

Why a separate fork server (the *zygote*) rather than ``os.fork()`` in the front door: the
front door's process runs an asyncio loop, the embedded daemon's record threads and its bot
worker pool. A fork copies only the forking thread, so a lock that another thread held at that
moment (the logging module's, the allocator's, a ``ThreadPoolExecutor``'s queue) stays locked
forever in the child; the child would also inherit the loop's selector, its signal wake-up
descriptor and every SSH socket. Python warns about exactly this (``DeprecationWarning: This
process is multi-threaded, use of fork() may lead to deadlocks in the child``). The zygote is
started once, with :data:`sys.executable`, before any session: a single-threaded process with
no loop that imports the app (Textual, the screens, the rules) and then only forks. Its
children share those pages with it; each child becomes a session leader with the pseudo-
terminal as its controlling terminal, gets a clean environment and runs the client it was
given (:mod:`minefield.cli.zygote` starts it with :func:`minefield.cli.main`: the command line
is above the front door, so the front door names the program to run and does not import it).

The front door talks to the zygote over a ``SOCK_SEQPACKET`` socket pair: a request is one
JSON packet (argv, environment) carrying two descriptors, the terminal's slave side and one
end of a *link* socket. Over the link the child says ``pid N`` once it runs and ``exit S``
when it is done (no line: it died by a signal).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import gc
import json
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import termios
import tty
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from minefield.errors import MinefieldError

log = logging.getLogger("minefield.frontdoor")

#: The largest request packet (argv and environment are a few hundred bytes).
MAX_REQUEST = 64 * 1024
#: Environment variables the zygote itself keeps (Textual reads its settings at import).
ZYGOTE_ENV = ("PATH", "LANG", "LC_ALL", "HOME", "PYTHONPATH", "VIRTUAL_ENV")
#: The zygote's program (``python -m ZYGOTE FD``): it serves with the ``minefield`` client.
ZYGOTE = "minefield.cli.zygote"
#: A session's client: its arguments in, its exit status out (``minefield.cli.main``).
Client = Callable[[list[str]], int]


class SpawnError(MinefieldError):
    """A session's process could not be started (one line)."""


def set_size(fd: int, rows: int, columns: int) -> None:
    """Set a terminal's size in characters (the kernel tells its foreground processes with
    SIGWINCH)."""
    rows = max(1, min(rows, 1000))
    columns = max(1, min(columns, 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


# -- the zygote ----------------------------------------------------------------------------------


def preload(modules: Sequence[str]) -> None:
    """Import what a session runs (``modules``), and build the schemas of its pydantic models
    (deferred to their first use in the app), so that every child shares them with the
    zygote."""
    import importlib

    from pydantic import BaseModel

    for name in modules:
        importlib.import_module(name)
    for name, module in list(sys.modules.items()):
        if not name.startswith("minefield.") or module is None:
            continue
        for value in list(vars(module).values()):
            if (isinstance(value, type) and issubclass(value, BaseModel)
                    and value.__module__ == name and not value.__pydantic_generic_metadata__[
                        "parameters"]):
                with contextlib.suppress(Exception):  # a model that cannot build yet
                    value.model_rebuild()


def _reopen_standard_streams() -> None:
    """Python's stdin, stdout and stderr on the new descriptors 0, 1 and 2, in UTF-8."""
    for number, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        stream = open(number, mode, encoding="utf-8", errors="replace", closefd=False,  # noqa: SIM115
                      buffering=1 if mode == "w" else -1)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


#: The signals a session's client takes as any program would, whatever the operator's shell
#: left ignored in the server (``nohup`` ignores SIGHUP, and every child used to inherit it).
DEFAULT_SIGNALS = (signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT, signal.SIGTSTP,
                   signal.SIGTTIN, signal.SIGTTOU, signal.SIGUSR1, signal.SIGUSR2,
                   signal.SIGALRM, signal.SIGCHLD, signal.SIGCONT, signal.SIGWINCH)
#: ``prctl(2)``'s option: the signal this process gets when its parent dies.
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, number: int = signal.SIGKILL) -> None:
    """Get ``number`` when the parent process dies (Linux's ``PR_SET_PDEATHSIG``); exit now
    when it has already died (the child was adopted before the call). Elsewhere, nothing:
    the child still ends with its terminal (the front door holds the master side)."""
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(number), 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def default_signals() -> None:
    """Every signal a session's client may get back to what a freshly started program has:
    the default action (SIGINT: Python's KeyboardInterrupt; SIGPIPE stays ignored, as Python
    sets it at start)."""
    for number in DEFAULT_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


def _child(request: Mapping[str, object], slave: int, link: socket.socket, run: Client) -> int:
    """In the forked child: take the terminal, run the client; its exit status."""
    default_signals()
    os.setsid()
    fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    for number in (0, 1, 2):
        os.dup2(slave, number)
    if slave > 2:
        os.close(slave)
    env = request.get("env")
    os.environ.clear()
    if isinstance(env, dict):
        os.environ.update({str(k): str(v) for k, v in env.items()})
    os.chdir(str(request.get("cwd") or "/"))
    _reopen_standard_streams()
    link.sendall(f"pid {os.getpid()}\n".encode())
    argv = request.get("argv")
    try:
        return run([str(word) for word in argv] if isinstance(argv, list) else [])
    except SystemExit as leaving:  # argparse
        return leaving.code if isinstance(leaving.code, int) else 2
    except BaseException as error:  # never a traceback on a player's screen: the kind only
        print(f"minefield: the session failed ({type(error).__name__})", file=sys.stderr)
        return 1


def serve(control: socket.socket, run: Client, modules: Sequence[str],
          parent: int | None = None) -> None:
    """The zygote's life: import ``modules`` (:func:`preload`), say ready, then fork a child
    per request, which runs the client ``run``, until the front door (process ``parent``)
    closes its end."""
    preload(modules)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    # The front door's death closes the control socket, which ends the loop below (no
    # parent-death signal here: it would follow the front door's thread that started this
    # process, not the process); the children follow this process (die_with_parent).
    if parent is not None and os.getppid() != parent:
        return  # the front door died while this process was importing the app
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the front door stops us by closing
    gc.collect()
    gc.freeze()  # keep the collector off the shared pages in every child
    control.sendall(b"ready")
    while True:
        try:
            packet, fds, _flags, _address = socket.recv_fds(control, MAX_REQUEST, 2)
        except InterruptedError:  # pragma: no cover - retried by Python
            continue
        except OSError:
            return
        if not packet:
            for fd in fds:
                os.close(fd)
            return
        if len(fds) != 2:
            for fd in fds:
                os.close(fd)
            continue
        slave, link_fd = fds
        try:
            request = json.loads(packet)
        except ValueError:
            os.close(slave)
            os.close(link_fd)
            continue
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child
            status = 1
            try:
                die_with_parent(zygote)  # the zygote dies with the front door: so does this
                control.close()
                link = socket.socket(fileno=link_fd)
                status = _child(request, slave, link, run)
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                with contextlib.suppress(OSError):
                    link.sendall(f"exit {status}\n".encode())
            finally:
                os._exit(status if 0 <= status < 256 else 1)
        os.close(slave)
        os.close(link_fd)


# -- the front door's side -----------------------------------------------------------------------


@dataclass(slots=True)
class Child:
    """A session's process: the terminal's master side and the link that tells its pid and
    exit status."""

    master: int
    link: socket.socket
    pid: int | None = None
    #: What the link sent after the last line read (a quick child's ``pid`` and ``exit``
    #: lines may come in one read).
    pending: bytes = b""

    async def started(self) -> int:
        """The child's pid, once it runs (SpawnError if it never did)."""
        line = await self._line()
        if not line.startswith("pid "):
            raise SpawnError("the session's process did not start")
        self.pid = int(line.split()[1])
        return self.pid

    async def exited(self) -> int:
        """The exit status, once the child is done (1 when it died without one)."""
        line = await self._line()
        with contextlib.suppress(ValueError, IndexError):
            if line.startswith("exit "):
                return int(line.split()[1])
        return 1

    async def _line(self) -> str:
        """The link's next line (what is left of it when the link closes first)."""
        loop = asyncio.get_running_loop()
        while b"\n" not in self.pending:
            chunk = await loop.sock_recv(self.link, 64)
            if not chunk:
                line, self.pending = self.pending, b""
                return line.decode(errors="replace")
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line.decode(errors="replace") + "\n"

    def hang_up(self) -> None:
        """End the session: SIGHUP to the child's process group (it leads a session of its
        own), then SIGKILL a little later if it is still there."""
        if self.pid is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGHUP)
        pid = self.pid

        def kill() -> None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_later(5.0, kill)

    def kill(self) -> None:
        """End the session at once: SIGKILL to the child's process group (its player is gone:
        nothing is left to say to them, and nothing may reach the game server after this)."""
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)

    def close(self) -> None:
        """Close the front door's descriptors of this child."""
        with contextlib.suppress(OSError):
            os.close(self.master)
        self.link.close()


class Spawner:
    """Starts the zygote and asks it for children."""

    def __init__(self) -> None:
        self.control: socket.socket | None = None
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the zygote and wait until it has imported the app (a few seconds)."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        env = {name: os.environ[name] for name in ZYGOTE_ENV if name in os.environ}
        env.setdefault("LANG", "C.UTF-8")
        self.process = subprocess.Popen(
            [sys.executable, "-m", ZYGOTE, str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env=env, start_new_session=True)
        theirs.close()
        ours.settimeout(60.0)
        try:
            ready = ours.recv(16)
        except OSError:
            ready = b""
        if ready != b"ready":
            self.process.kill()
            raise SpawnError("the session process server did not start")
        ours.settimeout(None)
        self.control = ours

    def spawn(self, argv: Sequence[str], env: Mapping[str, str], rows: int, columns: int,
              terminal: bool = True) -> Child:
        """A child running ``minefield ARGV`` in a new pseudo-terminal of that size.

        ``terminal=False`` (no terminal was asked for): the terminal neither echoes nor turns
        newlines into CR LF, so what the child prints arrives as it wrote it.
        """
        if self.control is None:
            raise SpawnError("the session process server is not running")
        master, slave = os.openpty()
        try:
            set_size(slave, rows, columns)
            if not terminal:
                tty.setraw(slave)
            os.set_blocking(master, False)
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
            packet = json.dumps({"argv": list(argv), "env": dict(env)}).encode()
            try:
                socket.send_fds(self.control, [packet], [slave, theirs.fileno()])
            except OSError as error:
                ours.close()
                raise SpawnError(f"the session process server is gone ({error.strerror})"
                                 ) from None
            finally:
                theirs.close()
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        ours.setblocking(False)
        return Child(master=master, link=ours)

    def alive(self) -> bool:
        """True while the zygote runs."""
        return self.process is not None and self.process.poll() is None

    def restart(self) -> None:
        """Start a new zygote (after the last one died)."""
        self.stop()
        self.start()

    def stop(self) -> None:
        """Stop the zygote (running sessions go on until they end)."""
        if self.control is not None:
            self.control.close()
            self.control = None
        if self.process is not None:
            try:
                self.process.wait(timeout=5.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


