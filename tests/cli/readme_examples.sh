# README.md's and doc/*.md's examples are what the program prints:
# scripts/readme-examples reruns every command of their ```console blocks on
# the bundled testdata and diffs the output, and runs every ```sh block to
# exit status 0 (issue 36: every example executed; at least 15 of them).  A
# change of output fails here until `scripts/readme-examples --update`
# rewrites the documents.  The ClickHouse example is skipped here and run by
# clickhouse_doc_example against a real server.
python3 "$HERE/../../scripts/readme-examples" --profdb "$PROFDB" > out.txt
echo "exit $?"
cat out.txt
n=$(sed -n 's/^readme-examples: \([0-9]*\) examples match.*/\1/p' out.txt)
[ "${n:-0}" -ge 15 ] || echo "only ${n:-0} examples run: issue 36 asks for at least 15"
# the checker itself: a changed output and a failing sh command are caught
mkdir docs
printf '```console\n$ echo 1\n2\n```\n\n```sh\nfalse\n```\n' > docs/bad.md
python3 "$HERE/../../scripts/readme-examples" --profdb "$PROFDB" "$PWD/docs/bad.md" > bad.txt
echo "exit $?"
sed "s|$PWD/||" bad.txt
