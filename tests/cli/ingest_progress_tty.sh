# The progress line of ingest (issue 16): on a terminal only, after the
# delay (1 s; PROFDB_PROGRESS_DELAY_MS=0, the test hook, shows it at once);
# after reading it names the phase (linking kernels and steps, kernel
# statistics, committing) instead of a bar at 100%, and the line is cleared
# ("\r\033[K") before the summary.  stderr is a pseudo-terminal (python3's
# pty), stdout a pipe; the bytes written to the terminal are checked here.
set -e
cat > pty_run.py <<'PY'
import os, pty, re, subprocess, sys
env = dict(os.environ)
delay = sys.argv[1]
if delay != "-":
    env["PROFDB_PROGRESS_DELAY_MS"] = delay
master, slave = pty.openpty()
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=slave, env=env)
os.close(slave)
err = b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    err += chunk
out = p.stdout.read().decode()
p.wait()
text = err.decode("utf-8", "replace")
clear = "\r\x1b[K"
phases = re.findall(r"\r\x1b\[K([a-z ]+) \.\.\.", text)
bars = len(re.findall(r"\r\[[#.]{30}\] +[0-9.]+/[0-9.]+ MB", text))
print("exit %d; stdout: %s" % (p.returncode, out.splitlines()[0] if out else "(none)"))
last_bar = text.rfind("\r[")
first_phase = text.find(clear + phases[0]) if phases else -1
print("terminal: %s, bar lines %s, phases %s%s" % ("written" if err else "nothing", "yes" if bars else "none",
      phases, "" if not phases else " after the last bar" if last_bar < first_phase else " BEFORE A BAR"))
print("cleared at the end: %s" % ("yes" if text.endswith(clear) else "no" if text else "(nothing shown)"))
PY
T=$PROFDB_CORPUS/param/et_replay/tests/inputs/linear_kineto.json.gz
python3 pty_run.py 0 $PROFDB ingest --db a.db "$T"
# the default: a small input is done before the first second, nothing shown
python3 pty_run.py - $PROFDB ingest --db b.db "$PROFDB_TESTDATA/query/trace.json"
# -q: nothing on the terminal, even at once
python3 pty_run.py 0 $PROFDB ingest -q --db c.db "$PROFDB_TESTDATA/query/trace.json"
