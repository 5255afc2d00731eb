"""Launch validation with pylti1p3, on storage every worker shares and with one-use nonces.

pylti1p3 keeps the OIDC state, the nonces and the launch data in a cache. Tutor's:

- the `lti` cache (config/settings.py): Redis or the database, never a worker's memory, so the
  platform's POST may reach another worker than its login did;
- a nonce is taken, not read: pylti1p3 only checks that it exists, so the same id_token posted
  again with its state would pass; here the first launch deletes it (an atomic delete in Redis
  and in the database) and a replay is refused;
- a deployment Tutor does not know, or whose `is_active` an administrator has not ticked, is
  refused (django-lti's own configuration would create it, inactive, and refuse it later).
"""

from __future__ import annotations

import logging

import requests
from django.http import HttpRequest
from lti_tool.models import LtiDeployment, LtiLaunch
from lti_tool.utils import DjangoToolConfig, _prepare_deployment
from pylti1p3.contrib.django import DjangoCacheDataStorage, DjangoMessageLaunch, DjangoOIDCLogin
from pylti1p3.service_connector import REQUESTS_USER_AGENT

logger = logging.getLogger("tutor.lti")

CACHE = "lti"
PUBLIC_KEYS_KEPT = 3600  # seconds a platform's keyset is kept before it is fetched again
HTTP_TIMEOUT = 10  # seconds for each call to a platform (its keyset at a launch)


class TimedSession(requests.Session):
    """requests' session with a timeout on every call: a platform that does not answer holds
    a worker that long at most."""

    timeout: float = HTTP_TIMEOUT

    def request(self, method, url, *args, **kwargs):  # type: ignore[override]
        kwargs.setdefault("timeout", self.timeout)
        return super().request(method, url, *args, **kwargs)


def http_session(timeout: float = HTTP_TIMEOUT) -> requests.Session:
    session = TimedSession()
    session.timeout = timeout
    session.headers["User-Agent"] = REQUESTS_USER_AGENT
    return session


class LaunchStorage(DjangoCacheDataStorage):
    """pylti1p3's cache storage on the shared `lti` cache, whose nonces are used once."""

    def __init__(self) -> None:
        super().__init__(cache_name=CACHE)

    def check_value(self, key: str) -> bool:
        # pylti1p3 calls this for nonces alone (SessionService.check_nonce): the delete that
        # finds the key wins, and any later launch carrying the nonce is refused
        return bool(self._get_cache().delete(self._prepare_key(key)))


class ToolConfig(DjangoToolConfig):
    """django-lti's registrations from the database; an unknown deployment is refused."""

    def find_deployment(self, iss, deployment_id):
        return self._known(registration__issuer=iss, deployment_id=deployment_id)

    def find_deployment_by_params(self, iss, deployment_id, client_id, *args, **kwargs):
        return self._known(
            registration__issuer=iss,
            registration__client_id=client_id,
            deployment_id=deployment_id,
        )

    def _known(self, **lookups):
        if self.registration_uuid is not None:
            lookups["registration__uuid"] = self.registration_uuid
        self.deployment = LtiDeployment.objects.filter(
            registration__is_active=True, is_active=True, **lookups
        ).first()
        return None if self.deployment is None else _prepare_deployment(self.deployment)


# What django-lti stores of a launch, bounded to its columns (a platform signs what it likes):
# strings of the launch data by path, with their column's length.
BOUNDED_CLAIMS = {
    ("given_name",): 500,
    ("family_name",): 500,
    ("name",): 500,
    ("https://purl.imsglobal.org/spec/lti/claim/context", "title"): 500,
    ("https://purl.imsglobal.org/spec/lti/claim/context", "label"): 255,
    ("https://purl.imsglobal.org/spec/lti/claim/resource_link", "title"): 500,
    ("https://purl.imsglobal.org/spec/lti/claim/resource_link", "description"): 2000,
}
# Claims Tutor never uses, left out of django-lti's rows: an e-mail address (a person is found by
# platform and `sub` alone: quizzes/lti/accounts.py) and a picture's URL.
UNUSED_CLAIMS = ("email", "picture")


def bound_claims(launch: LtiLaunch) -> None:
    """Cut the launch data's stored strings to their columns and drop the unused claims, in
    place, before django-lti copies them into its rows."""
    data = launch.get_launch_data()
    for claim in UNUSED_CLAIMS:
        data.pop(claim, None)
    for path, length in BOUNDED_CLAIMS.items():
        *parents, name = path
        holder = data
        for parent in parents:
            holder = holder.get(parent) if isinstance(holder, dict) else None
        if isinstance(holder, dict) and isinstance(holder.get(name), str):
            holder[name] = holder[name][:length]


def oidc_login(request: HttpRequest) -> DjangoOIDCLogin:
    return DjangoOIDCLogin(request, ToolConfig(), launch_data_storage=LaunchStorage())


def validated_launch(request: HttpRequest) -> LtiLaunch:
    """The platform's launch POST, validated (state, signature, nonce, deployment, message);
    raises pylti1p3's LtiException otherwise."""
    message_launch = DjangoMessageLaunch(
        request,
        ToolConfig(),
        launch_data_storage=LaunchStorage(),
        requests_session=http_session(),
    )
    message_launch.set_public_key_caching(LaunchStorage(), cache_lifetime=PUBLIC_KEYS_KEPT)
    message_launch.validate()
    launch = LtiLaunch(message_launch)
    bound_claims(launch)
    return launch


def stored_launch(request: HttpRequest, launch_id: str) -> LtiLaunch:
    """A launch validated earlier in this session (the deep-linking picker's), from the cache."""
    message_launch = DjangoMessageLaunch.from_cache(
        launch_id,
        request,
        ToolConfig(),
        launch_data_storage=LaunchStorage(),
        requests_session=http_session(),
    )
    return LtiLaunch(message_launch)
