"""`pnpgen changes`: which cards changed between two builds, a proof of each, and a reprint of only those.

`compare.py` compares two builds' manifests face by face (a digest per printed face and where it stands) and
writes the proof rows; `command.py` is the command (it builds, compares, and imposes the reprint). The proof is
drawn by `render/proof.py`.
"""
