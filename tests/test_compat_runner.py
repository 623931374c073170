"""benchmarks/compat.py, the runner of python-graphblas's own tests on gblas2d: its rewrite of
the imports and its rule for internals, on a small test module written here."""

import importlib.util
import textwrap
from pathlib import Path

import graphblas
import pytest

import gblas2d

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("compat", ROOT / "benchmarks" / "compat.py")
compat = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compat)

# A public name of python-graphblas that gblas2d lacks (`config`, `op`, `viz`, ... today).
MISSING = sorted(n for n in set(dir(graphblas)) - set(dir(gblas2d))
                 if n not in compat.INTERNAL and not n.startswith("_"))[0]

SOURCE = textwrap.dedent(f"""
    import pytest
    import graphblas as gb
    from graphblas import Matrix, backend, binary, {MISSING}
    from graphblas.core import lib
    from graphblas.core import _supports_udfs as supports_udfs
    from graphblas.exceptions import DimensionMismatch

    suitesparse = backend == "suitesparse"

    @pytest.fixture
    def exported():
        return gb.Vector.from_coo([0], [1]).ss.export()

    def test_public():
        A = Matrix.from_coo([0, 1], [1, 0], [2, 3])
        assert A.reduce_scalar(gb.monoid.plus).new() == 5
        with pytest.raises(DimensionMismatch):
            A.mxm(Matrix(int, 3, 3)).new()

    def test_strings_are_not_code():
        with pytest.raises(ValueError, match="backend"):
            gb.Vector.from_coo([0], [1], dtype="lib")

    def test_missing():
        {MISSING}.anything

    def test_ss():
        gb.Vector(int, 3).ss.export()

    def test_lib():
        lib.GrB_Info

    def test_flag():
        assert suitesparse

    def test_private(v):
        v._nvals

    def test_fixture(exported):
        pass

    @pytest.mark.skipif("not supports_udfs")
    def test_skipif():
        pass

    def test_udf():
        binary.register_anonymous(lambda x, y: x)

    def test_core():
        gb.core.operator.BinaryOp
""")


def test_internals_are_found_per_test(tmp_path):
    path = tmp_path / "test_synthetic.py"
    path.write_text(SOURCE)
    marks = compat.internal_tests(path.read_text())
    assert marks == {
        "test_public": set(), "test_strings_are_not_code": set(), "test_missing": set(),
        "test_ss": {"ss"}, "test_lib": {"lib"},
        "test_flag": {"suitesparse"}, "test_private": {"_nvals"}, "test_fixture": {"ss"},
        "test_skipif": {"supports_udfs"}, "test_udf": {"register_anonymous"},
        "test_core": {"core"},
    }


def test_imports_are_rewritten_to_gblas2d(tmp_path):
    path = tmp_path / "test_synthetic.py"
    path.write_text(compat.rewrite(SOURCE))
    text = path.read_text()
    assert "import gblas2d as gb" in text
    assert "from gblas2d import Matrix, binary" in text
    assert "from graphblas import backend" in text
    assert "from graphblas.core import lib" in text
    assert "from gblas2d.exceptions import DimensionMismatch" in text
    assert "_graphblas.core.operator.BinaryOp" in text  # gb.core stays python-graphblas's
    module = {}
    exec(compile(text, str(path), "exec"), module)
    assert module["gb"] is gblas2d and module["Matrix"] is gblas2d.Matrix
    assert module["backend"] == graphblas.backend
    module["test_public"]()  # on gblas2d: a test that needs no missing name runs
    with pytest.raises(ImportError, match=f"cannot import name '{MISSING}' from 'gblas2d'"):
        module["test_missing"]()


def test_failure_causes_group():
    message = "AssertionError: assert 3 == 4.5\n  at 0x7f3a int64 '<v...7f0ba985bcd0>'"
    assert compat.normalize(message) == "AssertionError: assert N == N at 0x? int64 '<v...0x?>'"
