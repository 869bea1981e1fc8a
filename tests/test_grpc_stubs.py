"""The committed gRPC stubs are what the .proto generates (regenerate: python -m atout.proto.generate)."""

from __future__ import annotations

from pathlib import Path

import atout.proto.v1
from atout.proto.generate import generate


def test_stubs_are_current(tmp_path):
    committed = Path(atout.proto.v1.__file__).parent
    for name, text in generate(tmp_path).items():
        assert (committed / name).read_text() == text, (
            f"proto/v1/{name} is stale against proto/v1/solver.proto: "
            f"run python -m atout.proto.generate")


def test_generated_imports_resolve_in_the_package():
    from atout.proto.v1 import solver_pb2, solver_pb2_grpc

    assert solver_pb2.DESCRIPTOR.package == "atout.v1"
    assert solver_pb2.DESCRIPTOR.name == "atout/proto/v1/solver.proto"
    assert set(solver_pb2.DESCRIPTOR.services_by_name["Solver"].methods_by_name) == {
        "Solve", "Analyze", "AnalyzeStream", "SolveBatch", "Advise", "AdviseBatch", "Table"}
    assert solver_pb2_grpc.SolverStub
