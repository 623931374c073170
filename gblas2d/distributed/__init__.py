"""The 2D layer: what moves where between ranks.

``grid`` answers every ownership question by arithmetic (pieces, blocks, segments, owners) and
draws the agreed boundary of a public call (``collective``); ``comm`` makes and measures every
collective; ``exchange`` moves vector segments along grid rows and columns; ``redistribute``
sends entries to their owners; ``products`` computes mxv, vxm and mxm as expand, local
product and fold.

It imports the local layer (``gblas2d.local``: blocks, pieces, the kernel plan), the algebra
and the exceptions; never the surface above it.
"""
