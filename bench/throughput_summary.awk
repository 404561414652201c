# throughput_summary.awk — reads the section-3 rows of docs/throughput.md
# (| switches | degree | servers | topology | uniform | worst | ...) and prints
# the mean of the Xpander rows against the mean of the Jellyfish rows at each
# size, as a table.
# Used by bench/throughput_table.sh; runs on any finished output too.
BEGIN { FS = "|" }
/^## 3\./ { in3 = 1; next }
/^##/ && !/^## 3\./ { in3 = 0 }
in3 && $2 ~ /^ *[0-9]+ *$/ {
    n = $2 + 0
    if ($5 ~ /Xpander/) { xu[n] += $6; xw[n] += $7; xc[n]++ }
    else if ($5 ~ /Jellyfish/) { ju[n] += $6; jw[n] += $7; jc[n]++ }
}
END {
    print "| switches | Xpander uniform (mean) | Jellyfish uniform (mean) | Xpander − Jellyfish | Xpander worst (mean) | Jellyfish worst (mean) | Xpander − Jellyfish |"
    print "|---|---|---|---|---|---|---|"
    for (n = 1; n <= 1000000; n++)
        if (xc[n] > 0 && jc[n] > 0) {
            xmu = xu[n] / xc[n]; xmw = xw[n] / xc[n]; mu = ju[n] / jc[n]; mw = jw[n] / jc[n]
            printf "| %d | %.4f | %.4f | %+.1f%% | %.4f | %.4f | %+.1f%% |\n", n, xmu, mu,
                   100 * (xmu / mu - 1), xmw, mw, 100 * (xmw / mw - 1)
        }
}
