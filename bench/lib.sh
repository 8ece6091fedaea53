# bench/lib.sh -- what the small benchmark scripts share; sourced.

# median: the median of the numbers on standard input, one per line (the
# lower middle one of an even count).
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
