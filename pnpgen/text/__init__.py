"""Text measuring shared by layout and render: the shipped fonts and their metrics, inline markup, wrapping
and shrink-to-fit. Layout uses it to set text into faces; render uses it to set rulebook paragraphs; neither
reaches into the other."""

TEXT_WARN_PT = 7.0  # pt: the smallest text a print shop recommends; under it, a warning at the element
TEXT_ERROR_PT = 6.0  # pt: under it, an error (the build fails) unless the element says `small_text: allowed`
