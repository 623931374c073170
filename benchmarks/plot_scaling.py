"""The scale model's projections as one PNG (docs/scaling.md): GTEPS of a BFS against the ranks.

::

    python benchmarks/plot_scaling.py                       # docs/images/scaling_projection.png
    python benchmarks/plot_scaling.py --output /tmp/p.png

Reads what ``bench_model.py`` wrote (nothing is run): ``results/model_scale20.json`` (R-MAT 20's
strong scaling on the 2D grid, 1 x P and P x 1, with and without heavy-vertex delegation, and
weak scaling at scale 20 + log2 P) and ``results/model_scale20_as26.json`` (kron:26's strong
scaling from R-MAT 20's frontiers). Left: R-MAT 20 by distribution; right: the 2D grid across
the three workloads, each point labelled with its share of communication.
"""

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DEFAULT = HERE.parent / "docs" / "images" / "scaling_projection.png"


def distribution(row):
    """How a projection row distributes the graph: the 2D grid, 1 x P or P x 1, and whether
    heavy vertices are delegated (``bench_model.py``'s ``delegates xF``)."""
    r, c = (int(k) for k in row["grid"].split("x"))
    shape = "2D grid" if r > 1 and c > 1 else "1 x P" if r == 1 else "P x 1"
    if row["distribution"].startswith("delegates"):
        return "P x 1, delegated (1.5D)" if shape == "P x 1" else f"{shape}, delegated"
    return shape


def series(rows, name_of):
    """{name: ([ranks], [GTEPS], [communication share])}, each sorted by ranks."""
    out = {}
    for row in sorted(rows, key=lambda r: r["ranks"]):
        ranks, gteps, share = out.setdefault(name_of(row), ([], [], []))
        ranks.append(row["ranks"])
        gteps.append(row["gteps"])
        share.append(row["comm_share"])
    return out


def plot(strong, as26, output):
    """Draw the two panels from the two reports into ``output``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.8), sharey=True)
    styles = {"2D grid": "o-", "1 x P": "s--", "P x 1": "^--", "2D grid, delegated": "o:",
              "P x 1, delegated (1.5D)": "^:"}
    for name, (ranks, gteps, _) in series(strong["projection"], distribution).items():
        left.plot(ranks, gteps, styles[name], label=name)
    left.set_title(f"R-MAT {strong['scale']}: strong scaling by distribution")
    workloads = {
        f"R-MAT {strong['scale']} (strong)": strong["projection"],
        "kron:26 (strong, from R-MAT 20 scaled)": as26["projection"],
        f"weak: scale {strong['scale']} + log2 P": strong["weak"],
    }
    # kron:26's and weak scaling's points nearly meet: their labels go above and below
    offsets = ((4, -11), (-26, 6), (4, -11))
    for (label, rows), style, offset in zip(workloads.items(), ("o-", "D-", "v-"), offsets,
                                            strict=True):
        on_grid = [r for r in rows if distribution(r) == "2D grid" or r["ranks"] == 1]
        ranks, gteps, share = series(on_grid, lambda r: "2D grid")["2D grid"]
        right.plot(ranks, gteps, style, label=label)
        for p, g, s in zip(ranks, gteps, share, strict=True):
            if p > 1:
                right.annotate(f"{s:.0%}", (p, g), textcoords="offset points", xytext=offset,
                               fontsize=7, color=right.lines[-1].get_color())
    right.set_title("the 2D grid (labels: communication's share of the time)")
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("ranks (one core each)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    left.set_ylabel("projected GTEPS (BFS)")
    fig.suptitle("The scale model's projections: HDR InfiniBand links, this machine's kernel "
                 "rates and software costs per collective", fontsize=10)
    fig.tight_layout()
    output.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(output, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--strong", type=Path, default=RESULTS / "model_scale20.json",
                   help="bench_model.py's report with projection and weak (default %(default)s)")
    p.add_argument("--as26", type=Path, default=RESULTS / "model_scale20_as26.json",
                   help="bench_model.py --as-scale 26's report (default %(default)s)")
    p.add_argument("--output", type=Path, default=DEFAULT, help="the PNG (default %(default)s)")
    args = p.parse_args(argv)
    plot(json.loads(args.strong.read_text()), json.loads(args.as26.read_text()), args.output)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
