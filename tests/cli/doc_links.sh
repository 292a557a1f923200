# Every relative link of README.md and doc/*.md names a file that exists and,
# with #anchor, a heading of that Markdown file (scripts/check-doc-links;
# issue 36).  The checker is shown a broken file link, a broken anchor and a
# good one, so it cannot pass by checking nothing.
python3 "$HERE/../../scripts/check-doc-links" > out.txt
echo "exit $?"
sed 's/[0-9]* files/N files/' out.txt
mkdir doc
printf '# Title\n\n## A b: c\n\n[ok](#a-b-c) [gone](nope.md) [bad](#no-such) [web](https://x.invalid/y)\n[ok2](t.md#title)\n' > doc/t.md
python3 "$HERE/../../scripts/check-doc-links" "$PWD/doc/t.md" > t.txt
echo "exit $?"
sed "s|$PWD/||" t.txt
