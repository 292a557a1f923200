# profdb runs as a table (the ingest time is masked: it changes every run)
. "$HERE/query_setup.sh"
$PROFDB runs | sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/YYYY-MM-DDTHH:MM:SSZ/'
