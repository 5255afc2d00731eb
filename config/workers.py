"""gunicorn's threaded worker, taking new connections only while it has a thread free
(`worker_class` in gunicorn.conf.py).

gunicorn's own `gthread` worker accepts up to `worker_connections` (1,000) connections whatever
its threads are doing, and queues them behind its busy threads. With two workers and eight slow
clients, one worker took all eight in 7 of 32 tries, then took `GET /` too, which waited for
TUTOR_BODY_TIMEOUT (9.5 s) while the other worker sat idle. This one stops accepting while every
thread is busy, so the others take the connection. Kept-alive connections waiting for their next
request hold no thread and do not count. Written against gunicorn 27's gthread worker
(`enqueue_req`, `finish_request` and the run loop's `nr_conns < worker_connections`, all run on
the worker's main thread); tests/test_under_gunicorn.py holds it to its purpose.
"""

from __future__ import annotations

from gunicorn.workers import gthread


class ThreadWorker(gthread.ThreadWorker):
    def __init__(self, *args, **kwargs) -> None:
        self.busy = 0  # connections handed to the thread pool and not finished
        self._connections = 0
        super().__init__(*args, **kwargs)

    @property
    def worker_connections(self) -> int:
        """The run loop accepts while `nr_conns` is below this: none while no thread is free."""
        return self._connections if self.busy < self.cfg.threads else 0

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._connections = value

    def enqueue_req(self, conn) -> None:
        self.busy += 1
        super().enqueue_req(conn)

    def finish_request(self, conn, fs) -> None:
        self.busy -= 1
        super().finish_request(conn, fs)
