"""``locate``'s first files do not depend on its ``limit``: it ranks a page of at least
``LOCATE_RANKED_FILES`` files and cuts it. The file-level ranking keeps a share of
``limit`` places for its own files, so seaborn's ``--limit 5`` dropped ``utils.py``, 5th
of 10, for two example scripts scoring a quarter of it (a newcomer). Real git fixture,
real embedded store."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from coderecalld.daemon import Daemon
from coderecalld.query import locate as locating
from coderecalld.query import service
from conformance_cases import indexed

FILES = {
    "shop/__init__.py": "",
    "shop/cart.py": ('def add_item_to_cart(cart, item):\n    """Add an item to the shopping cart and '
                     'update the cart total."""\n    cart.items.append(item)\n    cart.total += item.price\n'),
    "shop/pricing.py": 'def cart_total(cart):\n    """Total price of the cart."""\n    return sum(i.price for i in cart.items)\n',
    "shop/tax.py": 'def tax_for_cart(cart, rate):\n    """Tax of a cart at a rate."""\n    return rate * sum(i.price for i in cart.items)\n',
    "shop/orders.py": 'def order_from_cart(cart):\n    """Turn a cart into an order with its items."""\n    return list(cart.items)\n',
    "shop/stock.py": 'def reserve_item(item):\n    """Reserve an item in stock for a cart."""\n    return item\n',
    "shop/views.py": 'def show_cart(request):\n    """Render the cart page."""\n    return request\n',
}


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    with indexed(tmp_path_factory.mktemp("limit"), FILES) as running:
        yield running


@pytest.mark.parametrize("query", ["how is an item added to the shopping cart total",
                                   "where is the cart total of items computed"])
def test_a_smaller_limit_answers_the_first_files(daemon: Daemon, query: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    ranked = locating.files

    def spy(hits, limit, **kw):  # noqa: ANN001, ANN003, ANN202
        asked.append(limit)
        return ranked(hits, limit, **kw)

    monkeypatch.setattr(locating, "files", spy)
    ten = [(f.path, f.score) for f in daemon.service.locate(query, limit=10, repo="fx").files]
    for k in (1, 3, 5):
        assert [(f.path, f.score) for f in daemon.service.locate(query, limit=k, repo="fx").files] == ten[:k]
    # every answer was ranked as a page of ten
    assert set(asked) == {service.LOCATE_RANKED_FILES}
