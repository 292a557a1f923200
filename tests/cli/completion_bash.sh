# The bash completion (scripts/completion/profdb.bash, installed by meson
# install) completes commands, options, --format / --by values and run names
# from the database, by asking this profdb.  Expected lists are from the
# README / --help by hand.
$PROFDB ingest -q --db c.db --run base "$PROFDB_TESTDATA/kineto/nested.json" || echo "ingest failed"
$PROFDB ingest -q --db c.db --run pr-1 "$PROFDB_TESTDATA/kineto/nested.json" || echo "ingest failed"
mkdir -p dumps/rank0_ascend_pt
bash -c '
. "$HERE/../../scripts/completion/profdb.bash"
c() { COMP_WORDS=("$PROFDB" "$@"); COMP_CWORD=$#; _profdb; echo "$*: ${COMPREPLY[*]}"; }
c ker
c kernels --for
c kernels --format ""
c kernels --by name,base
c kernels --kind m
c kernels --db c.db --run ""
c diff --db c.db p
c report --db c.db --base ""
c ingest --run ""
c ingest dum
c sql --wr
c help --m
c help ver
c memory --by ""
'
