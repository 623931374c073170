"""Every example in README.md and docs/ runs, so the docs cannot drift from the code.

The conventions of a fenced block in those files (one test per block, named by doc and line):

- ```python: run. A doc's python blocks run in order in one namespace, in one fresh process,
  in the doc's scratch directory (below); a block must not raise. A block in ``>>>`` form is
  a doctest (ELLIPSIS on), so its shown output is compared. A ```text block that follows a
  python block with nothing but blank lines between is that block's standard output, and is
  compared.
- ```console: a transcript. A line ``$ COMMAND`` (a trailing ``\\`` continues it on the next
  line) runs with bash in the scratch directory, and the lines up to the next ``$`` line are
  its output, standard output and error together. ``$ echo $?`` prints the exit status of the
  command before it, and a command that fails must be followed by it: every exit status that a
  transcript can show is checked. ``mpiexec -n P`` runs as shown, P at most 4.
- ```bash: commands to copy, with no output to compare; each such block must be marked not run.
- ```text (and any other language) is not run: illustrations, tables, shown output. One that
  starts with a ``$`` prompt is a transcript and must be ```console.
- Every fence names a language.

An HTML comment on the line right before a fence marks it:

- ``<!-- not run: REASON -->``: the block is not run (an install, a benchmark of minutes, a
  sketch of the syntax); the reason is required and the block is counted, so none is left out
  silently.
- ``<!-- excerpt: FILE -->``: the block quotes lines of FILE (an algorithm's code, with the
  names it has there); each of its lines must still be found in FILE.
- ``<!-- file: NAME -->``: the block's text is written to ``NAME`` in the scratch directory
  before anything of the doc runs, and is not run itself: data files the examples read, and
  scripts a transcript runs (``$ mpiexec -n 2 python NAME``).

The scratch directory is one per doc, with ``tests/data`` linked to the repository's, so the
examples' relative paths (``tests/data/lagraph/karate.mtx``) read as from the repository root.
In it a doc's file blocks are written first, then its python blocks run, then its transcripts,
in order; a test of any block of a doc runs the whole doc once, and the docs of a session run
two at a time.

Shown output (of a transcript, or of a python block in its ```text block) is compared after a
small normalisation, for what legitimately varies from run to run:

- trailing whitespace of every line, and blank lines at the end, are ignored;
- a time in seconds, a decimal number followed by ``s`` or `` s`` (``0.1940 s``, ``2.02s``),
  matches any such number;
- ``...`` alone on a line matches any lines, none included (elided rows); ``...`` inside a line
  matches any text of that line (TEPS, thread counts, a column of seconds). Doctests keep
  doctest's own ELLIPSIS.

Under mpiexec each rank would run every doc, so these tests run in the one-process session only.
"""

import difflib
import json
import os
import re
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytestmark = pytest.mark.serial_only

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "docs" / "algorithms").glob("*.md"))]
TIMEOUT = 300            # seconds for one command, or for all the python blocks of one doc
MAX_RANKS = 4            # the most ranks a transcript may launch
WORKERS = 2              # docs run at a time
MAX_MPIEXEC = 11         # the most mpiexec launches in all the transcripts (~3 s each)

FENCE = re.compile(r"^```(\S*)\s*$")
MARKER = re.compile(r"^<!--\s*(not run|file|excerpt):\s*(.*?)\s*-->\s*$")
SECONDS = re.compile(r"(?<![\w.])\d+\.\d+(?= ?s\b)")
MPIEXEC_N = re.compile(r"\bmpiexec\s+-n\s+(\d+)")


@dataclass
class Block:
    """One fenced block: ``line`` is the 1-based line of its opening fence."""

    doc: str
    line: int
    lang: str
    text: str
    marker: tuple[str, str] | None = None
    end: int = 0                         # the 0-based index of its closing fence line
    output: "Block | None" = None        # a python block's shown output
    is_output: bool = False              # this text block is a python block's output

    @property
    def id(self):
        return f"{self.doc}:{self.line}"


@dataclass
class Doc:
    path: Path
    blocks: list[Block] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def name(self):
        inside = self.path.is_relative_to(ROOT)
        return self.path.relative_to(ROOT).as_posix() if inside else self.path.name


