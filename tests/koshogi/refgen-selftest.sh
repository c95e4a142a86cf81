#!/bin/sh
# Self-test of tests/koshogi/refgen.py, the simple Ko shogi generator: the start FEEN
# against the string printed in koma(7) (SUPPORTED GAMES), perft d1 of the start (223, counted
# by hand piece by piece in tests/koshogi/README.md), and small positions whose move
# lists were worked out by hand from the rules (each names the readings of
# tests/koshogi/README.md it tests).
# Usage: refgen-selftest.sh      (exit 0 when every check passes)
here=$(dirname "$0")
gen="python3 $here/refgen.py"
LC_ALL=C
export LC_ALL
pass=0 fail=0
tmp=${TMPDIR:-/tmp}/refgen-selftest.$$
trap 'rm -f "$tmp".*' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "refgen-selftest: FAILED $*" >&2; }

# same NAME GOT WANT
same() { if [ "$2" = "$3" ]; then ok; else bad "$1: got '$2', want '$3'"; fi; }

# moves NAME FEEN PREFIX: the moves starting with PREFIX ('' = all) must be exactly
# the whitespace-separated list on stdin.
moves() {
    tr -s ' \n' '\n\n' | sed '/^$/d' | sort >"$tmp.want"
    if ! $gen moves "$2" >"$tmp.all" 2>"$tmp.err"; then bad "$1: exit status $? ($(cat "$tmp.err"))"; return; fi
    grep "^$3" "$tmp.all" | sort >"$tmp.got"
    if cmp -s "$tmp.got" "$tmp.want"; then ok; else
        bad "$1"; diff "$tmp.want" "$tmp.got" | sed 's/^/    /' >&2
    fi
}

# fails NAME ARGS...: must exit 1 with a message on stderr.
fails() {
    name=$1; shift
    $gen "$@" >"$tmp.out" 2>"$tmp.err"; st=$?
    if [ "$st" = 1 ] && [ -s "$tmp.err" ] && [ ! -s "$tmp.out" ]; then ok; else bad "$name: exit $st, stderr '$(cat "$tmp.err")'"; fi
}

# ---- start position (setup) -------------------------------------------------
doc="atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / K/k"
start=$($gen start)
same "start FEEN = koma(7)'s" "$start" "$doc"
same "start perft d1" "$($gen perft "$start" 1)" 223
same "start d1 = number of moves" "$($gen moves "$start" | sort -u | wc -l | tr -d ' ')" 223
# double-movers.pass false: the wrestlers' pass "..." (one move for both) is gone
same "start perft d1, no pass" "$($gen -o double-movers.pass=false perft "$start" 1)" 222
$gen -o gatling.range=5 start >/dev/null 2>&1
same "an option refgen does not play: usage error" "$?" 2
# The FEEN writer round trip: a6-a7 and back, hands empty, turn back to K/k.
p1=$($gen apply "$start" a6-a7)
same "apply a6-a7" "$p1" "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'r'/9v9/19/19/19/19/19/R'8V9/1S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / k/K"
p2=$($gen apply "$p1" s14-s13)
same "apply s14-s13 (second player)" "$($gen apply "$p2" a7-a6)" \
    "atujg'gwzok^izwgg'jut'a/a'h1q'1q1yb^m^dy1q1q'1ha'/ecxlecxlefelxcelxce/n'1n1n1n1n1n1n1n1n1n'/1p'1p1p1p1p'1p1p1p1p'1/r's'rsrsrsrs'rsrsrsrs'1/9v8r'/19/19/19/19/19/9V9/R'S'RSRSRSRS'RSRSRSRS'R'/1P'1P1P1P1P'1P1P1P1P'1/N'1N1N1N1N1N1N1N1N1N'/ECXLECXLEFELXCELXCE/A'H1Q'1Q1YDM^B^Y1Q1Q'1HA'/AT'UJG'GWZIK^OZWGG'JUTA / k/K"
# The chariot unit takes the opposing one in the zone: promotion optional (zone
# promotion), the victim into the hand (inert hands).
# The victim keeps its token (lowercase) in the first player's hand.
same "a6+a14 into the hand" "$($gen apply "$start" a6+a14 | cut -d' ' -f2-)" "r'/ k/K"
same "a6+a14=+R'" "$($gen apply "$start" "a6+a14=+R'" | cut -d/ -f6,14)" "+R's'rsrsrsrs'rsrsrsrs'r'/1S'RSRSRSRS'RSRSRSRS'R'"

