"""``atout.v1``: the generated messages (``solver_pb2``) and service stubs (``solver_pb2_grpc``)."""
