"""What NetworkX learns about the gblas2d backend when it starts (``networkx.backend_info``).

A top-level module of its own, so that ``import networkx`` reads it without importing gblas2d;
the backend itself (the package ``gblas2d.nx``) loads at the first call dispatched to it. It
holds plain data and imports nothing but ``textwrap``.

NetworkX appends each function's note (``additional_docs``) to the function's docstring, under
"Backends": ``help(nx.pagerank)`` shows it. A note says three things: how gblas2d computes the
function, what ``can_run`` declines (``gblas2d/nx/checks.py``; NetworkX then runs its own, or
raises NotImplementedError where ``backend="gblas2d"`` was given), and how the result compares
with NetworkX's. Every function dispatched (``gblas2d.nx.BackendInterface``) has a note, and no
other name does; ``tests/nx/test_nx_info.py`` checks both.
"""

import textwrap

# shared wordings, named by what they describe
LEVELS = ("BFS levels by masked vxm over any_pair (bfs_levels: q<!v> = q any.pair A, one a "
          "level, push or pull chosen per level).")
LEVELS_REVERSED = ("BFS levels along the reversed edges (bfs_levels of A^T: q<!v> = q any.pair "
                   "A^T, one a level).")
BATCHED = "BFS levels L from every node, 256 sources a product (an n x 256 frontier a level)"
ALL_PAIRS = "all pairs, 256 sources a product (an n x 256 frontier a level)"
ORDERED = ("A breadth-first search in NetworkX's order, one product a layer: k<!seen> = q "
           "min.plus O (q: each node's place in the layer times n; O: each neighbour's place "
           "in the node's list), the next layer sorted by k.")
PATHS = ("The breadth-first search in NetworkX's order (one min.plus product a layer, as "
         "bfs_edges), each node's path its first parent's, one node longer.")
FASTSV = ("FastSV connected components (hooking onto smaller labels over min.second, then "
          "pointer jumping) on the pattern of A")
FASTSV_WEAK = "FastSV connected components on the pattern of A + A^T"
SCC = ("Strongly connected components by trimming and colouring (min-label propagation along "
       "the out-edges, then one backward BFS from every root at once)")
LINK = "One product masked by the pairs M asked for (algorithms.link_prediction), {}."
CUT = ("The indicators s, t of S and T (T=None: the complement of S) and one masked product "
       "each: x'Ay = (A plus.first y)<x> summed")
PEELING = ("Core numbers by peeling (d -= S plus.first p for the nodes p peeled at level k), "
           "then G's subgraph of the nodes {}, attributes kept.")
GENERATED = ("Made as a gblas2d matrix on the grid from index arrays: each rank passes its "
             "share of the edges to a distributed from_coo; no NetworkX graph is built until "
             "one is asked for.")

BFS_ARGUMENTS = ("a depth_limit that is not a number or None",
                 "a sort_neighbors that is not callable")
NOT_WEIGHTED = ("a weight",)
NOT_DISTANCES = ("a weight", "given eccentricities (e)")
WEIGHTS = ("non-numeric weights",)
SAMPLED = ("a weight", "a k that is not an integer in [1, n]")

SAME = "NetworkX's answer."
SAME_SET = "NetworkX's set."
SAME_GRAPH = "NetworkX's graph: nodes, edges and attributes in its order."
AT_CALL = "computed at the call, not as it is consumed"
IN_ORDER = f"NetworkX's answer in its order, {AT_CALL}; a missing source raises at the call."
G_ORDER = ("NetworkX's lengths; the dict is in G's node order (NetworkX's: the order its search "
           "reaches the nodes).")
ROUNDED = "Equal to NetworkX's to rounding (the sums run in another order)."
COMPONENTS = f"NetworkX's sets in its order (by each component's first node in G), {AT_CALL}."
SAMPLE = ("Equal to NetworkX's to rounding; with k, the sources are NetworkX's own "
          "seed.sample(list(G), k) (rank 0's sample under mpiexec).")
SAME_NODES = "NetworkX's nodes, in G's order; usebounds is accepted and gives the same answer."
PAIRS = (f"ebunch=None scores every non-edge in nx.non_edges' order (rank 0's under mpiexec); "
         f"{AT_CALL}.")
