"""``locate``'s same-file callees (``Service._callees``) end to end on a real index: a call
on another object is never matched by its last name to a method of the file (requests'
``DEFAULT_PORTS.get(`` listed ``Session.get`` as ``should_strip_auth``'s helper); a call
resolved at index time names the definition with that module-qualified name; a bare call
or one on the caller's own object is matched by name."""

from __future__ import annotations

from pathlib import Path

from coderecalld.store import StoreFilter
from conformance_cases import indexed

SESSIONS = '''\
DEFAULT_PORTS = {"http": 80, "https": 443}


def should_strip_auth(old_url, new_url):
    """Whether the Authorization header goes when a redirect leaves the host."""
    port = DEFAULT_PORTS.get(old_url.scheme, None)
    return _changed_host(old_url, new_url) or port is None


def _changed_host(old_url, new_url):
    return old_url.hostname != new_url.hostname


class Session:
    def get(self, url):
        return self.request("GET", url)

    def request(self, method, url):
        return self._prepare(method, url)

    def _prepare(self, method, url):
        return (method, url)

    def send(self, request, **kwargs):
        stream = kwargs.get("stream")
        return self._prepare(request.method, request.url), stream
'''


def test_same_file_callees_follow_resolved_and_own_calls_only(tmp_path: Path) -> None:
    with indexed(tmp_path, {"pkg/sessions.py": SESSIONS}) as d:
        callees = d.service._callees(StoreFilter(repos=("fx",)), "fx", "pkg/sessions.py",
                                     ["should_strip_auth", "Session.send", "Session.get"])
        located = d.service.locate("should the session strip auth for a redirect url", limit=1, repo="fx")
    names = {own: [c[0] for c in row] for own, row in callees.items()}
    # DEFAULT_PORTS.get( and kwargs.get( are calls on other objects: never Session.get
    assert names["should_strip_auth"] == ["_changed_host"]
    assert names["Session.send"] == ["Session._prepare"]
    assert names["Session.get"] == ["Session.request"]
    start = SESSIONS.splitlines().index("def _changed_host(old_url, new_url):") + 1
    assert callees["should_strip_auth"][0][1:] == (start, start + 1)
    # in an answer: the first function, then its helper, never the unrelated Session.get
    listed = [f.qualified_name for f in located.files[0].functions]
    assert listed[:2] == ["should_strip_auth", "_changed_host"]


PROPERTY = '''\
class C:
    @property
    def x(self):
        return self._helper()

    @x.setter
    def x(self, value):
        self._other(value)

    def _helper(self):
        return 1

    def _other(self, value):
        return value
'''


def test_calls_of_chunks_sharing_a_name_add_up(tmp_path: Path) -> None:
    # a property's getter and setter are two chunks of one qualified name
    with indexed(tmp_path, {"pkg/c.py": PROPERTY}) as d:
        callees = d.service._callees(StoreFilter(repos=("fx",)), "fx", "pkg/c.py", ["C.x"])
    assert sorted(c[0] for c in callees["C.x"]) == ["C._helper", "C._other"]


WALK_RS = '''\
macro_rules! itry {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(err) => return Some(Err(From::from(err))),
        }
    };
}

pub struct IntoIter;

impl IntoIter {
    fn handle_entry(&mut self, dent: u8) -> Option<Result<u8, u8>> {
        itry!(self.push(dent));
        None
    }

    fn push(&mut self, dent: u8) -> Result<u8, u8> {
        let depth = dent + 1;
        let limit = depth * 2;
        Ok(limit)
    }
}
'''


def test_a_rust_macro_is_no_callee_and_a_call_in_its_tokens_is(tmp_path: Path) -> None:
    """walkdir: ``itry!`` (a ``macro_rules!``) was listed after the first function of 4 of 5
    traces; ``self.push(..)`` inside it is the call the function makes."""
    with indexed(tmp_path, {"src/lib.rs": WALK_RS}) as d:
        callees = d.service._callees(StoreFilter(repos=("fx",)), "fx", "src/lib.rs", ["IntoIter::handle_entry"])
    assert [c[0] for c in callees["IntoIter::handle_entry"]] == ["IntoIter::push"]
