# swap_cables.awk — swaps the far ends of two cables in an ibnetdiscover file:
# cable A (switch ids A1 port PA1 to A2 port PA2) and cable B (B1 PB1 to B2 PB2)
# become A1:PA1-B2:PB2 and B1:PB1-A2:PA2, on the four port lines that name them.
#   awk -v A1=ID -v PA1=P -v A2=ID -v PA2=P -v B1=ID -v PB1=P -v B2=ID -v PB2=P -f swap_cables.awk
function end(id, p) { return "\"" id "\"[" p "]" }
/^Switch/ { split($0, q, "\""); cur = q[2] }
/^\[/ {
    split($0, f, "\t"); port = substr(f[1], 2, length(f[1]) - 2)
    if (cur == A1 && port == PA1) sub(/"[^"]*"\[[0-9]+\]/, end(B2, PB2))
    else if (cur == B2 && port == PB2) sub(/"[^"]*"\[[0-9]+\]/, end(A1, PA1))
    else if (cur == B1 && port == PB1) sub(/"[^"]*"\[[0-9]+\]/, end(A2, PA2))
    else if (cur == A2 && port == PA2) sub(/"[^"]*"\[[0-9]+\]/, end(B1, PB1))
}
{ print }
