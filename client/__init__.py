"""atout client side: the command line (`atout`) and, later, the gRPC client."""
