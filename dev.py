#!/usr/bin/env python3
"""Tutor's two commands for a fresh machine (only python3 >= 3.11 needed).

    python3 dev.py serve   set up .venv, install, migrate, load content, create demo users, serve
    python3 dev.py test    set up .venv if needed and run the whole test suite
    python3 dev.py messages  update the de/it catalogs from the code, then compile them
                             (needs GNU gettext; docs/i18n.md)

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("TUTOR_VENV", ROOT / ".venv"))
PYTHON = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def run(*args: str | Path, env: dict[str, str] | None = None) -> None:
    print("+", " ".join(str(a) for a in args), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True, env=env)


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (runs before the venv exists)
        sys.exit("Tutor needs Python 3.11 or newer.")
    stamp = VENV / ".tutor-installed"
    pyproject = ROOT / "pyproject.toml"
    if stamp.exists() and stamp.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    if not PYTHON.exists():
        run(sys.executable, "-m", "venv", VENV)
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    stamp.touch()


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


def serve() -> None:
    ensure_venv()
    env = {**os.environ, "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1")}
    run(PYTHON, "manage.py", "migrate", "--noinput", env=env)
    run(PYTHON, "manage.py", "load_content", env=env)
    run(PYTHON, "manage.py", "create_demo_users", env=env)
    run(PYTHON, "manage.py", "runserver", "127.0.0.1:8000", env=env)


def test(extra: list[str]) -> None:
    ensure_venv()
    ensure_chromium()
    ensure_gettext()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    run(PYTHON, "-m", "pytest", *extra, env=env)


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "serve":
        serve()
    elif command == "test":
        test(sys.argv[2:])
    elif command == "messages":
        messages()
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main()
    except subprocess.CalledProcessError as error:
        sys.exit(error.returncode)
    except KeyboardInterrupt:
        sys.exit(130)
