# throughput_summary.awk — reads the section-3 rows of docs/throughput.md
# (| switches | degree | servers | topology | uniform | worst | ...) and prints
# Xpander against the mean of the Jellyfish seeds at each size, as a table.
# Used by bench/throughput_table.sh; runs on any finished output too.
BEGIN { FS = "|" }
/^## 3\./ { in3 = 1; next }
/^## / && !/^## 3\./ { in3 = 0 }
in3 && $2 ~ /^ *[0-9]+ *$/ {
    n = $2 + 0
    if ($5 ~ /Xpander/) { xu[n] = $6 + 0; xw[n] = $7 + 0 }
    else if ($5 ~ /Jellyfish/) { ju[n] += $6; jw[n] += $7; jc[n]++ }
}
END {
    print "| switches | Xpander uniform | Jellyfish uniform (mean) | Xpander − Jellyfish | Xpander worst | Jellyfish worst (mean) | Xpander − Jellyfish |"
    print "|---|---|---|---|---|---|---|"
    for (n = 1; n <= 1000000; n++)
        if ((n in xu) && jc[n] > 0) {
            mu = ju[n] / jc[n]; mw = jw[n] / jc[n]
            printf "| %d | %.4f | %.4f | %+.1f%% | %.4f | %.4f | %+.1f%% |\n", n, xu[n], mu,
                   100 * (xu[n] / mu - 1), xw[n], mw, 100 * (xw[n] / mw - 1)
        }
}
