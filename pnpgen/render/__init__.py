"""The only package that imports reportlab: fonts, faces and sheets to PDF.

Importing it installs one import hook (`_install_lazy_uri_pattern`): ReportLab's `platypus.paragraph` compiles, at
import, a pattern that matches URLs (`uri_pat`, a few hundred characters of Unicode classes). Only paragraphs with
ReportLab's `uriWasteReduce` setting, which pnpgen never turns on, ever use it, yet compiling it took 30-40 ms of
every build that draws a paragraph (print-all's guide page, rulebooks): a tenth of a small deck's build. The hook
lets the module compile every other pattern as usual and hands it that one uncompiled, to be compiled on first use.
"""

from __future__ import annotations

import re
import sys
from importlib.machinery import ModuleSpec, PathFinder

_PARAGRAPH = "reportlab.platypus.paragraph"
_URI_HEAD = "(^(?:[a-z0-9\\.\\-\\+]*)://)"  # how ReportLab's uri_pat starts (reportlab 4.x)


class OnFirstUse:
    """A regular expression compiled when first used: any attribute (`match`, `pattern`...) compiles it."""

    __slots__ = ("_compile", "_pattern", "_flags", "_compiled")

    def __init__(self, compile, pattern: str, flags) -> None:
        self._compile, self._pattern, self._flags, self._compiled = compile, pattern, flags, None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = self._compile(self._pattern, self._flags)
        return getattr(self._compiled, name)


class _Loader:
    """The paragraph module's own loader, run with `re.compile` leaving ReportLab's URL pattern for later."""

    def __init__(self, real) -> None:
        self.real = real

    def create_module(self, spec):
        return self.real.create_module(spec)

    def exec_module(self, module) -> None:
        compile = re.compile

        def lazily(pattern, flags=0):
            if isinstance(pattern, str) and pattern.startswith(_URI_HEAD):
                return OnFirstUse(compile, pattern, flags)
            return compile(pattern, flags)

        re.compile = lazily
        try:
            self.real.exec_module(module)
        finally:
            re.compile = compile

    def __getattr__(self, name: str):  # get_source, get_filename...: tracebacks and tools read the real file
        return getattr(self.real, name)


class _Finder:
    """On the meta path until ReportLab's paragraph module is imported, for that module only."""

    @classmethod
    def find_spec(cls, name: str, path=None, target=None) -> ModuleSpec | None:
        if name != _PARAGRAPH:
            return None
        if cls in sys.meta_path:
            sys.meta_path.remove(cls)  # its one module found: off the path
        spec = PathFinder.find_spec(name, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _Loader(spec.loader)
        return spec


def _install_lazy_uri_pattern() -> None:
    if _PARAGRAPH not in sys.modules and _Finder not in sys.meta_path:
        sys.meta_path.insert(0, _Finder)  # type: ignore[arg-type]


_install_lazy_uri_pattern()
