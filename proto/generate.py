"""Regenerate the committed Python stubs from ``v1/solver.proto``.

    python -m atout.proto.generate        # needs grpcio-tools (the test extra)

The .proto is compiled as ``atout/proto/v1/solver.proto`` (a temporary tree), so the
generated modules import each other as ``atout.proto.v1`` and the descriptor's file
name is unique in the process-wide pool.  tests/test_grpc_stubs.py fails when the
committed files differ from what this produces.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROTO = HERE / "v1" / "solver.proto"
PROTO_NAME = "atout/proto/v1/solver.proto"
GENERATED = ("solver_pb2.py", "solver_pb2.pyi", "solver_pb2_grpc.py")


def generate(out: Path) -> dict[str, str]:
    """Compile the .proto into ``out``; returns {file name: text} of the generated stubs."""
    import grpc_tools
    from grpc_tools import protoc

    well_known = Path(grpc_tools.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as src:
        target = Path(src) / PROTO_NAME
        target.parent.mkdir(parents=True)
        shutil.copyfile(PROTO, target)
        code = protoc.main(["grpc_tools.protoc", f"-I{src}", f"-I{well_known}",
                            f"--python_out={out}", f"--pyi_out={out}",
                            f"--grpc_python_out={out}", str(target)])
    if code != 0:
        raise RuntimeError(f"protoc failed with exit status {code}")
    folder = Path(out) / Path(PROTO_NAME).parent
    return {name: (folder / name).read_text() for name in GENERATED}


def main() -> int:
    with tempfile.TemporaryDirectory() as out:
        for name, text in generate(Path(out)).items():
            (HERE / "v1" / name).write_text(text)
            print(f"wrote {HERE / 'v1' / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
