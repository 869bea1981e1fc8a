"""TLS and the bearer token of ``atout serve``: read and checked once at start.

``--tls-cert``/``--tls-key`` (PEM) serve gRPC and the HTTP API over TLS; ``--tls-client-ca``
also requires a client certificate signed by that CA (mutual TLS).  ``--token-file`` holds
the token every call must carry as ``authorization: Bearer <token>``.  Files that cannot be
read, or that TLS cannot use, are a :class:`SecurityError` at start (exit status 2), never a
failed handshake later.
"""

from __future__ import annotations

import hmac
import ipaddress
import ssl
from dataclasses import dataclass


class SecurityError(Exception):
    """A TLS or token file that cannot be used: the message says which and why."""


@dataclass(frozen=True)
class Tls:
    cert: bytes                    # PEM certificate chain
    key: bytes                     # PEM private key
    client_ca: bytes | None        # PEM: require client certificates signed by it
    cert_path: str
    key_path: str
    client_ca_path: str | None

    def grpc_credentials(self):
        import grpc
        return grpc.ssl_server_credentials([(self.key, self.cert)],
                                           root_certificates=self.client_ca,
                                           require_client_auth=self.client_ca is not None)

    def uvicorn_options(self) -> dict:
        options = {"ssl_certfile": self.cert_path, "ssl_keyfile": self.key_path}
        if self.client_ca_path is not None:
            options.update(ssl_ca_certs=self.client_ca_path, ssl_cert_reqs=ssl.CERT_REQUIRED)
        return options


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise SecurityError(f"cannot read {what} {path}: {e.strerror}") from None


def load_tls(cert: str | None, key: str | None, client_ca: str | None) -> Tls | None:
    """The TLS settings of the three options (None: plain text), checked by loading them."""
    if cert is None and key is None:
        if client_ca is not None:
            raise SecurityError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if cert is None or key is None:
        raise SecurityError("--tls-cert and --tls-key go together")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert_pem, key_pem = _read(cert, "certificate"), _read(key, "key")
    try:
        context.load_cert_chain(cert, key)
    except (ssl.SSLError, ValueError) as e:
        raise SecurityError(f"--tls-cert {cert} / --tls-key {key}: not a PEM certificate "
                            f"and its key ({e})") from None
    ca_pem = None
    if client_ca is not None:
        ca_pem = _read(client_ca, "client CA")
        try:
            context.load_verify_locations(client_ca)
        except (ssl.SSLError, ValueError) as e:
            raise SecurityError(f"--tls-client-ca {client_ca}: not PEM certificates ({e})") from None
    return Tls(cert_pem, key_pem, ca_pem, cert, key, client_ca)


def load_token(path: str | None) -> bytes | None:
    """The token of a token file: its text without the line end; printable ASCII, no spaces
    (it travels in an HTTP header and gRPC metadata)."""
    if path is None:
        return None
    token = _read(path, "token file").strip()
    if not token:
        raise SecurityError(f"token file {path} is empty")
    if not all(0x21 <= b <= 0x7e for b in token):
        raise SecurityError(f"token file {path}: the token must be printable ASCII "
                            f"without spaces")
    return token


def bearer_ok(sent: bytes, token: bytes) -> bool:
    """Whether ``sent`` (an ``authorization`` value) is ``Bearer <token>``: the scheme in any
    case (RFC 7235 section 2.1), the token compared in constant time."""
    scheme, _, credentials = sent.partition(b" ")
    return scheme.lower() == b"bearer" and hmac.compare_digest(credentials, token)


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False      # a name: it may resolve to anything


def exposure_warnings(hosts, tls: Tls | None, token: bytes | None) -> list[str]:
    """What to warn of when serving beyond this computer without TLS or a token."""
    beyond = [h for h in hosts if h is not None and not is_loopback(h)]
    if not beyond:
        return []
    where = ", ".join(sorted(set(beyond)))
    warnings = []
    if tls is None:
        warnings.append(f"serving on {where} without TLS: positions, results and any token "
                        f"cross the network in clear (--tls-cert/--tls-key)")
    if token is None:
        warnings.append(f"serving on {where} without a token: anyone who reaches the port can "
                        f"start searches (--token-file)")
    return warnings
