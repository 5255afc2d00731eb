"""dev.py: a taken port is said before any setup; the whole suite runs on every core."""

from __future__ import annotations

import socket

import pytest

import dev


@pytest.fixture
def listening():
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        yield server.getsockname()[1]


def test_a_taken_port_is_said_before_any_setup(listening, monkeypatch):
    def no_setup():
        raise AssertionError("the setup ran before the port was checked")

    monkeypatch.setattr(dev, "ensure_venv", no_setup)
    with pytest.raises(SystemExit) as stop:
        dev.serve(["--port", str(listening)])
    message = str(stop.value.code)
    assert f"127.0.0.1:{listening}: the port is taken" in message
    assert f"--port {listening + 1}" in message


def test_a_free_port_is_free(listening):
    assert dev.port_taken("127.0.0.1", listening) == "the port is taken"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    assert dev.port_taken("127.0.0.1", free) == ""


@pytest.mark.parametrize(
    ("arguments", "workers"),
    [
        ([], True),
        (["-q", "-m", "not browser"], True),
        (["tests/test_dev.py", "-q"], False),
        (["tests/test_dev.py::test_a_free_port_is_free"], False),
        (["-n", "1"], False),
    ],
)
def test_the_whole_suite_runs_on_every_core(arguments, workers):
    assert bool(dev.parallel(arguments)) is workers
