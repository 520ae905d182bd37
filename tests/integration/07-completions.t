#!/bin/sh
# The shell completions and the man page: what a user sees after <TAB> in
# bash (with bash-completion and without it) and in zsh (when installed),
# and that every long option of the CLI appears in both completions and in
# hijack(1), so that none of them can drift from it.  Runs unprivileged.
. "${TESTDIR:-$(dirname "$0")}/lib.sh"

top=$TESTDIR/../..
bashfile=$top/completions/bash/hijack
zshfile=$top/completions/zsh/_hijack
manfile=$top/man/hijack.1

command -v bash >/dev/null 2>&1 || skip_all "bash is not installed"
for f in "$bashfile" "$zshfile" "$manfile"; do
	[ -r "$f" ] || skip_all "missing $f"
done

# bash-completion's main script, where distributions put it; only one that
# loads and defines _command_offset counts (/etc/bash_completion may be a
# stub that sources a missing file).
bc=""
for f in /usr/share/bash-completion/bash_completion /etc/bash_completion; do
	if [ -r "$f" ] && bash --norc --noprofile -c '. "$1" && declare -F _command_offset' \
		sh "$f" >/dev/null 2>&1; then
		bc=$f
		break
	fi
done

# The long options of --help, and those of the option table in the source
# (--help names some namespace options by their short letters only).
longopts=$({
	"$HIJACK" --help | grep -o -- '--[a-z][a-z-]*'
	if [ -r "$top/src/cli/options.c" ]; then
		sed -n 's/^[[:space:]]*{ "\([a-z][a-z-]*\)",.*/--\1/p' "$top/src/cli/options.c"
	fi
} | LC_ALL=C sort -u)
nlong=$(echo "$longopts" | wc -l)

# The completion cases in each of the two bash setups.
ncases=17
nzcases=7
plan $((2 + 2 * ncases + 3 + nzcases + 7 + 8 + 2 + 2 + 3 + 3 * nlong))

# A process whose pid must be offered.
sleep 300 &
sleeper=$!
_pids="$_pids $sleeper"

tmp=$(tmpdir)
mkdir -p "$tmp/files/dir"
: >"$tmp/files/file.txt"

# The driver feeds a command line to _hijack as bash would and prints the
# candidates, sorted, on one line.  bash splits the line into COMP_WORDS at
# blanks and around the COMP_WORDBREAKS characters "=" and ":", each run of
# them a word of its own ("--ns=mnt" is "--ns" "=" "mnt", and "--ns=" ends
# on the word "="); a line ending in a blank has an empty word last.  That
# is what an interactive bash 5.2 passes (checked on a pty).
cat >"$tmp/drive.bash" <<'EOF'
mode=$1 compfile=$2 line=$3
if [[ $mode != plain ]]; then
	. "$mode" || exit 1
fi
. "$compfile" || exit 1
COMP_WORDS=()
read -ra toks <<<"$line"
for tok in "${toks[@]}"; do
	while [[ -n $tok ]]; do
		if [[ $tok =~ ^([=:]+)(.*)$ || $tok =~ ^([^=:]+)(.*)$ ]]; then
			COMP_WORDS+=("${BASH_REMATCH[1]}")
			tok=${BASH_REMATCH[2]}
		fi
	done
done
[[ $line == *' ' ]] && COMP_WORDS+=('')
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE=$line
COMP_POINT=${#line}
COMP_TYPE=9
COMP_KEY=9
# Run as "complete -F" would: program, word, previous word.
_hijack hijack "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
EOF

# comp MODE LINE: the candidates for LINE.
comp() {
	bash --norc --noprofile "$tmp/drive.bash" "$1" "$bashfile" "$2"
}

# words LIST: LIST with one blank between words, for a "like" pattern.
has_word() {
	case " $1 " in
	*" $2 "*) return 0 ;;
	*) return 1 ;;
	esac
}

err=$(bash --norc --noprofile -c '. "$1" && complete -p hijack' sh "$bashfile" 2>&1)
like "$err" "complete -F _hijack hijack" "bash: the completion sources cleanly and registers _hijack"
if [ -n "$bc" ]; then
	err=$(bash --norc --noprofile -c '. "$1" && . "$2" && complete -p hijack' sh "$bc" "$bashfile" 2>&1)
	like "$err" "complete -F _hijack hijack" "bash: sources cleanly after bash-completion"
else
	skip "bash: sources cleanly after bash-completion" "bash-completion is not installed"