def parse(path):
    """The fenced blocks of a markdown file, with their markers and the convention breaches."""
    doc = Doc(path)
    lines = path.read_text().splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        start, lang = i, opening.group(1)
        i += 1
        while i < len(lines) and lines[i].rstrip() != "```":
            i += 1
        if i == len(lines):
            doc.problems.append(f"{doc.name}:{start + 1}: the fence is never closed")
            break
        block = Block(doc.name, start + 1, lang, "\n".join(lines[start + 1:i]) + "\n", end=i)
        above = lines[start - 1] if start else ""
        if (found := MARKER.match(above)) is not None:
            block.marker = (found.group(1), found.group(2))
        elif above.startswith("<!--"):
            doc.problems.append(f"{block.id}: unknown marker {above!r}")
        doc.blocks.append(block)
        i += 1
    for before, block in zip(doc.blocks, doc.blocks[1:], strict=False):
        between = lines[before.end + 1:block.line - 1]
        if (before.lang == "python" and before.marker is None and block.lang == "text"
                and block.marker is None and not any(s.strip() for s in between)):
            before.output, block.is_output = block, True
    for block in doc.blocks:
        doc.problems.extend(breaches(block))
    return doc


def breaches(block):
    """What in ``block`` breaks the conventions of this module's docstring."""
    kind, value = block.marker or (None, None)
    if not block.lang:
        yield f"{block.id}: a fence without a language (```text for an illustration)"
    if kind is not None and not value:
        yield f"{block.id}: '<!-- {kind}: -->' needs a {'reason' if kind == 'not run' else 'name'}"
    if kind == "excerpt" and value and not (ROOT / value).is_file():
        yield f"{block.id}: the excerpt's file {value} does not exist"
    if kind in ("not run", "excerpt") and block.lang not in ("python", "console", "bash"):
        yield f"{block.id}: only python, console and bash blocks run, so only they are marked"
    if block.lang == "bash" and kind not in ("not run", "excerpt"):
        yield (f"{block.id}: a ```bash block has no output to compare: make it a ```console "
               f"transcript or mark it '<!-- not run: REASON -->'")
    if block.lang != "console" and kind is None and block.text.startswith("$ "):
        yield f"{block.id}: a transcript ($ prompts) is a ```console block"
    if block.lang == "console" and kind is None:
        if not block.text.startswith("$ "):
            yield f"{block.id}: a transcript starts with a '$ ' command"
        for command, _ in transcript(block.text):
            for ranks in MPIEXEC_N.findall(command):
                if int(ranks) > MAX_RANKS:
                    yield (f"{block.id}: 'mpiexec -n {ranks}' launches more than {MAX_RANKS} "
                           f"ranks: mark the block not run, or show fewer ranks")


def transcript(text):
    """The (command, shown output) pairs of a console block."""
    steps = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command[:-1].rstrip() + " " + lines[i].strip()
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        steps.append((command, "\n".join(shown)))
    return steps


DOCUMENTS = [parse(path) for path in DOCS]
BLOCKS = [block for doc in DOCUMENTS for block in doc.blocks]


def normalise(text):
    """Trailing whitespace and blank lines dropped, every time in seconds made one token."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return SECONDS.sub("<seconds>", "\n".join(lines) + "\n")


def matches(shown, actual):
    """Whether ``actual`` is ``shown`` after normalisation: ``...`` alone on a line matches any
    lines (none included), and inside a line any text of that line."""
    pattern = []
    for line in normalise(shown).splitlines():
        if line.strip() == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(part) for part in line.split("...")) + "\n")
    return re.fullmatch("".join(pattern), normalise(actual)) is not None


def difference(shown, actual):
    diff = difflib.unified_diff(normalise(shown).splitlines(), normalise(actual).splitlines(),
                                "shown in the doc", "printed now", lineterm="")
    return "\n".join(diff)


def environment():
    """This interpreter's commands first on PATH; nothing of an outer MPI job or test run."""
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("GBLAS2D_", "PMI_", "PMIX_", "HYDRA_", "MPIR_",
                                   "NETWORKX_", "PYTEST_"))}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"        # stdout and stderr interleave as on a terminal
    return env


RUNNER = r"""
import contextlib, doctest, io, json, sys, traceback
blocks = json.load(open(sys.argv[1]))
namespace = {"__name__": "__main__"}
results = []
for block in blocks:
    stdout, error = io.StringIO(), None
    with contextlib.redirect_stdout(stdout):
        try:
            if block["doctest"]:
                test = doctest.DocTestParser().get_doctest(
                    block["code"], namespace, block["id"], block["path"], block["line"])
                runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
                report = io.StringIO()
                runner.run(test, out=report.write, clear_globs=False)
                if runner.failures:
                    error = report.getvalue()
            else:
                # padded, so a traceback names the markdown file's own line numbers
                code = "\n" * block["line"] + block["code"]
                exec(compile(code, block["path"], "exec"), namespace)
        except BaseException:
            error = traceback.format_exc()
    results.append({"stdout": stdout.getvalue(), "error": error})
json.dump(results, open(sys.argv[2], "w"))
"""


