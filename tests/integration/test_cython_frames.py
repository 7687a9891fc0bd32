"""A Cython frame a Python trace prints by its source's bare name (``File "_remap.pyx",
line 7, in skimage.util._remap._map_array``) names the indexed ``.pyx`` file: it was
dropped, and locate's first file was its Python caller's (a newcomer's scikit-image
issue). Real git fixture, real embedded store, sparse side."""

from __future__ import annotations

from pathlib import Path

from coderecalld.query import shape
from conformance_cases import indexed

FILES = {
    "seg/_map_array.py": ("from seg._remap import _map_array\n\n\n"
                          "def map_array(labels, invals, outvals):\n"
                          "    out = labels.copy()\n    _map_array(labels, out, invals, outvals)\n    return out\n"),
    "seg/_remap.pyx": "def _map_array(inarr, outarr, invals, outvals):\n    pass\n",
}
TEXT = ('map_array fails on read-only arrays\n\n```\nTraceback (most recent call last):\n'
        '  File "/home/u/relabel.py", line 6, in <module>\n    relabeled = map_array(labels)\n'
        '  File "_remap.pyx", line 1, in seg._remap._map_array\n'
        '  File "<stringsource>", line 663, in View.MemoryView.memoryview_cwrapper\n'
        'ValueError: buffer source array is read-only\n```\n')


def test_a_bare_cython_frame_names_its_file(tmp_path: Path) -> None:
    asked = shape.analyze(TEXT)
    assert [(f.path, f.function) for f in asked.frames][:1] == [("_remap.pyx", "seg._remap._map_array")]
    assert "_remap.pyx" in asked.paths
    with indexed(tmp_path, FILES) as daemon:
        located = daemon.service.locate(TEXT, limit=2, repo="fx")
    assert [f.path for f in located.files] == ["seg/_remap.pyx", "seg/_map_array.py"]
    # the .pyx is code: the frame's function is listed at its lines (parse.cython)
    assert [(f.qualified_name, f.start_line, f.end_line) for f in located.files[0].functions] == [
        ("_map_array", 1, 2)]