# ---- the wrestler (double movers): two king steps, igui, pass, no leap over a friend
moves wrestler "9k^9/19/19/19/19/19/19/19/19/19/19/19/5g13/4p14/3PWr13/19/19/19/9K^9 / K/k" "" <<'EOF'
+e6 +f5 ... d5-c5 d5-d4 e5+e6 e5+e6,+f5 e5+f5 e5+f5,+e6 e5+f7 e5+f7,+e6 e5-c3 e5-c4
e5-c5 e5-c6 e5-c7 e5-d3 e5-d4 e5-d6 e5-d6,+e6 e5-d7 e5-d7,+e6 e5-e3 e5-e4 e5-e4,+f5
e5-e7 e5-e7,+e6 e5-f3 e5-f4 e5-f4,+f5 e5-f6 e5-f6,+e6 e5-f6,+f5 e5-g3 e5-g4
e5-g4,+f5 e5-g5 e5-g5,+f5 e5-g6 e5-g6,+f5 e5-g7 j1-i1 j1-i2 j1-j2 j1-k1 j1-k2
EOF
# (the pawn d5 has no forward step: no drum on the board; pawn and drum)

# ---- the long bow: step, then one blocked shot up to 3 points; shields immune
# (immunities, shooting, shot range)
moves "long bow" "18k^/19/19/19/9r9/10g8/8sc9/19/6nP3p7/9L9/19/19/19/19/19/19/19/19/K^18 / K/k" j10 <<'EOF'
j10-i11 j10-i11,+l11 j10-i9 j10-i9,+g11 j10-k11 j10-k11,+k14 j10-k11,+l11 j10-k9
EOF

# ---- the gatling: two shots, the second behind the first; the light is no fog
# (immunities, shooting)
moves gatling "18k^/19/9+t9/19/19/19/9n9/19/9n9/3+t'15/8F1E8/7E1E9/19/19/19/19/19/19/K^18 / K/k" i9 <<'EOF'
i9-h10 i9-h10,+d10 i9-j10 i9-j10,+d10 i9-j10,+d10,+j11 i9-j10,+j11 i9-j10,+j11,+j13
EOF
# The fog can be shot only by the gatling family from 6 or 7 points (immunities).
moves "fog at 6" "18k^/19/19/9+t9/19/19/19/19/19/19/8F10/19/19/19/19/19/19/19/K^18 / K/k" i9 <<'EOF'
i9-h10 i9-h8 i9-j10 i9-j10,+j16 i9-j8
EOF
moves "fog at 5 and 7" "18k^/19/19/19/9+t9/19/19/19/19/19/8F10/19/19/19/19/19/19/19/K^18 / K/k" i9 <<'EOF'
i9-h10 i9-h8 i9-j10 i9-j8 i9-j8,+j15
EOF

# ---- the cannon: shoots over pieces up to 5 points; S' and +S' immune to it (immunities)
moves cannon "18k^/19/19/19/19/9r3pg4/5+t3s'2s'6/9s9/9P1+s'7/3e15/8C10/19/19/19/19/19/19/19/K^18 / K/k" i9 <<'EOF'
i9-h10 i9-h10,+d10 i9-h10,+j12 i9-h8 i9-j10 i9-j10,+j12 i9-j10,+j14 i9-j10,+n14 i9-j8 i9-j8,+j12
EOF

# ---- the poison flame burns where it lands, an enemy flame included (burning,
# burned on arrival)
moves "flame burns" "18k^/19/19/19/19/19/19/3np+u13/6g12/2+u1+U14/19/19/19/19/19/19/19/19/K^18 / K/k" e10 <<'EOF'
e10-d11,+c10,+d12,+e12 e10-e11,+d12,+e12,+f12 e10-e9 e10-f11,+g11,+e12,+f12
EOF
# A mover landing next to an enemy flame is burned, and goes to its own side's hand
# (burned on arrival, inert hands).
burned="18k^/19/19/19/19/6n12/5p13/4+u14/19/4G14/19/19/19/19/19/19/19/19/K^18 / K/k"
moves "burned on arrival" "$burned" e10 <<'EOF'
e10-d10 e10-d11,+d11 e10-e11,+e11 e10-e9 e10-f10 e10-f11,+f11
EOF
same "burned actor in hand" "$($gen apply "$burned" e10-e11,+e11)" \
    "18k^/19/19/19/19/6n12/5p13/4+u14/19/19/19/19/19/19/19/19/19/19/K^18 G/ k/K"

