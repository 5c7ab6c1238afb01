"""The only package that imports reportlab: fonts, faces and sheets to PDF."""
