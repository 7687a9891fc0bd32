"""Vector stores: the ``Store`` interface and its embedded Qdrant Edge adapter.

``base`` holds the interface and the records it needs; ``edge`` the in-process adapter;
``server`` the Qdrant server / cluster adapter (with ``remote``, its connection), imported
from ``coderecalld.store.server`` only when configured: qdrant-client takes ~2 s to import.
"""

from coderecalld.store.base import Store, StoreFilter, StoreIdentity
from coderecalld.store.edge import EdgeStore

__all__ = ["EdgeStore", "Store", "StoreFilter", "StoreIdentity"]
