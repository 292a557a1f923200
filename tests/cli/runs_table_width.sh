# The runs table fits 80 columns (issue 16 "Fit the terminal by
# importance"): no_kernel_ranks goes after ingested_at, repeats_source and
# source_path; id, name, format, ranks, repeats, kernels, ops and the
# device total stay.  Two runs of the hand-made trace.
. "$HERE/query_setup.sh"
COLUMNS=80 $PROFDB runs >t.txt
awk '{ if (length($0) > 80) print "TOO WIDE: " $0 }' t.txt
sed -n 1p t.txt
grep -A1 '^(hidden' t.txt