SCORES = "Scores equal to NetworkX's to rounding; " + PAIRS

# The functions that take a graph: (how, what can_run declines besides multigraphs, result).
NOTES = {
    # traversal
    "ancestors": (LEVELS_REVERSED + " The nodes at a level above 0.", (), SAME_SET),
    "bfs_edges": (ORDERED, BFS_ARGUMENTS, IN_ORDER),
    "bfs_layers": (ORDERED, (), IN_ORDER + " Under mpiexec the first layer, "
                   "list(set(sources)), has rank 0's order."),
    "bfs_predecessors": (ORDERED, BFS_ARGUMENTS, IN_ORDER),
    "bfs_successors": (ORDERED, BFS_ARGUMENTS, IN_ORDER),
    "bfs_tree": (ORDERED, BFS_ARGUMENTS, "NetworkX's DiGraph, nodes and edges in its order; a "
                 "missing source raises NetworkXError."),
    "descendants": (LEVELS + " The nodes at a level above 0.", (), SAME_SET),
    "descendants_at_distance": (LEVELS + " The nodes v<v == distance>.", (), SAME_SET),

    # shortest paths
    "all_pairs_shortest_path_length": (
        BATCHED + "; cutoff keeps the levels up to it.", (),
        f"NetworkX's lengths, {AT_CALL}; each inner dict in G's node order (NetworkX's: the "
        "order its search reaches the nodes)."),
    "has_path": (LEVELS + " Whether target has a level (the whole search runs).", (), SAME),
    "shortest_path_length": (
        "Unweighted: BFS levels from source (along A) or to target (along A^T); with neither, "
        + ALL_PAIRS + ".", NOT_WEIGHTED,
        "NetworkX's lengths; a dict is in G's node order (NetworkX's: the order its search "
        "reaches the nodes); all pairs are computed at the call."),
    "single_source_bellman_ford_path_length": (
        "Bellman-Ford over min.plus, relaxing only from the nodes whose distance dropped: "
        "t = q min.plus A; q<t < d> = t; d<q> = q.",
        ("a weight that is not an attribute name (a function, or None)",) + WEIGHTS,
        "Distances equal to NetworkX's to rounding, in G's node order (NetworkX's: the order "
        "it settles them); a negative cycle raises NetworkXUnbounded."),
    "single_source_dijkstra_path_length": (
        "Delta-stepping over min.plus: buckets as wide as the mean weight, light edges relaxed "
        "until the bucket settles, heavy edges once.",
        ("a weight that is not an attribute name (a function, or None)",) + WEIGHTS,
        "Distances equal to NetworkX's to rounding, in G's node order (NetworkX's: the order "
        "it settles them); negative weights raise ValueError, as NetworkX."),
    "single_source_shortest_path_length": (LEVELS, (), G_ORDER),
    "single_target_shortest_path_length": (LEVELS_REVERSED, (), G_ORDER),

    # paths
    "all_pairs_shortest_path": (PATHS + " One search a source.", (),
                                f"NetworkX's paths in its order, {AT_CALL}."),
    "bidirectional_shortest_path": (
        "BFS levels (masked vxm over any_pair) for the length, then the single-source paths "
        "in NetworkX's order up to that level.", (),
        "A shortest path, NetworkX's single-source one: where several are shortest it may "
        "differ from the one NetworkX's search from both ends finds."),
    "predecessor": (
        "The breadth-first search in NetworkX's order, then every parent one level up in one "
        "product: P = (Y - X)<Y - X == 1>, X = diag(a) plus.first A, Y = A plus.second "
        "diag(a), a = level + 1.", (), "NetworkX's lists, in its order."),
    "single_source_shortest_path": (PATHS, (), "NetworkX's paths, in its order."),
    "single_target_shortest_path": (PATHS + " The search runs along the reversed edges.", (),
                                    "NetworkX's paths, in its order."),

    # distance measures
    "average_shortest_path_length": (
        BATCHED + ": the sum of L plus.reduce rowwise, over n (n - 1).", NOT_WEIGHTED,
        "NetworkX's value and errors."),
    "barycenter": (BATCHED + ": the nodes of the least L plus.reduce rowwise.",
                   ("a weight", "attr (it writes into G)", "given distances (sp)"),
                   "NetworkX's nodes, in its order."),
    "center": (BATCHED + ": the eccentricities L max.reduce rowwise, the nodes of the least.",
               NOT_DISTANCES, SAME_NODES),
    "diameter": (BATCHED + ": the largest of L max.reduce rowwise.", NOT_DISTANCES,
                 "NetworkX's value; usebounds is accepted and gives the same answer."),
    "eccentricity": (BATCHED + ": L max.reduce rowwise; L plus.pair 1 counts the nodes each "
                     "search reaches.", ("a weight", "given distances (sp)"),
                     "NetworkX's values and errors."),
    "efficiency": ("BFS levels from u: 1 / the level of v (0 where v is not reached).", (),
                   SAME),
    "global_efficiency": (BATCHED + ": offdiag(L) minv summed, over n (n - 1).", (), ROUNDED),
    "local_efficiency": (
        "For each node v, batched BFS in the subgraph of its neighbours, D A D with "
        "D = diag(e_v any.pair A); their global efficiencies averaged.", (), ROUNDED),
    "periphery": (BATCHED + ": the eccentricities L max.reduce rowwise, the nodes of the "
                  "largest.", NOT_DISTANCES, SAME_NODES),
    "radius": (BATCHED + ": the least of L max.reduce rowwise.", NOT_DISTANCES,
               "NetworkX's value; usebounds is accepted and gives the same answer."),
    "wiener_index": (BATCHED + ": the sum of L plus.reduce rowwise (halved for a Graph).",
                     NOT_WEIGHTED, "NetworkX's value (inf where G is not connected)."),

    # components
    "connected_components": (FASTSV + ".", (), COMPONENTS),
    "is_connected": (FASTSV + ": whether every label is 0.", (), SAME),
    "is_semiconnected": (
        SCC + "; then the longest path in the condensation offdiag(L^T A L), by peeling its "
        "sinks (one masked mxv a step), must pass every component.", (), SAME),
    "is_strongly_connected": (SCC + ": whether every label is 0.", (), SAME),
    "is_weakly_connected": (FASTSV_WEAK + ": whether every label is 0.", (), SAME),
    "node_connected_component": (LEVELS + " The nodes reached.", (), SAME_SET),
    "number_connected_components": (FASTSV + ", counted.", (), SAME),
    "number_strongly_connected_components": (SCC + ", counted.", (), SAME),
    "number_weakly_connected_components": (FASTSV_WEAK + ", counted.", (), SAME),
    "strongly_connected_components": (
        SCC + "; sinks first, by peeling the condensation offdiag(L^T A L).", (),
        "NetworkX's components, each after every one it reaches, as in NetworkX's (Tarjan's) "
        "order, though components that do not reach each other may come in another order; "
        f"{AT_CALL}."),
    "weakly_connected_components": (FASTSV_WEAK + ".", (), COMPONENTS),

    # link analysis
    "hits": ("Power iteration: a = h plus.times A, h = A plus.times a, each scaled by its "
             "largest entry, until the change is below tol.",
             ("a graph without edges", "weights that are not positive numbers"),
             "NetworkX takes the singular vectors from ARPACK: the same answer where the top "
             "singular value is simple, agreeing to about tol, not to the last digit."),
    "pagerank": ("Power iteration, LDBC Graphalytics' form: r' = (1-d)/n + d/n sum(r<D>) + "
                 "(r ./ (d_out/d)) plus.first A, D the dangling nodes; with unequal weights, "
                 "plus.times A and the rank split by each node's out-weight.",
                 ("personalization, nstart or dangling", "an alpha outside [0, 1)",
                  "a max_iter that is not a positive integer",
                  "weights that are not positive numbers"),
                 "Stops as NetworkX, at an L1 change below n*tol: each value is within "
                 "n*tol of NetworkX's, not equal to the last digit."),

    # link prediction
    "adamic_adar_index": (LINK.format("S<M> = E plus.times diag(1 / log deg) E"), (), SCORES),
    "jaccard_coefficient": (LINK.format("C<M> = E plus.pair E over the union of the "
                                        "neighbourhoods"), (), SCORES),
    "preferential_attachment": (LINK.format("diag(deg) plus.first M .* M plus.second "
                                            "diag(deg)"), (),
                                "NetworkX's scores, as floats; " + PAIRS),
    "resource_allocation_index": (LINK.format("S<M> = E plus.times diag(1 / deg) E"), (),
                                  SCORES),

    # centrality
    "betweenness_centrality": (
        "Brandes' algorithm, a batch of sources at once: path counts forward, F<!P> = A^T "
        "plus.second F a level; dependencies backward, one masked product a level.",
        ("a weight", "endpoints=True", "a k that is not an integer in [1, n]"), SAMPLE),
    "closeness_centrality": (
        "Batched BFS levels L along the reversed edges (256 sources a product): L plus.reduce "
        "rowwise and L plus.pair 1 give each node's distance sum and reach.", ("a distance",),
        "NetworkX's values: the same divisions of the same integers."),
    "degree_centrality": ("d = A plus.pair 1, plus 1 plus.pair A for a DiGraph or the self "
                          "loops again for a Graph, over n - 1.", (), SAME),
    "edge_betweenness_centrality": (
        "Brandes' algorithm as betweenness_centrality; the walk back adds one masked product a "
        "level for the edges.", SAMPLED, SAMPLE),
    "eigenvector_centrality": (
        "NetworkX's power iteration with A + I: x' = x + x plus.times A, scaled to unit "
        "2-norm, until the L1 change is below n*tol.", WEIGHTS,
        "Equal to NetworkX's to rounding."),
    "eigenvector_centrality_numpy": (
        "The power iteration of eigenvector_centrality run to 1e-13 per node, in place of "
        "ARPACK (whose max_iter and tol do not apply).",
        WEIGHTS + ("a graph on which it does not converge in 2000 steps (found at the call: "
                   "NetworkX's ARPACK then runs)",),
        "Close to NetworkX's (within 1e-9 in the tests), not equal to the last digit; a graph "
        "not (strongly) connected raises AmbiguousSolution, as NetworkX."),
    "harmonic_centrality": (
        "Batched BFS levels L along the reversed edges from nbunch: h = (offdiag(L) minv) "
        "plus.times s, s the indicator of sources.", ("a distance",), ROUNDED),
    "in_degree_centrality": ("d = 1 plus.pair A, over n - 1.", (), SAME),
    "katz_centrality": (
        "NetworkX's iteration: x' = alpha (x plus.times A) + beta until the L1 change is below "
        "n*tol, then scaled to unit 2-norm.", WEIGHTS, "Equal to NetworkX's to rounding."),
    "katz_centrality_numpy": (
        "The series of katz_centrality run to 1e-13 per node, in place of NetworkX's dense "
        "solve.",
        WEIGHTS + ("an alpha for which the series does not converge in 2000 steps, near or "
                   "above 1 / spectral radius (found at the call: NetworkX's solve then "
                   "runs)",),
        "Close to NetworkX's (within 1e-9 in the tests), not equal to the last digit."),
    "out_degree_centrality": ("d = A plus.pair 1, over n - 1.", (), SAME),

    # clustering
    "average_clustering": (
        "The coefficients of clustering (T<S> = S plus.pair E), summed in NetworkX's order.",
        NOT_WEIGHTED, SAME),
    "clustering": (
        "A Graph: e / (d (d - 1)), e the row sums of T<S> = S plus.pair E (twice the "
        "triangles), E = offdiag(pattern(A)), S = E + E^T, d = S plus.pair 1. A DiGraph: "
        "Fagiolo's, from diag(S^3) as ((S plus.times S)<S> .* S) summed by rows.",
        NOT_WEIGHTED,
        "NetworkX's values: the same divisions of the same integers, and its int 0 where no "
        "triangle closes."),
    "generalized_degree": ("T<B> = B plus.pair B, B = offdiag(A): the triangles on each edge, "
                           "counted per node.", (), SAME),
    "square_clustering": (
        "The common neighbours of every pair two hops apart in one product, P = offdiag(E "
        "plus.pair E), then squares and their potential per node (memory grows with the "
        "squared hub degrees).", ("a DiGraph",),
        "NetworkX's values: the same divisions of the same integers."),
    "transitivity": (
        "A Graph: 6 triangle_count(A) over the triads sum(d .* (d - 1)), d = E plus.pair 1; a "
        "DiGraph: the closed paths sum((E plus.pair E)<E>) over the triads.", (), SAME),
    "triangles": ("T<S> = S plus.pair S, S = offdiag(pattern(A)): half of each row's sum.", (),
                  SAME),

    # cores
    "core_number": ("Peeling: each level k, d -= S plus.first p for the nodes p of degree at "
                    "most k, until none is left (a DiGraph's degree is in + out).", (), SAME),
    "k_core": (PEELING.format("of core number at least k"), (), SAME_GRAPH),
    "k_corona": (PEELING.format("of core number k with k neighbours in the k-core (A "
                                "plus.pair h, h its indicator)"), (), SAME_GRAPH),
    "k_crust": (PEELING.format("of core number at most k"), (), SAME_GRAPH),
    "k_shell": (PEELING.format("of core number k"), (), SAME_GRAPH),
    "k_truss": ("LAGraph's k-truss: C<S> = S plus.pair S gives each edge's support, the edges "
                "below k - 2 go, until none does; G's subgraph of the rest, attributes kept.",
                ("a k that is not an integer",), SAME_GRAPH),
    "onion_layers": ("Peeling as for core numbers, every wave a layer: one masked product a "
                     "layer.", (),
                     "NetworkX's layers; the dict is in G's node order (NetworkX's: the order "
                     "it peels the nodes)."),

    # structure
    "is_isolate": ("1<!t>, t = (A any.pair 1) + (1 any.pair A): the nodes no edge touches.", (),
                   SAME),
    "isolates": ("1<!t>, t = (A any.pair 1) + (1 any.pair A): the nodes no edge touches.", (),
                 f"NetworkX's nodes in G's order, {AT_CALL}."),
    "number_of_isolates": ("nvals(1<!t>), t = (A any.pair 1) + (1 any.pair A).", (), SAME),
    "number_of_selfloops": ("nvals(diag(A)).", (), SAME),
    "overall_reciprocity": ("nvals(offdiag(A .* A^T)) / nvals(A).", (), SAME),
    "reciprocity": ("Each node's 2 ((A .* A^T) plus.pair 1) over (A plus.pair 1) + (1 plus.pair "
                    "A); nodes=None: overall_reciprocity.", (), SAME),

    # regularity
    "is_eulerian": ("A Graph: every degree even (max(d band 1) == 0, d = A plus 1) and "
                    "connected (FastSV); a DiGraph: 1 plus A == A plus 1 and strongly "
                    "connected.", (), SAME),
    "is_k_regular": ("Degrees A plus 1: min(d) == max(d) == k.", (), SAME),
    "is_regular": ("Degrees A plus 1 (and 1 plus A for a DiGraph): min(d) == max(d).", (),
                   SAME),

    # cuts
    "boundary_expansion": ("nvals(B) / len(S), B<!s> = s any.pair A, s the indicator of S.", (),
                           SAME),
    "conductance": (CUT + "; volumes from the degrees A plus 1.", WEIGHTS, ROUNDED),
    "cut_size": (CUT + "; an edge inside both S and T counted once, as NetworkX.", WEIGHTS,
                 "NetworkX's value (an int for int weights); a DiGraph with T=None raises "
                 "TypeError, as NetworkX does."),
    "edge_expansion": (CUT + ", over min(len(S), len(T)).", WEIGHTS, ROUNDED),
    "mixing_expansion": (CUT + ", over twice the edges.", WEIGHTS,
                         ROUNDED + " A DiGraph with T=None raises TypeError, as NetworkX "
                         "does."),
    "node_expansion": ("nvals(s any.pair A) / len(S), s the indicator of S.", (), SAME),
    "normalized_cut_size": (CUT + ", times 1 / vol(S) + 1 / vol(T) from the degrees A plus 1.",
                            WEIGHTS, ROUNDED),
    "volume": ("The (out-)degrees A plus 1 (the weights' sums with weight), summed over S in "
               "its order.", WEIGHTS, SAME),

    # assortativity
    "average_degree_connectivity": (
        "One product of the neighbour matrix (A, or A^T for source='in') with the target "
        "degrees, summed per source degree in G's node order.", WEIGHTS, ROUNDED),
    "average_neighbor_degree": (
        "One product of the neighbour matrix (A, A^T or both) with the target degrees, over "
        "the (weighted) source degrees.", WEIGHTS, ROUNDED),

    # bipartite
    "color": ("A breadth-first search from every component at once (q<!side> = q any.pair S, "
              "S the pattern of A + A^T); the sides are the parities of the levels.", (),
              "NetworkX's colours; the dict is in G's node order (NetworkX's: its search "
              "order)."),
    "is_bipartite": ("The levels of a search from every component at once, then one product "
                     "s'Ss with s = +1 or -1 by side: no edge may join two nodes on one side.",
                     (), SAME),

    # sets
    "dominating_set": (
        "A maximal independent set containing start_with (Luby's algorithm), which "
        "dominates.", ("a DiGraph",),
        "A dominating set, possibly another than NetworkX's greedy one."),
    "is_dominating_set": ("x += x any.pair A, x the indicator of nbunch: whether nvals(x) == "
                          "n.", (), SAME),
    "maximal_independent_set": (
        "Luby's algorithm with hashed keys: each round, the candidates whose key beats every "
        "candidate neighbour's (S max.second key) join.", ("a seed",),
        "A maximal independent set containing nodes, possibly another than NetworkX's random "
        "one: nodes first, in their order (rank 0's under mpiexec), then the rest in G's "
        "order."),
}

