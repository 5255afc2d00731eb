"""gunicorn's settings for Tutor, read by `gunicorn config.wsgi` run from the repository root
(gunicorn loads ./gunicorn.conf.py by itself; `-c gunicorn.conf.py` says so explicitly).
Bind and the number of workers stay on the command line (docs/deployment.md).

Slow clients must not hold the site: a sync worker serves one request at a time, so four
clients that declare a 1 MB body and send 10 bytes held all four workers and `GET /` waited
31 s. Threaded workers serve THREADS requests each (a slow client holds one thread, not a
process; a worker takes connections only while a thread is free: config/workers.py), and a
request's body must keep arriving: a read that waits BODY_TIMEOUT seconds for the next bytes
ends the request (408, config/inputs.py). In front of the app, a proxy that buffers whole
request bodies (nginx does by default) is still the production setup: docs/deployment.md.

Health probes have a port of their own (TUTOR_HEALTHZ_BIND, e.g. 127.0.0.1:8001): the master
opens it once, and every worker answers `/healthz` on it from a thread outside its request
queue (config.health.serve_probes), so a probe never waits behind requests that hold every
worker thread. The socket's descriptor is kept in the master's environment, so workers started
after a reload (HUP) find it too.

gunicorn has no setting for its `Server: gunicorn` header, which tells an attacker the server
software; the response's default headers are filtered here so no Server header is sent.
"""

from __future__ import annotations

import os
import socket

from gunicorn.http import wsgi

THREADS = 8  # per worker; the PostgreSQL pool keeps up to 10 connections per process
# seconds a request may go without sending the next bytes of its body
BODY_TIMEOUT = float(os.environ.get("TUTOR_BODY_TIMEOUT", "10"))
# host:port of the health probes' own port (none: /healthz only on the app's port)
HEALTHZ_BIND = os.environ.get("TUTOR_HEALTHZ_BIND", "")
HEALTHZ_FD = "TUTOR_HEALTHZ_FD"  # the probe socket's descriptor, from the master to its workers

# gthread, taking connections only while a thread is free (config/workers.py): a worker whose
# threads are all held leaves new connections to the others instead of queueing them
worker_class = "config.workers.ThreadWorker"
threads = THREADS
# A worker whose main loop is silent this long is restarted; the database gives up on a
# connection well before (config/settings.py: 3 s to connect, 5 s for a pooled connection).
timeout = 30
keepalive = 5  # behind a proxy that keeps connections to the app open


def pre_request(worker, req) -> None:
    """Every read of the request body (and write of the answer) waits at most BODY_TIMEOUT."""
    worker.log.debug("%s %s", req.method, req.path)  # gunicorn's own hook did this
    req.unreader.sock.settimeout(BODY_TIMEOUT)


def when_ready(server) -> None:
    """Open the probe port once, in the master, before the first worker starts."""
    if not HEALTHZ_BIND or HEALTHZ_FD in os.environ:
        return
    host, _, port = HEALTHZ_BIND.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"  # "[::1]:8001" is IPv6
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.create_server((host, int(port)), family=family, backlog=64)
    listener.set_inheritable(True)
    os.environ[HEALTHZ_FD] = str(listener.detach())
    server.log.info("Health probes at: http://%s/healthz", HEALTHZ_BIND)


def post_worker_init(worker) -> None:
    """Answer the probe port from a thread of this worker's own (the app is loaded by now)."""
    if descriptor := os.environ.get(HEALTHZ_FD):
        from config.health import serve_probes

        serve_probes(socket.socket(fileno=int(descriptor)))


_default_headers = wsgi.Response.default_headers


def _default_headers_without_server(self) -> list[str]:
    return [line for line in _default_headers(self) if not line.lower().startswith("server:")]


wsgi.Response.default_headers = _default_headers_without_server
