"""Text measuring shared by layout and render: the shipped fonts and their metrics, inline markup, wrapping
and shrink-to-fit. Layout uses it to set text into faces; render uses it to set rulebook paragraphs; neither
reaches into the other."""