class DocRun:
    """Everything of one doc run once, in its scratch directory: the results of each block."""

    def __init__(self, doc, scratch):
        self.doc, self.scratch, self.env = doc, scratch, environment()
        (scratch / "tests").mkdir()
        (scratch / "tests" / "data").symlink_to(ROOT / "tests" / "data")
        for block in doc.blocks:
            if block.marker and block.marker[0] == "file":
                (scratch / block.marker[1]).write_text(block.text)
        self.python = self._run_python()
        self.console = {block.line: self._run_console(block) for block in doc.blocks
                        if block.lang == "console" and block.marker is None}

    def _run_python(self):
        blocks = [block for block in self.doc.blocks
                  if block.lang == "python" and block.marker is None]
        if not blocks:
            return {}
        plan = [{"id": block.id, "path": str(ROOT / block.doc), "line": block.line,
                 "code": block.text, "doctest": block.text.lstrip().startswith(">>>")}
                for block in blocks]
        (self.scratch / ".blocks.json").write_text(json.dumps(plan))
        try:
            done = subprocess.run([sys.executable, "-c", RUNNER, ".blocks.json",
                                   ".results.json"], cwd=self.scratch, env=self.env,
                                  capture_output=True, text=True, timeout=TIMEOUT)
            failed = None if done.returncode == 0 else \
                f"the python blocks' process failed:\n{done.stdout}\n{done.stderr}"
        except subprocess.TimeoutExpired:
            failed = f"the python blocks did not finish in {TIMEOUT} s"
        if failed is not None:
            return {block.line: {"stdout": "", "error": failed} for block in blocks}
        results = json.loads((self.scratch / ".results.json").read_text())
        return {block.line: result for block, result in zip(blocks, results, strict=True)}

    def _run_console(self, block):
        """Each command with its shown and actual output and exit status."""
        steps, status = [], 0
        for command, shown in transcript(block.text):
            # `(exit N)` first, so `echo $?` prints the status of the command shown before it
            script = f"(exit {status}); {command}"
            # its own process group, so a timeout ends mpiexec and its ranks too
            shell = subprocess.Popen(["bash", "-c", script], cwd=self.scratch, env=self.env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     text=True, start_new_session=True)
            try:
                actual, _ = shell.communicate(timeout=TIMEOUT)
                status = shell.returncode
            except subprocess.TimeoutExpired:
                os.killpg(shell.pid, signal.SIGKILL)
                actual, status = shell.communicate()[0] + f"(killed after {TIMEOUT} s)\n", 124
            steps.append((command, shown, actual, status))
        return steps


_RUNS = {}
_POOL = []


def _block_of(item):
    """The Block a collected test item runs, if it is one of this module's block tests."""
    callspec = getattr(item, "callspec", None)
    block = callspec.params.get("block") if callspec is not None else None
    return block if isinstance(block, Block) else None


@pytest.fixture
def doc_run(request, tmp_path_factory):
    """The run of the doc of this test's block. The first request starts the runs of every doc
    the session selected, two at a time (their subprocesses are mostly single-threaded)."""
    if not _POOL:
        _POOL.append(ThreadPoolExecutor(WORKERS))
        request.session.addfinalizer(lambda: _POOL[0].shutdown(cancel_futures=True))
    wanted = {_block_of(request.node).doc}
    if not _RUNS:
        wanted |= {block.doc for item in request.session.items
                   if (block := _block_of(item)) is not None}
    for doc in DOCUMENTS:
        if doc.name in wanted and doc.name not in _RUNS:
            scratch = tmp_path_factory.mktemp(re.sub(r"\W", "_", doc.path.stem))
            _RUNS[doc.name] = _POOL[0].submit(DocRun, doc, scratch)
    return _RUNS[_block_of(request.node).doc].result()


def _ids(blocks):
    return [block.id for block in blocks]


PYTHON = [b for b in BLOCKS if b.lang == "python" and b.marker is None]
CONSOLE = [b for b in BLOCKS if b.lang == "console" and b.marker is None]
NOT_RUN = [b for b in BLOCKS if b.marker and b.marker[0] == "not run"]
EXCERPTS = [b for b in BLOCKS if b.marker and b.marker[0] == "excerpt"]


