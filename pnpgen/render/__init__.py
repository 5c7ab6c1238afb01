"""The only package that imports reportlab for drawing: fonts, faces and sheets to PDF."""

# The colours of pnpgen's own pages (the rulebook's look, the print-and-build page): text, headings and rules,
# quiet notes. Here, not in `flowables`, so that a page drawn without platypus never imports it.
INK = "#1f1d1a"
ACCENT = "#7a3b1d"
MUTED = "#6b645a"
