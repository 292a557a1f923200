# A mistyped command or option is one line on stderr with the nearest valid
# name when there is a single close one, and exit 2 (issue: output people can
# read at a glance).  The expected lines are written by hand in
# usage_errors.stderr.exact.
for args in "kernles" "sumary" "xyz" "kernels --topp 3" "kernels --sotr=total" \
            "steps --rnk 1" "kernels --zzzzzz"; do
  # shellcheck disable=SC2086
  "$PROFDB" $args
  echo "$args -> $?"
done