@pytest.mark.parametrize("doc", DOCUMENTS, ids=[doc.name for doc in DOCUMENTS])
def test_conventions(doc):
    if doc.problems:
        pytest.fail("\n".join(doc.problems), pytrace=False)


@pytest.mark.parametrize("block", PYTHON, ids=_ids(PYTHON))
def test_python_block(block, doc_run):
    result = doc_run.python[block.line]
    if result["error"] is not None:
        pytest.fail(f"{block.id}:\n{result['error']}", pytrace=False)
    if block.output is not None and not matches(block.output.text, result["stdout"]):
        pytest.fail(f"{block.id}: the output shown at line {block.output.line} is stale:\n"
                    f"{difference(block.output.text, result['stdout'])}", pytrace=False)


@pytest.mark.parametrize("block", CONSOLE, ids=_ids(CONSOLE))
def test_console_block(block, doc_run):
    steps = doc_run.console[block.line]
    problems = []
    for k, (command, shown, actual, status) in enumerate(steps):
        if not matches(shown, actual):
            problems.append(f"`$ {command}` printed other than shown:\n"
                            f"{difference(shown, actual)}")
        if status != 0 and not (k + 1 < len(steps) and "$?" in steps[k + 1][0]):
            problems.append(f"`$ {command}` exited with status {status}, which the doc does "
                            f"not show: follow it with `$ echo $?`")
    if problems:
        pytest.fail(f"{block.id}:\n" + "\n".join(problems), pytrace=False)


@pytest.mark.parametrize("block", EXCERPTS, ids=_ids(EXCERPTS))
def test_excerpt_block(block):
    source = (ROOT / block.marker[1]).read_text()
    stale = [line for line in block.text.splitlines() if line.strip() not in source]
    assert not stale, f"{block.id}: not in {block.marker[1]}: {stale}"


def test_every_example_is_accounted_for():
    """Each python, console and bash block is run or marked: the counts add up."""
    examples = [b for b in BLOCKS if b.lang in ("python", "console", "bash")]
    files = [b for b in examples if b.marker and b.marker[0] == "file"]
    assert len(PYTHON) + len(CONSOLE) + len(NOT_RUN) + len(EXCERPTS) + len(files) == \
        len(examples)


def test_few_mpiexec_runs():
    """mpiexec launches are the slow part of this module: a handful, each of at most 4 ranks."""
    launches = [f"{b.id}: {command}" for b in CONSOLE for command, _ in transcript(b.text)
                if MPIEXEC_N.search(command)]
    if len(launches) > MAX_MPIEXEC:
        pytest.fail(f"{len(launches)} mpiexec launches, more than {MAX_MPIEXEC}:\n"
                    + "\n".join(launches), pytrace=False)


def test_matching_rules():
    assert matches("bfs: 0.1940 s; 4 levels\n", "bfs: 12.5 s; 4 levels\n")
    assert matches("took 2.02s\n", "took 0.5s\n")
    assert not matches("4 levels\n", "5 levels\n")
    assert matches("rank ...\nend\n", "rank 0.0224\nend\n  \n")
    assert not matches("rank ...\nend\n", "rank 0\nan extra line\nend\n")
    assert matches("first\n...\nlast\n", "first\nsecond\nthird\nlast\n")
    assert matches("first\n   ...\nlast\n", "first\nlast\n")
    assert not matches("first\n", "first\nsecond\n")


def test_parsing_rules(tmp_path):
    text = """\
```python
print(1)
```

```text
1
```

<!-- not run: needs a GPU -->
```console
$ gblas2d run bfs_levels --graph kron:30
```

<!-- file: edges.txt -->
```text
0 1
```

```console
$ gblas2d run bfs_levels --graph edges.txt \\
    --source 0
graph edges.txt: ...
$ mpiexec -n 6 gblas2d info --graph kron:4
$ echo $?
0
```

```bash
pip install gblas2d
```

```
a fence without a language
```

```text
$ a transcript
```
"""
    (tmp_path / "page.md").write_text(text)
    doc = parse(tmp_path / "page.md")
    python, output, gpu, data, console, bash, bare, fake = doc.blocks
    assert python.output is output and output.is_output
    assert gpu.marker == ("not run", "needs a GPU") and data.marker == ("file", "edges.txt")
    assert transcript(console.text) == [
        ("gblas2d run bfs_levels --graph edges.txt --source 0", "graph edges.txt: ..."),
        ("mpiexec -n 6 gblas2d info --graph kron:4", ""), ("echo $?", "0")]
    assert [problem.split(": ", 1)[0] for problem in doc.problems] == [
        console.id, bash.id, bare.id, fake.id]