# A mover that shoots the enemy flame it lands beside survives ("after its own captures").
moves "shot saves from the flame" "18k^/19/19/19/19/19/19/10+u8/12p6/9L9/19/19/19/19/19/19/19/19/K^18 / K/k" j10 <<'EOF'
j10-i11 j10-i9 j10-k11,+k11 j10-k11,+k11,+m11 j10-k11,+k12 j10-k9 j10-k9,+k12 j10-k9,+m11
EOF

# ---- the clerk: capture promotion, zone condition, cascade
clerk="b^16+uk^/19/19/A6+u11/A'18/7m^10+A/8I10/19/19/16+U2/19/19/19/19/19/19/19/19/K^18 / K/k"
moves clerk "$clerk" i13 <<'EOF'
i13+h14=+I,+h16,+r19,a15=+A',a16=+A i13-g13 i13-h12 i13-i11 i13-i15,+i15 i13-j12
i13-j14 i13-j14=+I,+h16,+r19,a15=+A',a16=+A i13-k13
EOF
same "clerk cascade hands" "$($gen apply "$clerk" "i13+h14=+I,+h16,+r19,a15=+A',a16=+A")" \
    "b^17k^/19/19/+A18/+A'18/7+I10+A/19/19/19/16+U2/19/19/19/19/19/19/19/19/K^18 2+um^/ k/K"
# With a guard outside the zone the clerk cannot promote by the zone, only by capture.
moves "clerk, guard outside" "b^16+uk^/19/19/7+u11/A'18/7m^10+A/8I10/19/19/16+U2/19/19/19/A18/19/19/19/19/K^18 / K/k" i13 <<'EOF'
i13+h14=+I,+h16,+r19,a6=+A,a15=+A' i13-g13 i13-h12 i13-i11 i13-i15,+i15 i13-j12 i13-j14 i13-k13
EOF

# ---- the thunderclap: 36 end points of five-step walks; priest loss
same "thunderclap (with priest)" \
    "$($gen moves "18k^/19/19/19/19/19/19/19/19/9+D9/19/19/19/19/19/19/19/19/K^16T1 / K/k" | grep -c '^j10')" 36
moves "thunderclap without priest reverts" "18k^/19/19/19/19/19/19/19/9p9/9+D9/19/19/19/19/19/19/19/19/K^18 / K/k" j10-j15 <<'EOF'
j10-j15=D,+j11
EOF
moves "enemy priest taken: their +D, +B^ revert" "18k^/19/19/19/2+b^14p1/19/19/10t8/10+d8/9N9/19/19/19/19/19/19/19/19/K^18 / K/k" j10 <<'EOF'
j10+k12,k11=d,c15=b^ j10-h11 j10-h9 j10-i12 j10-i8 j10-k8 j10-l11 j10-l9
EOF

# ---- priest family: jumps, priest-family captures, adjacent shot; the fog reversion
# (priest jumps, fog reversion)
moves priest "18k^/19/19/19/19/19/10+t8/9t'1p7/7g11/7P1T9/19/19/19/19/19/19/19/19/K^18 / K/k" j10 <<'EOF'
j10+j12 j10-h12 j10-h12,+h11 j10-h8 j10-j8 j10-l10 j10-l8
EOF
moves "no fog next to a light" "18k^/19/19/19/19/9T4+t'4/19/9p9/19/19/19/19/19/19/19/19/19/19/K^18 / K/k" j14 <<'EOF'
j14-h12 j14-h12=+T j14-h14 j14-h14=+T j14-h16 j14-h16=+T j14-j16 j14-j16=+T j14-l12
j14-l12=+T j14-l14 j14-l16 j14-l16=+T
EOF
moves "light: double jump, shots, igui, pass" "18k^/19/19/19/19/19/9p9/19/19/9+T'9/7P11/19/19/19/19/19/19/19/K^18 / K/k" "[.+j]" <<'EOF'
+j13 ... j10-f10 j10-f12 j10-f14 j10-f6 j10-f8 j10-h10 j10-h10,+j13 j10-h12 j10-h12,+j13
j10-h14 j10-h14,+j13 j10-h6 j10-h8 j10-j12 j10-j12,+j13 j10-j14 j10-j14,+j13 j10-j6 j10-j8
j10-l10 j10-l10,+j13 j10-l12 j10-l12,+j13 j10-l14 j10-l14,+j13 j10-l6 j10-l8 j10-n10
j10-n12 j10-n14 j10-n6 j10-n8
EOF

