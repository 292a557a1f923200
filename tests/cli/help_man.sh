# profdb help --man writes profdb(1) and one page per command (the build
# installs them): every command of the overview has a page, and each page
# lists exactly the options its --help lists, with the same argument names
# and text (both parsed here from the two outputs, not from profdb's tables).
$PROFDB --help | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' > cmds
[ -s cmds ] || echo "no commands in --help"
$PROFDB help --man > profdb.1 || echo "help --man failed"
for c in $(cat cmds); do
  grep -q "^\.BR profdb\\\\-$c (1)" profdb.1 || echo "profdb(1) does not name profdb-$c(1)"
  $PROFDB help --man "$c" > page || echo "help --man $c failed"
  head -1 page | grep -q "^\.TH PROFDB-$(echo "$c" | tr a-z A-Z) 1 " || echo "$c: bad .TH line"
  # SEE ALSO names the doc file that describes the command, which exists
  # and mentions the command as `profdb COMMAND` (issue 36: man pages name
  # their doc)
  doc=$(sed -n '/^\.SH SEE ALSO/,$p' page | sed -n 's/^\.I \(doc\/[a-z-]*\.md\)$/\1/p' | head -1)
  if [ -z "$doc" ]; then echo "$c: SEE ALSO names no doc/ file"
  elif [ ! -f "$HERE/../../$doc" ]; then echo "$c: SEE ALSO names $doc, which does not exist"
  elif ! grep -q "profdb $c\b" "$HERE/../../$doc"; then echo "$c: $doc does not show 'profdb $c'"
  fi
  $PROFDB "$c" --help > help
  python3 - help page "$c" <<'PY'
import re, sys
help_txt, page, cmd = open(sys.argv[1]).read(), open(sys.argv[2]).read(), sys.argv[3]
# --help: "  -h, --help    text" / "      --db FILE    text", a long text
# going on in lines indented under it (help is cut at the width)
opts = []
for line in help_txt.split("\noptions:\n", 1)[1].splitlines() if "\noptions:\n" in help_txt else []:
    m = re.match(r"^  (?:-(\w), )?\s*--([\w-]+)(?: (\S+))?\s{2,}(.*)$", line)
    if m:
        opts.append((m.group(1) or "", m.group(2), m.group(3) or "", m.group(4)))
    elif opts and re.match(r"^ {29}\S", line):
        o = opts[-1]
        opts[-1] = (o[0], o[1], o[2], o[3] + " " + line.strip())
# man: ".TP" then "\fB\-h\fR, \fB\-\-help\fR \fIARG\fR" then the text
def unroff(s):
    return s.replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")
man = []
lines = page.splitlines()
for i, line in enumerate(lines):
    if line == ".TP" and i + 2 < len(lines) and lines[i + 1].startswith("\\fB\\-"):
        head = unroff(lines[i + 1])
        m = re.match(r"^(?:\\fB-(\w)\\fR, )?\\fB--([\w-]+)\\fR(?: \\fI(\S+)\\fR)?$", head)
        if not m:
            print(f"{cmd}: bad option line {head!r}")
            continue
        man.append((m.group(1) or "", m.group(2), m.group(3) or "", unroff(lines[i + 2])))
if not opts or opts != man:
    print(f"{cmd}: --help options {opts} != man page options {man}")
PY
done
echo ok
# every line of every --help fits 80 columns when the terminal has 80
for c in "" $(cat cmds); do
  COLUMNS=80 $PROFDB $c --help | awk -v c="${c:-profdb}" 'length($0) > 80 {print c ": help line over 80 columns: " $0}'
done
# every environment variable the program reads (its getenv calls in cmd/
# and lib/, the library's limits aside: cmd/cli_limits.c) is named by
# profdb --help and in profdb(1)'s ENVIRONMENT; so is --no-pager
$PROFDB --help > overview
for v in $(grep -ho 'getenv("[A-Z_]*")' "$HERE"/../../cmd/*.c "$HERE"/../../lib/*/*.c | sed 's/getenv("\(.*\)")/\1/' | sort -u) no-pager; do
  grep -q -- "$v" overview || echo "profdb --help does not name $v"
  [ "$v" = no-pager ] && continue
  sed -n '/^\.SH ENVIRONMENT/,/^\.SH EXIT/p' profdb.1 | grep -q "^\.B $v\$" || echo "profdb(1) ENVIRONMENT does not name $v"
done
# usage errors
$PROFDB help nope 2>&1; echo "exit $?"
$PROFDB help --man kernels extra 2>&1; echo "exit $?"
