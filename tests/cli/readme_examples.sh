# README.md's example outputs (```console blocks) are what the program
# prints: scripts/readme-examples reruns every shown command on the bundled
# testdata and diffs (issue 16 "Done when: the README's examples are
# regenerated from real output").  A change of output fails here until
# `scripts/readme-examples --update` rewrites the README.
python3 "$HERE/../../scripts/readme-examples" --profdb "$PROFDB" "$HERE/../../README.md"