fi

for mode in plain bc; do
	if [ $mode = bc ]; then
		if [ -z "$bc" ]; then
			i=0
			while [ $i -lt $ncases ]; do
				skip "bash with bash-completion: case $i" "bash-completion is not installed"
				i=$((i + 1))
			done
			continue
		fi
		m=$bc
		what="bash with bash-completion"
	else
		m=plain
		what="bash without bash-completion"
	fi

	is "$(comp $m 'hijack --n')" "--net --no-ns --no-pty --ns" "$what: --n<TAB>"
	is "$(comp $m 'hijack --ns=m')" "mnt" "$what: --ns=m<TAB>"
	is "$(comp $m 'hijack --ns=mnt,u')" "mnt,user mnt,uts" "$what: --ns=mnt,u<TAB>"
	is "$(comp $m 'hijack --no-ns mnt,u')" "mnt,user mnt,uts" "$what: --no-ns mnt,u<TAB>"
	is "$(comp $m 'hijack --ns=net,mnt,')" "net,mnt,cgroup net,mnt,ipc net,mnt,pid net,mnt,time net,mnt,user net,mnt,uts" \
		"$what: names already listed are not offered again"
	is "$(comp $m 'hijack --method ')" "auto nsfd pidfd syscall" "$what: --method <TAB>"
	is "$(comp $m 'hijack --meth=p')" "pidfd" "$what: --meth=p<TAB> (an abbreviated option)"
	is "$(comp $m 'hijack --explain=')" "json text" "$what: --explain=<TAB>"
	out=$(comp $m 'hijack --pid ')
	has_word "$out" "$sleeper"
	ok $? "$what: --pid <TAB> offers the pid of a running process"
	case $out in
	*[!0-9\ ]*) ok 1 "$what: --pid <TAB> offers numbers only"; diag "got: $(echo "$out" | tr -d '0-9 ' | head -c 80)" ;;
	*) ok 0 "$what: --pid <TAB> offers numbers only" ;;
	esac
	out=$(comp $m "hijack -mt$sleeper")
	has_word "$out" "-mt$sleeper"
	ok $? "$what: a pid attached to -t in a cluster"
	is "$(comp $m "hijack -t $sleeper --wd=$tmp/files/d")" "$tmp/files/dir/" \
		"$what: --wd=<path><TAB> completes directories"
	out=$(comp $m "hijack -t $sleeper cat $tmp/files/fi")
	is "$out" "$tmp/files/file.txt" "$what: after the command, its arguments are files"
	out=$(comp $m "hijack -t $sleeper ls --n")
	has_word "$out" --net
	ok $((! $?)) "$what: options after the command are not hijack's"
	is "$(comp $m 'hijack --env ')" "clear keep reset target" "$what: --env <TAB>"
	is "$(comp $m "hijack --seccomp=$tmp/files/f")" "$tmp/files/file.txt" \
		"$what: --seccomp=<TAB> completes policy files"
	is "$(HIJACK_PROBE_VAR=1 comp $m 'hijack --setenv=HIJACK_PROBE_V')" "HIJACK_PROBE_VAR=" \
		"$what: --setenv=NAME<TAB> offers exported names, with ="
done

# zsh, when it is there: the file parses, and compinit registers it.
if command -v zsh >/dev/null 2>&1; then
	zsh -n "$zshfile"
	ok $? "zsh: _hijack parses (zsh -n)"
	err=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; print -r -- "${_comps[hijack]}"' \
		zsh "$(dirname "$zshfile")" 2>&1)
	is "$err" "_hijack" "zsh: compinit registers _hijack for hijack"
	err=$(zsh -f -c 'fpath=("$1" $fpath); autoload -U compinit; compinit -u -D; autoload -Uz +X _hijack 2>&1 && print loaded' \
		zsh "$(dirname "$zshfile")" 2>&1)
	is "$err" "loaded" "zsh: _hijack autoloads without errors"
else
	skip "zsh: _hijack parses" "zsh is not installed"
	skip "zsh: compinit registers _hijack" "zsh is not installed"
	skip "zsh: _hijack autoloads" "zsh is not installed"
fi

# What zsh offers after <TAB> (zcapture.zsh).