# ---- the cavalry: second leap keeps the heading or returns; igui/pass promote in the
# zone (zone promotion, double movers)
moves cavalry "18k^/19/10p8/19/9N'9/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k" "[.+j]" <<'EOF'
+k17 +k17,j15=+N' ... j15+k17 j15+k17=+N' j15-f13 j15-f13=+N' j15-f15 j15-f15=+N'
j15-f17 j15-f17=+N' j15-h11 j15-h11=+N' j15-h14 j15-h14=+N' j15-h16 j15-h16=+N'
j15-h19 j15-h19=+N' j15-i13 j15-i13=+N' j15-i17 j15-i17=+N' j15-j11 j15-j11=+N'
j15-j19 j15-j19,+k17 j15-j19=+N' j15-j19=+N',+k17 j15-k13 j15-k13=+N' j15-l11
j15-l11=+N' j15-l14 j15-l14=+N' j15-l16 j15-l16=+N' j15-l19,+k17 j15-l19=+N',+k17
j15-n13 j15-n13=+N' j15-n15 j15-n15=+N' j15-n17 j15-n17=+N' j15=+N'
EOF

# ---- game end (commanding pieces, survival): a side without general, governor, or middle troop + banner
lost="9m^9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k"
same "no moves when a side has lost" "$($gen moves "$lost" | wc -l | tr -d ' ')" 0
same "perft 1 of a lost position" "$($gen perft "$lost" 1)" 0
same "perft 0 of a lost position" "$($gen perft "$lost" 0)" 1
same "middle troop + banner survive" \
    "$($gen moves "1b^7m^9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k" | wc -l | tr -d ' ')" 3
same "governor survives" \
    "$($gen moves "9+m^9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k" | wc -l | tr -d ' ')" 3
same "roaming assault counts as the banner" \
    "$($gen moves "1+b^7m^9/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / k/K" | wc -l | tr -d ' ')" 16

# ---- hands keep the canonical order of koma-formats(5), FEEN, Hands (inert hands)
same "hand order" "$($gen apply "18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/1n17/K^18 nP/2+p K/k" a1+b2 | cut -d' ' -f2-)" \
    "2nP/2+p k/K"

# ---- perft --divide adds up
div=$($gen perft "$burned" 2 --divide)
same "divide total" "$(printf '%s\n' "$div" | tail -n 1)" "Nodes searched: $($gen perft "$burned" 2)"
same "divide sum" "$(printf '%s\n' "$div" | sed '$d' | awk -F': ' '{s += $2} END {print s}')" "$($gen perft "$burned" 2)"
same "divide sorted" "$(printf '%s\n' "$div" | sed '$d' | cut -d: -f1 | sort -c && echo yes)" yes

# ---- bad input
fails "18 ranks" moves "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 / K/k"
fails "chess style-turn" moves "$(printf '%s' "$lost" | sed 's|K/k$|C/c|')"
fails "two priests" moves "18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^TT16 / K/k"
fails "diminished token" moves "18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^-P17 / K/k"
fails "hand order" moves "18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^18 PN/ K/k"
fails "short rank" moves "18k^/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/K^17 / K/k"
fails "illegal chain" apply "$start" a6-a15
fails "non-canonical chain" apply "$clerk" "i13+h14=+I,+r19,+h16,a15=+A',a16=+A"

echo "refgen-selftest: $pass passed, $fail failed"
[ "$fail" = 0 ] && [ "$pass" -gt 0 ]
