# Crash safety, short version for meson (suite slow): scripts/crash-test
# with 3 kill -9s during a ~5 MB ingest.  The 20-kill run over ~60 MB is
# scripts/crash-test on its own.
sh "$HERE/../../scripts/crash-test" --kills 3 --mb 5 --profdb "$PROFDB" --dir "$WORK"