# The generators, which take no graph: (how, what can_run declines, result).
GENERATOR_NOTES = {
    name: (GENERATED, ("create_using other than None, nx.Graph or nx.DiGraph (a graph "
                       "instance, a multigraph, another class)",) + more,
           "A gblas2d graph; converted (by a NetworkX function, or convert_to_nx), NetworkX's "
           "own graph: nodes, edges and attributes.")
    for name, more in (
        ("circular_ladder_graph", ("an n that is not an integer of at least 1",)),
        ("complete_graph", ()), ("cycle_graph", ()),
        ("empty_graph", ("a default other than nx.Graph",)), ("grid_2d_graph", ()),
        ("ladder_graph", ()), ("null_graph", ()), ("path_graph", ()), ("star_graph", ()),
        ("trivial_graph", ()), ("wheel_graph", ()))
}

# The graph classes (nx.Graph(backend="gblas2d")), which take no graph: (how, what can_run
# declines, result).
CLASS_NOTES = {
    f"{kind.lower()}__new__": (
        f"An nx.{kind} whose calls of the functions gblas2d dispatches run on gblas2d: its "
        "adjacency is converted at the first such call and kept in G.__networkx_cache__ until "
        "a method of G changes its nodes or edges; edge values are read at each call.",
        (f"subclasses of nx.{kind} (they keep their own class)",),
        f"A subclass of nx.{kind}, filled by nx.{kind}.__init__ as NetworkX's own; a function "
        "gblas2d does not run raises NotImplementedError unless nx.config.fallback_to_nx, "
        "with which NetworkX runs it on the graph itself.")
    for kind in ("Graph", "DiGraph")
}

FUNCTIONS = tuple(sorted({*NOTES, *GENERATOR_NOTES, *CLASS_NOTES}))

# the width of a note's lines: NetworkX indents them by 6 in a docstring
WIDTH = 88


def additional_docs(name):
    """The note NetworkX shows under "Backends" in the docstring of the function ``name``."""
    if name in GENERATOR_NOTES or name in CLASS_NOTES:
        how, declines, result = {**GENERATOR_NOTES, **CLASS_NOTES}[name]
    else:
        how, declines, result = NOTES[name]
        declines = ("multigraphs", *declines)
    parts = [how, "Declines: " + "; ".join(declines) + ".", result]
    return "\n".join(textwrap.fill(part, WIDTH) for part in parts)


def get_info():
    """The ``networkx.backend_info`` entry point: the backend's name and functions."""
    return {
        "backend_name": "gblas2d",
        "project": "gblas2d",
        "package": "gblas2d",
        "short_summary": "GraphBLAS-style engine over a 2D grid of MPI ranks.",
        "default_config": {},
        "functions": {name: {"additional_docs": additional_docs(name)} for name in FUNCTIONS},
    }
