"""Set-up shared by every test process (pytest's own, and each xdist worker).

Ctrl-C reaches a command run at a terminal; the tests that send SIGINT to an `atout`
command (tests/test_interrupt.py, test_cli_player.py, test_batch.py, test_viewer.py) stand
for that.  But a program started with SIGINT ignored keeps it ignored, and so do its
children: a test run launched in the background of a non-interactive shell (`cmd &`, where
the shell ignores SIGINT for it) would start every command with Ctrl-C ignored, and those
tests would wait on a search that never hears its Ctrl-C.  So the tests' processes catch
SIGINT as an interactive Python does, and the commands they start get the default.
"""

import signal

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    # a handler, not SIG_DFL: a caught signal is reset to the default in a child at exec
    signal.signal(signal.SIGINT, signal.default_int_handler)
