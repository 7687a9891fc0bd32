"""Which repos this replica indexes (DESIGN.md decision 9).

Replicas of a StatefulSet own disjoint sets of repos: repo ``name`` belongs to replica
``int(sha256(name)) mod replicas``. Every replica still answers queries, because queries go to
the shared store. The hash is SHA-256 of the UTF-8 name, not Python's ``hash()``, which is
salted per process (``PYTHONHASHSEED``) and so would differ between replicas and restarts.

The ordinal is ``cluster.ordinal``; ``-1`` derives it from the host name's trailing ``-N``
(a StatefulSet pod ``coderecall-2`` has host name ``coderecall-2``), else ``0``.
"""

from __future__ import annotations

import hashlib
import re
import socket
from dataclasses import dataclass

from coderecalld.errors import ConfigError

_ORDINAL_SUFFIX = re.compile(r"-(\d+)$")


def shard_of(repo_name: str, replicas: int) -> int:
    """The replica ordinal in ``[0, replicas)`` that owns ``repo_name``:
    ``int.from_bytes(sha256(name.encode()).digest(), "big") % replicas``.

    Raises:
        ValueError: ``replicas`` < 1.
    """
    if replicas < 1:
        raise ValueError(f"replicas must be >= 1, got {replicas}")
    digest = hashlib.sha256(repo_name.encode("utf-8")).digest()
    return int.from_bytes(digest, "big") % replicas


def owns(repo_name: str, replicas: int, ordinal: int) -> bool:
    """Whether replica ``ordinal`` of ``replicas`` indexes ``repo_name`` (see ``shard_of``)."""
    return shard_of(repo_name, replicas) == ordinal


def ordinal_from_hostname(hostname: str) -> int:
    """The StatefulSet ordinal in a host name: ``coderecall-2`` -> 2,
    ``coderecall-2.coderecall-headless.ns.svc`` -> 2; ``0`` when there is none (``foo``)."""
    match = _ORDINAL_SUFFIX.search(hostname.split(".", 1)[0])
    return int(match.group(1)) if match else 0


@dataclass(frozen=True, slots=True)
class Shard:
    """This replica's place in the cluster: ``ordinal`` in ``[0, replicas)``."""

    replicas: int
    ordinal: int

    @classmethod
    def resolve(cls, replicas: int, ordinal: int, hostname: str | None = None) -> Shard:
        """The shard for ``cluster.replicas``/``cluster.ordinal``; ordinal ``-1`` is read from
        ``hostname`` (default ``socket.gethostname()``).

        Raises:
            ConfigError: the resulting ordinal is not below ``replicas`` (the message names
                ``cluster.ordinal`` and, when derived, the host name).
        """
        if ordinal < 0 and replicas == 1:
            return cls(1, 0)  # one replica owns everything, whatever the host is called
        if ordinal < 0:
            hostname = socket.gethostname() if hostname is None else hostname
            ordinal = ordinal_from_hostname(hostname)
            if ordinal >= replicas:
                raise ConfigError(f"cluster.ordinal: host name {hostname!r} gives ordinal {ordinal}, "
                                  f"but cluster.replicas is {replicas}")
        elif ordinal >= replicas:
            raise ConfigError(f"cluster.ordinal: must be < cluster.replicas ({replicas}), got {ordinal}")
        return cls(replicas, ordinal)

    def owns(self, repo_name: str) -> bool:
        """Whether this replica indexes ``repo_name``."""
        return owns(repo_name, self.replicas, self.ordinal)
