# zcapture.zsh DIR OUT LINE...: what zsh offers after <TAB> on each LINE,
# one line of sorted candidates each, with the completion functions of DIR
# (07-completions.t, 13-engines.t).  With ZCAPTURE_BUFFER=1 in the
# environment: the command line itself after the completion, as zsh edited
# it, with "<NL>" for each newline in it; one widget completes and records
# the line, so that no key typed after it can reach the line first.
#
# An interactive zsh on a pseudo-terminal
# (zsh/zpty), whose compadd is wrapped to append every match it is given
# to a file.  zle reads the keys in order, so the line typed after the TAB
# runs only once the completion is over: it writes a marker to wait for.
# Each line gets a zsh of its own: zsh 5.9 corrupts its heap now and then
# over a series of completions of names with shell syntax, and dies
# ("corrupted size vs. prev_size"), which no single completion does.
zmodload zsh/zpty || exit 2
dir=$1 out=$2
shift 2
: >$out
# What zsh echoes is read and dropped as it comes: a pseudo-terminal whose
# output nobody reads fills, and zsh then blocks on its next write.
drain() {
	local junk
	while zpty -r -t z junk 2>/dev/null; do :; done
}
wait_ready() {
	integer n=0
	until grep -qx ready $out; do
		drain
		sleep 0.05
		(( ++n > 1200 )) && { print -u2 "zsh did not answer in 60 s"; exit 3 }
	done
}
start() {
	zpty z zsh -f -i
	zpty -w z "PS1=''; unsetopt autolist listambiguous beep; LISTMAX=1000000"
	zpty -w z "fpath=(${(q)dir} \$fpath); autoload -U compinit; compinit -u -D"
	zpty -w z "compadd() { local -a h; if (( \${@[(I)-[OAD]*]} )); then builtin compadd \"\$@\"; return; fi; builtin compadd -A h \"\$@\"; print -rl -- \$h >>${(q)out}; builtin compadd \"\$@\"; }"
	zpty -w z "zcapture-buffer() { zle complete-word; print -r -- \"BUFFER:\${BUFFER//\$'\\n'/<NL>}\" >>${(q)out} }; zle -N zcapture-buffer; bindkey '^B' zcapture-buffer"
	zpty -w z "print ready >>${(q)out}"
	wait_ready
}
for line in "$@"; do
	: >$out
	start
	: >$out
	if [[ -n $ZCAPTURE_BUFFER ]]; then
		zpty -n -w z "$line"$'\C-b'$'\C-u'"print ready >>${(q)out}"$'\n'
		wait_ready
		print -r -- "$(sed -n 's/^BUFFER://p' $out)"
	else
		zpty -n -w z "$line"$'\t'$'\C-u'"print ready >>${(q)out}"$'\n'
		wait_ready
		print -r -- "$(grep -vx -e ready -e '' -e 'BUFFER:*' $out | LC_ALL=C sort -u | tr '\n' ' ' | sed 's/ $//')"
	fi
	zpty -d z
done