zcases() {
	zsh -f "$TESTDIR/zcapture.zsh" "$(dirname "$zshfile")" "$tmp/zcapture.out" \
		'hijack --n' 'hijack --ns=mnt,u' 'hijack --method ' 'hijack --explain=' \
		'hijack --env=' 'hijack --pid ' 'hijack -t 1 -- ls --n'
}
if ! command -v zsh >/dev/null 2>&1; then
	why="zsh is not installed"
elif ! zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
	why="zsh has no zsh/zpty module"
elif ! zout=$(zcases 2>"$tmp/zcapture.err") &&
	! zout=$(zcases 2>"$tmp/zcapture.err"); then
	why="zsh on a pseudo-terminal failed: $(head -c 200 "$tmp/zcapture.err")"
else
	why=""
fi
if [ -n "$why" ]; then
	i=0
	while [ $i -lt $nzcases ]; do
		skip "zsh <TAB>: case $i" "$why"
		i=$((i + 1))
	done
else
	zline() { echo "$zout" | sed -n "${1}p"; }
	is "$(zline 1)" "--net --no-ns --no-pty --ns" "zsh: --n<TAB>"
	is "$(zline 2)" "user uts" "zsh: --ns=mnt,u<TAB> (after the comma)"
	is "$(zline 3)" "auto nsfd pidfd syscall" "zsh: --method <TAB>"
	is "$(zline 4)" "json text" "zsh: --explain=<TAB>"
	is "$(zline 5)" "clear keep reset target" "zsh: --env=<TAB>"
	if command -v ps >/dev/null 2>&1; then
		has_word "$(zline 6)" "$sleeper"
		ok $? "zsh: --pid <TAB> offers the pid of a running process"
	else
		skip "zsh: --pid <TAB> offers the pid of a running process" "no ps(1) for _pids"
	fi
	has_word "$(zline 7)" --net
	ok $((! $?)) "zsh: options after the command are not hijack's"
fi

# --- hostile container names ---------------------------------------------
# A container's name is whatever its engine accepted, and the completion
# puts it into a command line the user then runs.  A stand-in hijack on
# PATH (the completions run the "hijack" being completed) lists names with
# ";", "${IFS}", "$(...)", backquotes, blanks, quotes and an escaped
# newline, and records the first argument it is run with.  Each name,
# completed from a prefix of its own and run, must reach hijack as one
# word, the same name, and run nothing.
mkdir -p "$tmp/stub" "$tmp/run"
cat >"$tmp/stub/hijack" <<'EOF'
#!/bin/sh
d=$(dirname "$0")
case "$*" in
"--list --json") cat "$d/list.json" ;;
--list) echo "ENGINE NAME ID PID STATE"; sed 's/^/lxc /; s/$/ x 1 running/' "$d/names" ;;
*) printf '%s' "$1" >"$d/arg" ;;
esac
EOF
chmod +x "$tmp/stub/hijack"
# The names, and as hijack --list --json prints them, JSON-escaped.
cat >"$tmp/stub/names" <<'EOF'
hq1;touch P1
hq2${IFS}touch${IFS}P2
hq3$(touch P3)
hq4`touch P4`
hq5 "a b" 'c'
hq6;touch${IFS}P6
EOF
{
	printf '{\n   "containers": [\n'
	sed 's/"/\\"/g' "$tmp/stub/names" | while IFS= read -r n; do
		printf '      {\n         "engine": "lxc",\n         "name": "%s",\n' "$n"
		printf '         "id": "x",\n         "pid": 1,\n         "state": "running"\n      },\n'
	done
	printf '      {\n         "engine": "lxc",\n         "name": "hq7\\ntouch P7",\n'
	printf '         "id": "x",\n         "pid": 1,\n         "state": "running"\n      }\n   ]\n}\n'
} >"$tmp/stub/list.json"

# ran SHELL LINE NAME DESC: LINE, run by SHELL, gave hijack NAME and
# created none of the files the names try to.
ran() {
	rm -f "$tmp/stub/arg" "$tmp/run"/P*
	(cd "$tmp/run" && PATH="$tmp/stub:$PATH" "$1" -c "$2" >/dev/null 2>&1)
	got=$(cat "$tmp/stub/arg" 2>/dev/null)
	made=$(ls "$tmp/run")
	is "$got|$made" "$3|" "$4"
}

i=0
while IFS= read -r name; do
	i=$((i + 1))
	line=$(PATH="$tmp/stub:$PATH" comp plain "hijack hq$i")
	ran bash "hijack $line" "$name" \
		"bash: a name with shell syntax (hq$i) goes in quoted, one word, running nothing"
