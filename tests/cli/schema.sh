# profdb schema prints the embedded schema: its first table and its version line
$PROFDB schema | grep -E '^(CREATE TABLE (str|run|kernel) |PRAGMA user_version)'
$PROFDB schema --help | head -1
