"""What python-graphblas has that gblas2d does not: the public names of its objects, operator
modules, aggregators (``agg``) and top-level namespace, compared with gblas2d's.

    python docs/api_diff.py            print the list
    python docs/api_diff.py --write    rewrite the list in docs/api.md

``tests/test_api_diff.py`` fails when the list in ``docs/api.md`` differs from what this finds,
so the page cannot go stale. Names that only make sense for SuiteSparse objects in one process
(``ss``, ``gb_obj``, ``wait``-like internals of its C handles) are counted like any other.
"""

import argparse
import warnings
from pathlib import Path

PAGE = Path(__file__).resolve().parent / "api.md"
BEGIN = "<!-- api-diff: begin (python docs/api_diff.py --write) -->"
END = "<!-- api-diff: end -->"


def _public(obj):
    return {name for name in dir(obj) if not name.startswith("_")}


def missing():
    """{where: sorted names python-graphblas has and gblas2d lacks}."""
    import graphblas as G

    import gblas2d as gb

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs_objects = {"Matrix": G.Matrix("FP64", 2, 2), "Vector": G.Vector("FP64", 2),
                          "Scalar": G.Scalar("FP64")}
        ours_objects = {"Matrix": gb.Matrix(gb.dtypes.FP64, 2, 2),
                        "Vector": gb.Vector(gb.dtypes.FP64, 2), "Scalar": gb.Scalar(gb.dtypes.FP64)}
        out = {name: sorted(_public(theirs_objects[name]) - _public(ours_objects[name]))
               for name in theirs_objects}
        for module in ("unary", "binary", "monoid", "semiring", "indexunary", "select", "io",
                       "agg"):
            out[module] = sorted(_public(getattr(G, module)) - _public(getattr(gb, module)))
        out["graphblas"] = sorted(_public(G) - _public(gb))
    return out


def render(diff):
    lines = [BEGIN]
    for where, names in diff.items():
        shown = ", ".join(f"`{n}`" for n in names) if names else "nothing"
        lines.append(f"- `{where}` ({len(names)}): {shown}")
    lines.append(END)
    return "\n".join(lines)


def section(text):
    """The list as it stands in ``text`` (docs/api.md), or None."""
    if BEGIN not in text or END not in text:
        return None
    return text[text.index(BEGIN):text.index(END) + len(END)]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--write", action="store_true", help="rewrite the list in docs/api.md")
    args = p.parse_args(argv)
    listing = render(missing())
    if args.write:
        text = PAGE.read_text()
        old = section(text)
        if old is None:
            raise SystemExit(f"{PAGE} has no {BEGIN!r} ... {END!r} section")
        PAGE.write_text(text.replace(old, listing))
    else:
        print(listing)


if __name__ == "__main__":
    main()
