"""Every text pnpgen opens is read by one bounded reader (`textfiles.read_bounded`, `textfiles.decoded`): a build's
`Reader`, `source.load_file` (pnpgen's own files, printers.yaml) and the editor's `textfile.read` refuse the same
things with the same words: a file over the size bound, a folder, bytes that are not UTF-8 (at their line and
column), a missing file."""

from __future__ import annotations

import pytest

from pnpgen.errors import ContentError, display_path
from pnpgen.inputs import Reader
from pnpgen.textfiles import MAX_BYTES


def by_reader(path):
    return Reader([path.parent], path.parent).read_text(path, "file")


def by_source(path):
    from pnpgen.source import load_file

    return load_file(path, display_path(path))


def by_editor(path):
    from pnpgen.edit.textfile import read

    return read(path)


READERS = {"reader": by_reader, "source": by_source, "editor": by_editor}


def problem(read, path) -> str:
    with pytest.raises(ContentError) as exc:
        read(path)
    (d,) = exc.value.diagnostics.items
    return f"{d.location}: {d.message}"


@pytest.mark.parametrize("how", READERS)
def test_too_big(tmp_path, how):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"a: 1\n" + b"#" * MAX_BYTES)
    said = problem(READERS[how], path)
    assert f"is {MAX_BYTES + 5:,} bytes; the limit is {MAX_BYTES:,}" in said


@pytest.mark.parametrize("how", READERS)
def test_not_utf8_at_its_line_and_column(tmp_path, how):
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"a: 1\nname: Caf\xe9\n")
    said = problem(READERS[how], path)
    assert said.endswith(":2:10: file is not UTF-8 text (byte 0xe9, 'é' in Windows-1252)"), said


@pytest.mark.parametrize("how", READERS)
def test_a_folder_is_refused_unread(tmp_path, how):
    path = tmp_path / "folder.yaml"
    path.mkdir()
    assert "is a folder, not a regular file; refused" in problem(READERS[how], path)


@pytest.mark.parametrize("how", READERS)
def test_missing(tmp_path, how):
    assert problem(READERS[how], tmp_path / "none.yaml").endswith("not found")


@pytest.mark.parametrize("how", READERS)
def test_good_text_is_read_alike(tmp_path, how):
    path = tmp_path / "ok.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\r\n")
    got = READERS[how](path)
    assert (getattr(got, "plain", None) or got) in ("a: 1\n", {"a": 1})