done <"$tmp/stub/names"
line=$(PATH="$tmp/stub:$PATH" comp plain "hijack hq7")
is "$line" "" "bash: a name with an escaped control character is not offered"

if [ -z "$why" ]; then
	# zcapture.zsh gives each line a zsh of its own (zsh 5.9 died of a
	# corrupted heap over a series of these completions): every line
	# must come back, completed.
	zb=$(PATH="$tmp/stub:$PATH" ZCAPTURE_BUFFER=1 zsh -f "$TESTDIR/zcapture.zsh" \
		"$(dirname "$zshfile")" "$tmp/zcapture.out" \
		'hijack hq1' 'hijack hq2' 'hijack hq3' 'hijack hq4' 'hijack hq5' \
		'hijack hq6' 'hijack lxc:hq3' 'hijack hq7' 2>&1)
	{ cat "$tmp/stub/names"; echo 'lxc:hq3$(touch P3)'; } >"$tmp/znames"
	i=0
	while IFS= read -r name; do
		i=$((i + 1))
		ran zsh "$(echo "$zb" | sed -n "${i}p")" "$name" \
			"zsh: a name with shell syntax (case $i) goes in quoted, one word, running nothing"
	done <"$tmp/znames"
	is "$(echo "$zb" | sed -n 8p)" "hijack hq7" "zsh: a name with an escaped control character is not offered"
else
	i=0
	while [ $i -lt 8 ]; do
		skip "zsh: hostile names, case $i" "$why"
		i=$((i + 1))
	done
fi

# The option lists stay in LC_ALL=C order, as their comments ask, so that
# a missing or doubled option is easy to see.
bash --norc --noprofile -c '. "$1" &&
	for l in "$_hijack_long_opts" "$_hijack_short_opts" "$_hijack_arg_opts"; do
		printf "%s\n" $l | LC_ALL=C sort -c || exit 1
	done' sh "$bashfile"
ok $? "bash completion: option lists sorted in LC_ALL=C order"
sed -n "/^args=(/,/^)/p" "$zshfile" | grep "^	'" | grep -v "^	'(-)1:\|^	'\*::" |
	LC_ALL=C sort -c
ok $? "zsh completion: option specs sorted in LC_ALL=C order"

# hijack(1) renders without a warning.
if command -v groff >/dev/null 2>&1; then
	is "$(groff -man -ww -z "$manfile" 2>&1)" "" "hijack(1): groff -man -ww has no warning"
else
	skip "hijack(1): groff -man -ww has no warning" "groff is not installed"
fi
if command -v mandoc >/dev/null 2>&1; then
	is "$(mandoc -Tlint -Wwarning "$manfile" 2>&1)" "" "hijack(1): mandoc -Tlint has no warning"
else
	skip "hijack(1): mandoc -Tlint has no warning" "mandoc is not installed"
fi

bashopts=$(bash --norc --noprofile -c '. "$1" && echo $_hijack_long_opts' sh "$bashfile")

# And the other way round: nothing offered or documented that the CLI has
# not (an option renamed or removed).  In hijack(1), the options are the
# heading lines after .TP.
stale() {
	for o in $1; do
		echo "$longopts" | grep -qx -- "$o" || printf '%s ' "$o"
	done
}
is "$(stale "$(echo "$bashopts" | tr ' ' '\n' | sed 's/=$//' | sort -u)")" "" \
	"bash completion offers no option the CLI lacks"
is "$(stale "$(sed -n "/^args=(/,/^)/p" "$zshfile" | grep -o -- "--[a-z][a-z-]*" | sort -u)")" "" \
	"zsh completion offers no option the CLI lacks"
manopts=$(sed -n '/^\.TP$/{n;p;}' "$manfile" | sed 's/\\-/-/g' | grep -o -- '--[a-z][a-z-]*' | sort -u)
is "$(stale "$manopts")" "" "hijack(1) documents no option the CLI lacks"

# Every long option, in each of the three places.  bash: the
# word list the completion offers; zsh: an _arguments spec ("--opt=",
# "--opt[", "--opt}" of a brace pair); man: a heading line after .TP.
for o in $longopts; do
	has_word "$bashopts" "$o"
	ok $? "bash completion offers $o"
	grep -Eq -- "[,'*)]$o[=}[+-]" "$zshfile"
	ok $? "zsh completion offers $o"
	has_word "$(echo $manopts)" "$o"
	ok $? "hijack(1) documents $o"
done

finish
