"""Files for print shops and factories: the sizes they sell, CMYK and PDF/X, preflight, exports, spec sheets.

- `sizes`: the card sizes each shop sells, matching a component's size, the nearest one when none matches.
- `targets`: what each target (tgc, dtc, pdfx, factory) asks: bleed, ink limit, minimum text, colour.
"""
