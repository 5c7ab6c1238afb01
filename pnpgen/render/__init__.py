"""The only package that imports reportlab for drawing: fonts, faces and sheets to PDF."""
