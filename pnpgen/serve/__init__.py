"""`pnpgen serve`: a live page of every face the build prints, updated on every save.

`command.py` is the command (a `watch` whose builds feed the page, and `Sketcher`: the cards a save changed,
drawn before the build); `preview.py` holds the page's state, the faces cut from the built PDFs and the HTTP
handler; the page itself is `pnpgen/data/serve.html`.
"""
