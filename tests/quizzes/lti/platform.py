"""A test LTI 1.3 platform: it registers Tutor, starts OIDC logins, signs id_tokens with its own
RSA key (RS256, its `kid` in the header, its keyset served at its keyset URL), checks the
tool's signed deep-linking responses and service-token assertions against the tool's published
keyset, and takes scores on its line items. Its HTTP side answers through a patched
`requests.Session.request`, the one door pylti1p3 calls platforms through."""

from __future__ import annotations

import json
import re
import time
import uuid
from contextlib import contextmanager
from unittest import mock
from urllib.parse import parse_qs, urlsplit

import jwt
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from django.urls import reverse
from jwt.algorithms import RSAAlgorithm
from lti_tool.models import LtiDeployment, LtiRegistration

LTI = "https://purl.imsglobal.org/spec/lti/claim/"
AGS = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DEEP_LINKING = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def response(url: str, status: int, body: object) -> requests.Response:
    made = requests.Response()
    made.status_code, made.url = status, url
    made._content = json.dumps(body).encode()
    made.headers["Content-Type"] = "application/json"
    return made


class Platform:
    issuer = "https://lms.example.org"
    client_id = "tutor-at-lms"
    deployment_id = "deployment-1"
    kid = "lms-key-1"
    auth_url = issuer + "/mod/lti/auth.php"
    token_url = issuer + "/mod/lti/token.php"
    keyset_url = issuer + "/mod/lti/certs.php"
    lineitems = issuer + "/mod/lti/services.php/7/lineitems"
    return_url = issuer + "/mod/lti/contentitem_return.php?course=7"

    def __init__(self, client) -> None:
        self.client = client  # the browser: Django's test client, over HTTPS
        self.key = new_key()
        self.access_token = uuid.uuid4().hex
        self.scores: list[tuple[str, dict]] = []  # (url, score) posted with a valid token
        self.token_requests: list[dict] = []
        self.refuse_scores = False  # the gradebook answers 500
        self.registration = LtiRegistration.objects.create(
            name="Test LMS",
            issuer=self.issuer,
            client_id=self.client_id,
            auth_url=self.auth_url,
            token_url=self.token_url,
            keyset_url=self.keyset_url,
        )
        LtiDeployment.objects.create(
            registration=self.registration, deployment_id=self.deployment_id, is_active=True
        )

    # the platform's HTTP side ------------------------------------------------------------

    def keyset(self) -> dict:
        public = json.loads(RSAAlgorithm.to_jwk(self.key.public_key()))
        return {"keys": [public | {"kid": self.kid, "alg": "RS256", "use": "sig"}]}

    def tool_key(self, token: str):
        """The tool's public key for `token`, from the keyset Tutor publishes."""
        keyset = self.client.get(reverse("lti_jwks"), secure=True).json()
        kid = jwt.get_unverified_header(token)["kid"]
        found = [key for key in keyset["keys"] if key["kid"] == kid]
        assert found, f"the tool signed with a key it does not publish: {kid}"
        return RSAAlgorithm.from_jwk(json.dumps(found[0]))

    def handle(self, session, method, url, *args, **kwargs) -> requests.Response:
        assert kwargs.get("timeout"), f"{method} {url} without a timeout"
        if method == "GET" and url == self.keyset_url:
            return response(url, 200, self.keyset())
        if method == "POST" and url == self.token_url:
            form = kwargs["data"]
            assertion = form["client_assertion"]
            claims = jwt.decode(
                assertion, self.tool_key(assertion), algorithms=["RS256"], audience=self.token_url
            )
            assert claims["iss"] == claims["sub"] == self.client_id
            assert form["grant_type"] == "client_credentials"
            self.token_requests.append(form)
            return response(url, 200, {"access_token": self.access_token, "expires_in": 3600})
        if method == "POST" and url.startswith(self.lineitems) and url.endswith("/scores"):
            if self.refuse_scores:
                return response(url, 500, {"error": "gradebook down"})
            headers = kwargs["headers"]
            if headers.get("Authorization") != f"Bearer {self.access_token}":
                return response(url, 401, {"error": "unauthorized"})
            assert headers["Content-Type"] == "application/vnd.ims.lis.v1.score+json"
            self.scores.append((url, json.loads(kwargs["data"])))
            return response(url, 200, {})
        return response(url, 404, {"error": f"no {method} {url}"})

    @contextmanager
    def online(self):
        def request(session, method, url, *args, **kwargs):  # a method of every Session
            return self.handle(session, method, url, *args, **kwargs)

        with mock.patch.object(requests.Session, "request", new=request):
            yield self

    # the browser's side: OIDC login, then the signed launch --------------------------------

    def login(self, login_hint: str = "hint-1") -> tuple[str, str]:
        """Third-party login initiation; the state and nonce Tutor sends to the auth URL."""
        answer = self.client.post(
            reverse("lti_login"),
            {
                "iss": self.issuer,
                "login_hint": login_hint,
                "target_link_uri": "https://testserver/lti/launch/",
                "client_id": self.client_id,
                "lti_deployment_id": self.deployment_id,
            },
            secure=True,
        )
        assert answer.status_code == 302, answer.content
        location = urlsplit(answer["Location"])
        assert f"{location.scheme}://{location.netloc}{location.path}" == self.auth_url
        query = {name: values[0] for name, values in parse_qs(location.query).items()}
        assert query["redirect_uri"] == "https://testserver/lti/launch/"
        assert query["client_id"] == self.client_id and query["login_hint"] == login_hint
        assert query["scope"] == "openid" and query["response_type"] == "id_token"
        return query["state"], query["nonce"]

    def claims(self, nonce: str, sub: str, roles: list[str], **more) -> dict:
        now = int(time.time())
        return {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": sub,
            "iat": now,
            "exp": now + 300,
            "nonce": nonce,
            "given_name": "Ada",
            "family_name": "Lovelace",
            "email": "ada@example.org",
            LTI + "version": "1.3.0",
            LTI + "deployment_id": self.deployment_id,
            LTI + "roles": roles,
            LTI + "context": {"id": "course-7", "label": "JUDGE1", "title": "Judge course"},
            LTI + "target_link_uri": "https://testserver/lti/launch/",
        } | more

    def sign(self, claims: dict, key=None, kid: str | None = None) -> str:
        return jwt.encode(
            claims, key or self.key, algorithm="RS256", headers={"kid": kid or self.kid}
        )

    def post_launch(self, id_token: str, state: str):
        return self.client.post(
            reverse("lti_launch"), {"id_token": id_token, "state": state}, secure=True
        )

    def launch(self, sub: str, roles: list[str], key=None, **claims):
        state, nonce = self.login()
        token = self.sign(self.claims(nonce, sub, roles, **claims), key=key)
        return self.post_launch(token, state)

    def deep_linking_request(self, sub: str):
        return self.launch(
            sub,
            [INSTRUCTOR],
            **{
                LTI + "message_type": "LtiDeepLinkingRequest",
                DEEP_LINKING: {
                    "deep_link_return_url": self.return_url,
                    "accept_types": ["ltiResourceLink"],
                    "accept_presentation_document_targets": ["iframe", "window"],
                    "data": "opaque-123",
                },
            },
        )

    def resource_launch(self, sub: str, roles: list[str], item: dict, **claims):
        """A launch of a resource link made from a deep-linking content item."""
        lineitem = f"{self.lineitems}/3/lineitem"
        return self.launch(
            sub,
            roles,
            **{
                LTI + "message_type": "LtiResourceLinkRequest",
                LTI + "resource_link": {"id": "link-1", "title": item["title"]},
                LTI + "custom": item.get("custom", {}),
                AGS: {
                    "scope": [SCORE_SCOPE, LINEITEM_SCOPE],
                    "lineitems": self.lineitems,
                    "lineitem": lineitem,
                },
            }
            | claims,
        )

    def read_deep_link_response(self, page: str) -> dict:
        """The signed JWT of the tool's deep-linking response form, checked as a platform does."""
        action = re.search(r'<form method="post" action="([^"]+)" data-auto-submit>', page).group(1)
        assert action.replace("&amp;", "&") == self.return_url
        token = re.search(r'name="JWT" value="([^"]+)"', page).group(1)
        claims = jwt.decode(token, self.tool_key(token), algorithms=["RS256"], audience=self.issuer)
        assert claims["iss"] == self.client_id
        assert claims[LTI + "message_type"] == "LtiDeepLinkingResponse"
        assert claims[LTI + "deployment_id"] == self.deployment_id
        assert claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"] == "opaque-123"
        return claims
