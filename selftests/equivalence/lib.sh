# SPDX-License-Identifier: Apache-2.0
# What selftests/apply-equivalence.sh and selftests/vskube-e2e.sh read of a
# scenario of this directory, and what its in-process run decided. Sourced;
# the caller sets $tmp, a directory of its own.

# An awk function for the entries of a scenario's lists, written on one
# line ("  - {name: p1, namespace: ns, ...}"): val(KEY) is KEY's value on
# the line read, unquoted, "" when absent.
scenario_val='
	function val(key,    s) {
		if (!match($0, "[{,] *" key ": *[^,}]+"))
			return ""
		s = substr($0, RSTART, RLENGTH)
		sub("^[{,] *" key ": *", "", s)
		gsub(/"/, "", s)
		return s
	}
'

# The text of the scenario's "conf: |" block, unindented: the daemon's --conf.
conf_of() {
	awk '
		/^conf: *\|/ { inconf = 1; next }
		inconf && /^[^ ]/ { exit }
		inconf { sub(/^  /, ""); print }
	' "$1"
}

cycles_of() {
	n=$(sed -n 's/^cycles: *\([0-9][0-9]*\) *$/\1/p' "$1")
	echo "${n:-1}"
}

# The scenario's pods as they start: "task NS/NAME NODE STATUS", NODE "-" for
# none. Each pod is an entry "  - {name: ..., namespace: ..." of "pods:",
# its name, namespace, node and phase on that first line.
pods_of() {
	awk "$scenario_val"'
		/^pods:/ { inpods = 1; next }
		inpods && /^[^ ]/ { exit }
		inpods && /^  - *\{/ {
			ns = val("namespace"); node = val("node"); phase = val("phase")
			if (ns == "") ns = "default"
			if (node == "") node = "-"
			if (phase == "") phase = node == "-" ? "Pending" : "Bound"
			print "task " ns "/" val("name") " " node " " phase
		}
	' "$1"
}

# The in-process state after the run: the pods of @1 with the decisions that
# "-v" printed in @2, PodGroup phases, and the counts.
local_state() {
	pods_of "$1" >"$tmp/pods"
	awk -v pods="$tmp/pods" '
		function items(line, what,    n, a, i, kv) {
			sub(/^    [a-zA-Z]+: /, "", line)
			if (line == "none")
				return 0
			n = split(line, a, /, /)
			for (i = 1; i <= n; i++) {
				split(a[i], kv, / -> /)
				if (what == "bind") node[kv[1]] = kv[2]
				else if (what == "evict") gone[kv[1]] = 1
				else print "podgroup " kv[1] " " kv[2]
			}
			return n
		}
		/^    binds: /         { nbinds = items($0, "bind") }
		/^    evicts: /        { nevicts = items($0, "evict") }
		/^    podgroupPhase: / { items($0, "phase") }
		END {
			while ((getline l < pods) > 0) {
				split(l, f, / /)
				if (f[2] in gone) continue
				if (f[2] in node) print "task " f[2] " " node[f[2]] " Running"
				else print l
			}
			print "binds " nbinds + 0
			print "evicts " nevicts + 0
		}
	' "$2"
}

# The daemon's objects: "task NS/NAME NODE STATUS" from "vsctl task list -j"
# in @1, "podgroup NS/NAME PHASE" from "vsctl podgroup list -j" in @2 (each
# object's own fields are the lines indented by four).
daemon_state() {
	awk '
		/^  \{/ { ns = ""; name = ""; node = "-"; status = ""; phase = "" }
		/^    "[a-zA-Z]+": / {
			k = $1; gsub(/[":]/, "", k)
			v = $0; sub(/^    "[a-zA-Z]+": */, "", v); sub(/,$/, "", v); gsub(/"/, "", v)
			if (k == "namespace") ns = v
			else if (k == "name") name = v
			else if (k == "node") node = v
			else if (k == "status") status = v
			else if (k == "phase") phase = v
		}
		/^  \}/ {
			if (phase != "") print "podgroup " ns "/" name " " phase
			else print "task " ns "/" name " " node " " status
		}
	' "$1" "$2"
}

# The scenario's PodGroups as they start: "podgroup NS/NAME PHASE", as
# pods_of() reads the pods.
podgroups_of() {
	awk "$scenario_val"'
		/^podgroups:/ { inpgs = 1; next }
		inpgs && /^[^ ]/ { exit }
		inpgs && /^  - *\{/ {
			ns = val("namespace"); phase = val("phase")
			if (ns == "") ns = "default"
			if (phase == "") phase = "Pending"
			print "podgroup " ns "/" val("name") " " phase
		}
	' "$1"
}
