#!/usr/bin/env python3
"""Tutor's two commands for a fresh machine (only python3 >= 3.11 needed).

    python3 dev.py serve   set up .venv, install, migrate, load content, create demo users, serve
                           (--port N, --host H; --setup redoes the setup even if nothing changed)
    python3 dev.py test    set up .venv if needed and run the whole test suite, one worker per
                           core (pytest-xdist); with test paths, one process unless -n is given
    python3 dev.py messages  update the de/it catalogs from the code, then compile them
                             (needs GNU gettext; docs/i18n.md)
    python3 dev.py install set up .venv only (as serve and test do first)
    python3 dev.py lock    re-resolve requirements/*.lock from pyproject.toml (the newest
                           releases that fit, with hashes); the next serve or test installs them
                           (--check: fail if the locks no longer match pyproject.toml)

Standard library only: it runs before anything is installed. The virtualenv is installed from
requirements/dev.lock (exact versions and hashes, read by plain pip), then the project itself.
"""

from __future__ import annotations

import argparse
import errno
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("TUTOR_VENV", ROOT / ".venv"))
PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
LOCKS = {"dev": ROOT / "requirements" / "dev.lock", "prod": ROOT / "requirements" / "prod.lock"}
# What `serve`'s setup (migrate, load_content, demo users) reads: when none of it changed since
# the last setup of the same database, serving starts at once.
SETUP_INPUTS = [
    "*/migrations/*.py",
    "quizzes/content/**/*.json",
    "rules/catalog/*.json",
    "rules/engine/**/*.py",
    "quizzes/loading/**/*.py",
    "quizzes/rulings/**/*.py",
    "quizzes/management/commands/*.py",
    "config/settings.py",
    "requirements/dev.lock",
]


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True, env=env)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (runs before the venv exists)
        sys.exit("Tutor needs Python 3.11 or newer.")
    stamp = VENV / ".tutor-installed"
    wanted = digest([LOCKS["dev"]])  # what is installed: the lock's pins, and the project
    if PYTHON.exists() and stamp.exists() and stamp.read_text() == wanted:
        return
    if not PYTHON.exists():
        run(sys.executable, "-m", "venv", VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    # exactly the locked versions, each checked against its hash; then the project, whose
    # dependencies are all in the lock already
    run(PYTHON, "-m", "pip", "install", "--quiet", "--require-hashes", "-r", LOCKS["dev"])
    run(PYTHON, "-m", "pip", "install", "--quiet", "--no-deps", "-e", ".")
    stamp.write_text(wanted)


def digest(paths: list[Path]) -> str:
    sha = hashlib.sha256()
    for path in sorted(paths):
        sha.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return sha.hexdigest()


def lock(check: bool = False) -> None:
    """Resolve the locks again with uv (in the dev lock itself): `uv pip compile` writes a
    requirements file that plain pip installs, for every platform and Python >= 3.11. With
    `--check`, re-resolve keeping the locked versions and fail if pyproject.toml wants others."""
    ensure_venv()
    for name, path in LOCKS.items():
        target = path.with_suffix(".check") if check else path
        if check:
            shutil.copyfile(path, target)  # uv keeps the versions pinned in its output file
        run(
            PYTHON, "-m", "uv", "pip", "compile", "pyproject.toml",
            *(["--extra", "dev"] if name == "dev" else []), *([] if check else ["--upgrade"]),
            "--universal", "--python-version", "3.11", "--generate-hashes", "--quiet",
            "--output-file", target.relative_to(ROOT),
        )  # fmt: skip
        if check:
            body = [line for line in target.read_text().splitlines() if not line.startswith("#")]
            target.unlink()
            if body != [line for line in path.read_text().splitlines() if not line.startswith("#")]:
                sys.exit(f"{path.name} does not match pyproject.toml: run python3 dev.py lock")


def ensure_chromium() -> None:
    """The browser tests drive Debian's chromium; install it when we can (root on Debian)."""
    if shutil.which("chromium") or Path("/usr/bin/chromium").exists():
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        run("apt-get", "update", "-qq")
        run("apt-get", "install", "-y", "-qq", "chromium", "fonts-dejavu-core")
    else:
        print(
            "The browser tests need Debian's chromium at /usr/bin/chromium: "
            "sudo apt-get install chromium",
            file=sys.stderr,
        )


def ensure_gettext() -> None:
    """The catalog test and `messages` run GNU gettext's msgfmt and msgcmp (Debian: gettext)."""
    if shutil.which("msgfmt") and shutil.which("msgcmp"):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        run("apt-get", "install", "-y", "-qq", "gettext")
    else:
        print("The catalog test needs GNU gettext: sudo apt-get install gettext", file=sys.stderr)


def messages() -> None:
    """makemessages for German and Italian, then compile: docs/i18n.md says what to translate."""
    ensure_venv()
    ensure_gettext()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    run(
        PYTHON, "manage.py", "makemessages", "--locale", "de", "--locale", "it", "--no-location",
        "--ignore", "tests", "--ignore", "bench", "--ignore", "staticfiles", env=env,
    )  # fmt: skip
    for language in ("de", "it"):
        catalog = ROOT / "locale" / language / "LC_MESSAGES" / "django.po"
        run("msgattrib", "--untranslated", "--no-wrap", "--output-file",
            ROOT / "locale" / language / "untranslated.po", catalog)  # fmt: skip
    run(
        PYTHON, "manage.py", "compilemessages", "--locale", "de", "--locale", "it",
        "--ignore", ".venv", env=env,
    )  # fmt: skip


def serve(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python3 dev.py serve")
    parser.add_argument("--port", type=int, default=8000, help="default 8000")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="default 127.0.0.1; another name must be in DJANGO_ALLOWED_HOSTS",
    )
    parser.add_argument("--setup", action="store_true", help="migrate and load content again")
    options = parser.parse_args(argv)
    taken = port_taken(options.host, options.port)
    if taken:  # said before the setup, which would take half a minute and then fail
        sys.exit(
            f"Cannot serve on {options.host}:{options.port}: {taken}. Choose another port "
            f"with --port, e.g. python3 dev.py serve --port {options.port + 1}"
        )
    ensure_venv()
    env = {**os.environ, "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1")}
    sqlite = ROOT / "db.sqlite3"  # settings.py's default
    database = os.environ.get("DATABASE_URL", "") or str(sqlite)
    stamp, done = VENV / ".tutor-setup", {}
    if stamp.exists():
        done = json.loads(stamp.read_text())
    inputs = digest([p for pattern in SETUP_INPUTS for p in ROOT.glob(pattern) if p.is_file()])
    missing = database == str(sqlite) and not sqlite.exists()
    if options.setup or missing or done.get(database) != inputs:
        run(PYTHON, "manage.py", "migrate", "--noinput", env=env)
        run(PYTHON, "manage.py", "load_content", env=env)
        run(PYTHON, "manage.py", "create_demo_users", env=env)
        stamp.write_text(json.dumps({**done, database: inputs}))
    else:
        print(
            "Migrations and content unchanged since the last setup of this database: not "
            "redone (--setup redoes it). The demo log-ins are in the README.",
            flush=True,
        )
    host = f"[{options.host}]" if ":" in options.host else options.host
    # the background tasks' worker (large imports: docs/deployment.md), stopped with the server
    worker = subprocess.Popen([str(PYTHON), "manage.py", "db_worker"], cwd=ROOT, env=env)
    try:
        run(PYTHON, "manage.py", "runserver", f"{host}:{options.port}", env=env)
    finally:
        worker.terminate()
        worker.wait(timeout=10)


