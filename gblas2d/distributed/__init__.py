"""The 2D layer: what moves where between ranks.

``vector`` and ``matrix`` are the layer's own objects (``DistVector``, ``DistMatrix``): what a
distributed Vector or Matrix holds on a rank, with the agreed nvals, the one write, the
assign, element-wise ops and reductions; the surface's Vector and Matrix each hold one and
import nothing from the local layer. ``indexing`` reads and assigns regions of a matrix's blocks,
``shape`` resizes and spreads them, ``parts`` folds or compares a rank's part wherever it lies.
``grid`` answers every ownership question by arithmetic (pieces,
blocks, segments, owners) and draws the agreed boundary of a public call (``collective``); ``comm``
makes and measures every collective; ``exchange`` moves vector segments along grid rows and columns;
``redistribute`` sends entries to their owners; ``products`` computes mxv, vxm and mxm as expand,
local product and fold; ``tracing`` records every call and product of each rank per iteration
(``gb.trace_all``) and gathers them when asked; ``caller`` finds who made a call and with what (the
user's line, the public function called, its arguments described alike on every rank), for
``gb.Recorder`` and the checked mode.

It imports the local layer (``gblas2d.local``: blocks, pieces, the kernel plan), the algebra
and the exceptions; never the surface above it.
"""
