# lfts_norm.awk — an LFT dump (dump_fts, OpenSM, moore) as one line per entry,
# "switch-guid port-guid lid-offset out-port", so dumps taken with different
# LID assignments compare entry for entry. The offset of a LID is its distance
# from the smallest LID the dump gives the same port GUID.
function hex(s,    i, v) {
    s = tolower(substr(s, 3)); v = 0
    for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
    return v
}
/^Unicast lids/ { for (i = 1; i <= NF; i++) if ($i == "guid") sw = $(i + 1) }
/^0x[0-9a-fA-F]+ [0-9]+ / {
    lid = hex($1)
    for (i = 1; i <= NF; i++) if ($i == "portguid") pg = $(i + 1)
    sub(/[:)]+$/, "", pg)
    n++; S[n] = sw; P[n] = pg; L[n] = lid; O[n] = $2 + 0
    if (!(pg in base) || lid < base[pg]) base[pg] = lid
}
END { for (i = 1; i <= n; i++) printf "%s %s %d %d\n", tolower(S[i]), tolower(P[i]), L[i] - base[P[i]], O[i] }