def port_taken(host: str, port: int) -> str:
    """Why `runserver` could not listen on host:port, or "" when it can (binding as it binds)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except (socket.gaierror, OverflowError) as error:
        return str(error)
    with socket.socket(family, kind, proto) as probe:
        if os.name != "nt":  # as runserver: a port left in TIME_WAIT is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            return "the port is taken" if error.errno == errno.EADDRINUSE else str(error)
    return ""


def test(extra: list[str]) -> None:
    ensure_venv()
    ensure_chromium()
    ensure_gettext()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    run(PYTHON, "-m", "pytest", *parallel(extra), *extra, env=env)


def parallel(extra: list[str]) -> list[str]:
    """The whole suite (no test paths given) runs on every core, a test file per worker at a
    time (its module fixtures set up once); each worker has its own test database and Redis
    database (tests/conftest.py). Chosen tests run in one process unless -n says otherwise."""
    chosen = any(Path(arg.split("::")[0]).exists() for arg in extra if not arg.startswith("-"))
    if chosen or any(arg.startswith(("-n", "--numprocesses", "--dist")) for arg in extra):
        return []
    return ["-n", "auto", "--dist", "loadfile"]


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "serve":
        serve(sys.argv[2:])
    elif command == "test":
        test(sys.argv[2:])
    elif command == "messages":
        messages()
    elif command == "lock":
        lock(check=sys.argv[2:] == ["--check"])
    elif command == "install":
        ensure_venv()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        sys.exit(130)
