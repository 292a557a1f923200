# bash completion for profdb.  Installed as
# $datadir/bash-completion/completions/profdb by `meson install`.
#
# Nothing here lists commands or options: they come from the profdb being
# completed (`profdb help --complete [CMD]`, printed from the same tables as
# --help), so a new command or option completes without touching this file.
# Run names come from the database (`profdb runs --format csv`, --db as typed
# on the line, else $PROFDB_DB or ./profdb.db).

_profdb_runs()
{
	local prog=$1 db=$2 dbopt=()
	[ -n "$db" ] && dbopt=(--db "$db")
	# the column named "name", wherever it is
	"$prog" runs "${dbopt[@]}" --format csv 2>/dev/null |
		awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "name") c = i; next } c { print $c }'
}

_profdb()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local prog=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]} spec line arg vals db="" i
	COMPREPLY=()
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$prog" help --complete 2>/dev/null | cut -f1) help --help --version" -- "$cur"))
		return
	fi
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$("$prog" help --complete 2>/dev/null | cut -f1) --man --complete" -- "$cur"))
		return
	fi
	spec=$("$prog" help --complete "$cmd" 2>/dev/null) || return
	for ((i = 2; i < COMP_CWORD - 1; i++)); do
		[ "${COMP_WORDS[i]}" = --db ] && db=${COMP_WORDS[i + 1]}
	done
	if [[ $prev == --* ]]; then
		line=$(printf '%s\n' "$spec" | awk -F'\t' -v o="$prev" '$1 == o')
		arg=$(printf '%s' "$line" | cut -f2)
		vals=$(printf '%s' "$line" | cut -f3)
		if [ -n "$arg" ]; then
			case "$prev:$arg" in
			--run:*|--base:*|--new:*)
				if [ "$cmd" != ingest ]; then
					local IFS=$'\n'
					COMPREPLY=($(compgen -W "$(_profdb_runs "$prog" "$db")" -- "$cur"))
				fi
				;;
			*:FILE|*:DIR|*:PATH)
				compopt -o filenames 2>/dev/null
				COMPREPLY=($(compgen -f -- "$cur"))
				;;
			*:KEYS) # comma-separated: complete the last key
				local head=${cur%"${cur##*,}"}
				COMPREPLY=($(compgen -P "$head" -W "$vals" -- "${cur##*,}"))
				compopt -o nospace 2>/dev/null
				;;
			*)
				[ -n "$vals" ] && COMPREPLY=($(compgen -W "$vals" -- "$cur"))
				;;
			esac
			return
		fi
	fi
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(printf '%s\n' "$spec" | cut -f1 | grep '^--')" -- "$cur"))
		return
	fi
	case "$(printf '%s\n' "$spec" | awk -F'\t' '$1 == "@args" { print $2 }')" in
	*PATH*)
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	*BASE*)
		local IFS=$'\n'
		COMPREPLY=($(compgen -W "$(_profdb_runs "$prog" "$db")" -- "$cur"))
		;;
	esac
}
complete -F _profdb profdb
