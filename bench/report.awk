# report.awk -- turn the measurements of bench/run into Markdown tables.
# Copyright (C) 2026 the ktee developers.  GPLv3+, as ktee.
#
# Input lines, as bench/run writes them:
#   big SIZE PRODUCER OUTPUTS VARIANT WALL USER SYS MAXRSS
#   pair SIZE PRODUCER OUTPUTS VARIANT then what "measure -p" prints:
#     PAIRS WALL_GNU WALL_VAR RATIO LO HI CPU_GNU CPU_VAR RATIO LO HI
#     MAXRSS_GNU MAXRSS_VAR
#   instr 0 vmsplice OUTPUTS VARIANT INSTR_EMPTY INSTR_FULL
#   sysc 0 vmsplice OUTPUTS VARIANT CALLS_EMPTY CALLS_FULL NAME:N,...
#   real SIZE STDIN CONSUMER OUTPUTS VARIANT RUN WALL USER SYS MAXRSS
#   other (the same, ktee and the other ktee)
#   rpair SIZE STDIN CONSUMER OUTPUTS VARIANT then what "measure -p" prints
#   opair (the same, the other ktee as A and ktee as B)
#   share SIZE STDIN CONSUMER OUTPUTS VARIANT SPLICED_BYTES ALL_BYTES
#     CALL:BYTES,...
# Variables: runs, pairs, count_size, target_size, disk_fs, btrfs_note,
# ktee_name, other_name.
# Works with mawk as well as gawk.

function sort (a, n,    i, j, t)
{
  for (i = 2; i <= n; i++)
    for (j = i; j > 1 && a[j - 1] > a[j]; j--)
      {
        t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
      }
}

# Set med[K], lo[K], hi[K] from the N[K] values in V[K, 1..].
function stats (v, k, med, lo, hi,    a, i, m)
{
  m = n[k]
  for (i = 1; i <= m; i++)
    a[i] = v[k, i]
  sort(a, m)
  med[k] = (m % 2) ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  lo[k] = a[1]
  hi[k] = a[m]
}

function human (b)
{
  if (b >= 1073741824) return (b / 1073741824) " GiB"
  if (b >= 1048576) return (b / 1048576) " MiB"
  return (b / 1024) " KiB"
}

function name (var, outs)
{
  if (var == "base")
    return (outs == "pipe" ? "baseline: no tee" \
            : outs == "tmpfs4" ? "baseline: 1 file alone" \
            : "baseline: file alone")
  if (var == "gnu") return "GNU tee"
  if (var == "gnu2") return "GNU tee (A/A)"
  if (var == "auto") return "**ktee**"
  if (var == "uutils") return "uutils tee"
  if (var == "other") return "other ktee"
  if (var == "splice") return "ktee --copy-method=splice"
  if (var == "pipes")
    return "reference: GNU tee making ktee's " \
           (outs == "pipe" ? "private pipe" : "2 private pipes")
  return "ktee --copy-method=rw"
}

function outs_name (o)
{
  if (o == "pipe") return "none"
  if (o == "tmpfs1") return "1 tmpfs"
  if (o == "tmpfs4") return "4 tmpfs"
  return "1 disk"
}

function ratio (a, b)
{
  return b > 0 ? sprintf("%.3f", a / b) : "-"
}

function times (a, b)
{
  return b > 0 ? sprintf("%.1fx", b / a) : "-"
}

function mark (ok)
{
  return ok ? "**met**" : "**NOT met**"
}

function stdin_name (s)
{
  if (s == "pipe") return "pipe"
  if (s == "vpipe") return "pipe (vmsplice)"
  if (s == "tcp") return "TCP"
  return s
}

function consumer_name (c)
{
  if (c == "gzip") return "`\\| gzip -1`"
  if (c == "cat") return "`\\| cat > /dev/null`"
  if (c == "file") return "`> file`"
  if (c == "drain") return "`\\| drain` (ceiling)"
  return "`\\| " c "`"
}

function files_name (o,    fs)
{
  if (o == "none") return "none"
  fs = substr(o, 1, index(o, ":") - 1)
  if (fs == "disk") fs = "disk (" disk_fs ")"
  return substr(o, index(o, ":") + 1) " " fs
}

# The median of the N values V[1..N] (sorted in place); MIN and MAX are
# left in the globals vmin, vmax.
function median_of (v, n)
{
  sort(v, n)
  vmin = v[1]; vmax = v[n]
  return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

# The median of the values of variant VAR in row ROW of T (T[ROW, VAR,
# RUN], runs 1..real_runs, some missing), or "" if there is none.
function med (t, row, var,    v, m, r)
{
  m = 0
  for (r = 1; r <= real_runs; r++)
    if ((row SUBSEP var SUBSEP r) in t)
      v[++m] = t[row, var, r]
  return m ? median_of(v, m) : ""
}

function med3 (t, row, var,    x)
{
  x = med(t, row, var)
  return x == "" ? "-" : sprintf("%.3f", x)
}

# The per-run ratios A/B of row ROW of T: their count, and in V.
function ratios (t, row, a, b, v,    m, r, ka, kb)
{
  m = 0
  for (r = 1; r <= real_runs; r++)
    {
      ka = row SUBSEP a SUBSEP r; kb = row SUBSEP b SUBSEP r
      if ((ka in t) && (kb in t) && t[kb] > 0)
        v[++m] = t[ka] / t[kb]
    }
  return m
}

# "MEDIAN (MIN-MAX)" of the per-run ratios A/B, or "-".
function paired (t, row, a, b,    v, m, x)
{
  m = ratios(t, row, a, b, v)
  if (!m) return "-"
  x = median_of(v, m)
  return sprintf("%.3f (%.3f-%.3f)", x, vmin, vmax)
}

function paired_median (t, row, a, b,    v, m)
{
  m = ratios(t, row, a, b, v)
  return m ? median_of(v, m) : ""
}

# Whether A took longer than B in every run of row ROW.
function paired_all_above (t, row, a, b,    v, m)
{
  m = ratios(t, row, a, b, v)
  if (!m) return 0
  median_of(v, m)
  return vmin > 1
}

# Whether ktee took longer than GNU tee in every run of row ROW, and in
# every run of its second set (the "confirm" lines).
function slower (row)
{
  return paired_all_above(rwall, row, "auto", "gnu") \
         && paired_all_above(cwall, row, "auto", "gnu")
}

# Target 7 or 8: "CONSUMER RATIO (dd DD), ..." of the CPU of ktee over
# GNU tee's, standard input a file, output configuration OUTS, and of dd
# writing the same bytes into one file over GNU tee's: a read and a
# write per block, and the write is a copy no tee can avoid where the
# file system shares no pages between files.  Sets cpu_checked (some row
# found) and cpu_ok (every ratio of ktee at most LIMIT).
function cpu_target (outs, limit,    j, row, f, x, d, text)
{
  cpu_checked = 0; cpu_ok = 1; text = ""
  for (j = 1; j <= nrows; j++)
    {
      row = rorder[j]
      split(row, f, SUBSEP)
      if (f[1] != "file" || f[3] != outs)
        continue
      x = paired_median(rcpu, row, "auto", "gnu")
      if (x == "")
        continue
      cpu_checked = 1
      if (x > limit)
        cpu_ok = 0
      d = paired_median(rcpu, row, "dd", "gnu")
      text = text (text == "" ? "" : ", ") consumer_name(f[2]) " " \
             sprintf("%.3f", x) (d == "" ? "" : sprintf(" (dd %.3f)", d))
    }
  return text
}

$1 == "big" {
  k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
  if (!(k in n))
    {
      n[k] = 0
      order[++nkeys] = k
    }
  i = ++n[k]
  wall[k, i] = $6
  cpu[k, i] = $7 + $8
  if (rss[k] < $9)
    rss[k] = $9
}

$1 == "pair" {
  pk = $2 SUBSEP $4 SUBSEP $5
  porder[++npairs] = pk
  psize[pk] = $2; pouts[pk] = $4; pvar[pk] = $5
  pwall_g[pk] = $7; pwall_v[pk] = $8
  pwr[pk] = $9; pwlo[pk] = $10; pwhi[pk] = $11
  pcpu_g[pk] = $12; pcpu_v[pk] = $13
  pcr[pk] = $14; pclo[pk] = $15; pchi[pk] = $16
  prss[pk] = $18
}

$1 == "instr" {
  ik = $4 SUBSEP $5
  instr0[ik] = $6
  instr1[ik] = $7
  has_instr = 1
}

$1 == "sysc" {
  ik = $4 SUBSEP $5
  sysc0[ik] = $6
  sysc1[ik] = $7
  sysl[ik] = $8
  has_sysc = 1
}

$1 == "real" || $1 == "other" {
  row = $3 SUBSEP $4 SUBSEP $5
  if ($7 > real_runs)
    real_runs = $7
  if ($1 == "real")
    {
      if (!(row in rseen))
        {
          rseen[row] = 1
          rorder[++nrows] = row
        }
      rwall[row, $6, $7] = $8
      rcpu[row, $6, $7] = $9 + $10
      rsize[row] = $2
      if ($2 + 0 > real_size + 0)
        real_size = $2
    }
  else
    {
      if (!(row in oseen))
        {
          oseen[row] = 1
          oorder[++norows] = row
        }
      owall[row, $6, $7] = $8
      ocpu[row, $6, $7] = $9 + $10
      if (real_size == "")
        real_size = $2
    }
}

$1 == "confirm" {
  cwall[$3 SUBSEP $4 SUBSEP $5, $6, $7] = $8
}

$1 == "rpair" { rp[++nrp] = $0 }
$1 == "opair" { op[++nop] = $0 }
$1 == "share" { sh[++nshare] = $0; share_size = $2 }

END {
  for (j = 1; j <= nkeys; j++)
    {
      k = order[j]
      stats(wall, k, wmed, wlo, whi)
      stats(cpu, k, cmed, clo, chi)
    }

  # Large inputs -----------------------------------------------------
  if (nkeys > 0)
    {
      print "## Ceiling: large inputs into a 1 MiB splice sink"
      print ""
      print "The consumer of these rows, `drain`, grows its pipe to 1 MiB" \
            " and splices it to /dev/null: the most a tee can gain, not" \
            " what common consumers see (for those, see \"Real consumers\"" \
            " below)."
      print ""
      print "Time is the wall-clock time of the whole pipeline `producer | tee" \
            " [FILE]... | consumer`.  CPU and peak RSS are those of the tee" \
            " process alone (from wait4); in the baselines, of the consumer" \
            " (\"no tee\": the producer straight into the consumer) or of the" \
            " file writer (\"file alone\": the producer spliced straight into" \
            " the first output file, nothing else).  Ratios are of medians;" \
            " below 1 means ktee is faster or cheaper.  The vmsplice producer" \
            " hands pages to its pipe without copying them; the write producer" \
            " write(2)s 128 KiB at a time, like cat(1), and that copy alone" \
            " bounds its pipelines (see its no-tee baseline)."
      print ""
      print "| input | producer | files | command" \
            " | time s: median (min-max) | MiB/s | CPU s/GiB: median (min-max)" \
            " | peak RSS KiB | time / GNU | CPU / GNU | time / baseline |"
      print "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: " \
            "| ---: |"
      for (j = 1; j <= nkeys; j++)
        {
          k = order[j]
          split(k, f, SUBSEP)
          if (f[1] != "big")
            continue
          size = f[2]; prod = f[3]; outs = f[4]; var = f[5]
          base = "big" SUBSEP size SUBSEP prod SUBSEP outs SUBSEP
          g = base "gnu"
          b = base "base"
          gib = size / 1073741824
          vs_gnu = var == "base" || var == "gnu" ? "" : ratio(wmed[k], wmed[g])
          cpu_gnu = var == "base" || var == "gnu" ? "" : ratio(cmed[k], cmed[g])
          vs_base = var == "base" ? "" : ratio(wmed[k], wmed[b])
          printf "| %s | %s | %s | %s | %.3f (%.3f-%.3f) | %.0f" \
                 " | %.3f (%.3f-%.3f) | %d | %s | %s | %s |\n",
                 human(size), prod, outs_name(outs), name(var, outs),
                 wmed[k], wlo[k], whi[k], size / 1048576 / wmed[k],
                 cmed[k] / gib, clo[k] / gib, chi[k] / gib, rss[k],
                 vs_gnu, cpu_gnu, vs_base
        }
        print ""
    }

  # Small inputs -----------------------------------------------------
  if (npairs > 0)
    {
      print "## Ceiling: small inputs (startup cost)"
      print ""
      printf "A difference of a few microseconds in a pipeline of 1.5 ms is" \
             " smaller than the drift of this machine between two runs, so" \
             " each command runs in pairs with GNU tee: %d pairs of pipelines" \
             " `producer | tee [FILE] | consumer` (write producer), GNU tee" \
             " first in half of them.  Each pair gives the ratio of the" \
             " command's time to GNU tee's; the table gives the median of" \
             " those ratios and its 95%% confidence interval, for the wall" \
             " time of the pipeline and for the CPU time of the tee process." \
             "  The A/A row pairs GNU tee with itself: its interval shows" \
             " what the method makes of no difference at all.  An interval" \
             " above 1 means slower than GNU tee; one that holds 1 shows no" \
             " difference.  The reference row pairs GNU tee with GNU tee made" \
             " (by `pipes.c`, loaded with LD_PRELOAD into both) to create, grow" \
             " and close the private pipes of ktee's zero-copy engine, one for" \
             " a lone output and two for more, and to do nothing else: what" \
             " those pipes alone cost, which `--copy-method=splice` pays" \
             " (ktee copies the first 256 KiB by read and write, and makes" \
             " them only for a longer input).\n", pairs
      print ""
      print "| input | files | command | time ms: GNU, command" \
            " | time / GNU: median (95% CI) | CPU ms: GNU, command" \
            " | CPU / GNU: median (95% CI) | peak RSS KiB |"
      print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
      for (j = 1; j <= npairs; j++)
        {
          pk = porder[j]
          printf "| %s | %s | %s | %.3f, %.3f | %.4f (%.4f-%.4f)" \
                 " | %.3f, %.3f | %.4f (%.4f-%.4f) | %d |\n",
                 human(psize[pk]), outs_name(pouts[pk]),
                 name(pvar[pk], pouts[pk]),
                 pwall_g[pk] * 1000, pwall_v[pk] * 1000,
                 pwr[pk], pwlo[pk], pwhi[pk],
                 pcpu_g[pk] * 1000, pcpu_v[pk] * 1000,
                 pcr[pk], pclo[pk], pchi[pk], prss[pk]
        }
        print ""
    }

  # Counts -----------------------------------------------------------
  if (has_instr || has_sysc)
    {
      mib = count_size / 1048576
      print "## Instructions and system calls per MiB"
      print ""
      printf "The tee process alone, %d MiB from the vmsplice producer, minus a" \
             " run with empty input (whose count is the startup column).", mib
      print "  Instructions come from `valgrind --tool=callgrind` and are user" \
            " space only: callgrind cannot see the kernel, where splice, tee" \
            " and the copies of read and write do their work, so this column" \
            " shows what each engine costs outside the kernel, not its whole" \
            " cost (see the CPU column above for that).  Hardware counters" \
            " (`perf stat -e instructions`) are not available in this VM." \
            "  System calls come from `strace -c`."
      print ""
      print "| command | files | user instructions at startup" \
            " | user instructions per MiB | system calls per MiB" \
            " | most frequent calls (64 MiB run) |"
      print "| --- | --- | ---: | ---: | ---: | --- |"
      split("pipe tmpfs1", olist, " ")
      split("gnu auto rw", vlist, " ")
      for (o = 1; o <= 2; o++)
        for (v = 1; v <= 3; v++)
          {
            ik = olist[o] SUBSEP vlist[v]
            ins0 = has_instr ? sprintf("%d", instr0[ik]) : "n/a"
            ins1 = has_instr ? sprintf("%.0f", (instr1[ik] - instr0[ik]) / mib) \
                             : "n/a"
            sc = has_sysc ? sprintf("%.1f", (sysc1[ik] - sysc0[ik]) / mib) : "n/a"
            top = ""
            if (has_sysc)
              {
                m = split(sysl[ik], calls, ",")
                for (c = 1; c <= m && c <= 4; c++)
                  top = top (c > 1 ? ", " : "") calls[c]
              }
            printf "| %s | %s | %s | %s | %s | %s |\n",
                   name(vlist[v], olist[o]), outs_name(olist[o]), ins0, ins1,
                   sc, top
          }
        print ""
    }

  # Real consumers ---------------------------------------------------
  if (nrows > 0)
    {
      print "## Real consumers"
      print ""
      printf "The ceiling rows above give the tee's output to `drain`, which" \
             " grows its pipe to 1 MiB and splices it to /dev/null: few" \
             " consumers do.  Here the consumers are common ones, reading" \
             " a pipe of the default 64 KiB, and standard input is a pipe" \
             " (the write producer, as cat(1) of a cached file), a file in" \
             " the page cache on the output files' file system (tmpfs with" \
             " none), or a TCP connection on 127.0.0.1 (the write producer" \
             " on the other end).  %s of input (less where the consumer" \
             " says), %d runs; in each run the" \
             " variants of a row run back to back, the first one changing" \
             " from run to run.  Wall: the whole pipeline; CPU: the tee" \
             " process alone (for \"no tee\", the consumer; for dd, dd)." \
             "  Floors: \"no tee\" is the same pipeline without tee; \"dd\"" \
             " is `dd bs=128K` writing the same bytes from the same" \
             " standard input into one file on the same file system (with" \
             " no file, the file system of `> file`), without consumer." \
             "  Times are medians; a ratio to GNU tee is the median of the" \
             " per-run ratios (ktee or uutils tee and GNU tee of the same" \
             " run), with their minimum and maximum.  A row where ktee took" \
             " longer than GNU tee in every run (which equal tees would do" \
             " once in %d rows) is run again, ktee and GNU tee alone, %d" \
             " times: **slower** marks the rows where ktee took longer in" \
             " every run of both sets, \"not confirmed\" those where the" \
             " second set did not.\n",
             human(real_size), real_runs, 2 ^ real_runs, real_runs
      print ""
      print "| stdin | consumer | files | wall s: no tee, dd, GNU, uutils," \
            " ktee | ktee / GNU wall | uutils / GNU wall | ktee / dd wall" \
            " | CPU s: dd, GNU, uutils, ktee | ktee / GNU CPU" \
            " | uutils / GNU CPU |"
      print "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: " \
            "| ---: |"
      for (j = 1; j <= nrows; j++)
        {
          row = rorder[j]
          split(row, f, SUBSEP)
          slow = slower(row) ? " **slower**" \
                 : paired_all_above(rwall, row, "auto", "gnu") \
                 ? " (not confirmed)" : ""
          printf "| %s | %s | %s | %s, %s, %s, %s, %s | %s%s | %s | %s" \
                 " | %s, %s, %s, %s | %s | %s |\n",
                 stdin_name(f[1]),
                 consumer_name(f[2]) (rsize[row] == real_size ? "" \
                                      : " (" human(rsize[row]) ")"),
                 files_name(f[3]),
                 med3(rwall, row, "notee"), med3(rwall, row, "dd"),
                 med3(rwall, row, "gnu"), med3(rwall, row, "uutils"),
                 med3(rwall, row, "auto"),
                 paired(rwall, row, "auto", "gnu"), slow,
                 paired(rwall, row, "uutils", "gnu"),
                 paired(rwall, row, "auto", "dd"),
                 med3(rcpu, row, "dd"), med3(rcpu, row, "gnu"),
                 med3(rcpu, row, "uutils"), med3(rcpu, row, "auto"),
                 paired(rcpu, row, "auto", "gnu"),
                 paired(rcpu, row, "uutils", "gnu")
        }
      print ""
    }

  if (nrp > 0)
    {
      print "## Real consumers, small inputs"
      print ""
      printf "`| cat > /dev/null`, standard input a pipe, a file or a TCP" \
             " connection, as above; each command paired with GNU tee, %d" \
             " pairs, as the small inputs of the ceiling rows (median of" \
             " the per-pair ratios, 95%% confidence interval).\n", pairs
      print ""
      print "| input | stdin | files | command | time ms: GNU, command" \
            " | time / GNU: median (95% CI) | CPU ms: GNU, command" \
            " | CPU / GNU: median (95% CI) | peak RSS KiB |"
      print "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: |"
      for (j = 1; j <= nrp; j++)
        {
          $0 = rp[j]
          printf "| %s | %s | %s | %s | %.3f, %.3f | %.4f (%.4f-%.4f)%s" \
                 " | %.3f, %.3f | %.4f (%.4f-%.4f) | %d |\n",
                 human($2), stdin_name($3), files_name($5),
                 name($6, ""), $8 * 1000, $9 * 1000, $10, $11, $12,
                 ($6 == "auto" && $11 > 1) ? " **slower**" : "",
                 $13 * 1000, $14 * 1000, $15, $16, $17, $19
        }
      print ""
    }

  if (nshare > 0)
    {
      print "## Bytes moved by splice and tee"
      print ""
      printf "%s through `| cat > /dev/null`, the tee process under" \
             " `strace`: of the bytes all its calls that move data return" \
             " (read, write and their vector and positional forms, recv," \
             " send, splice, tee, vmsplice, sendfile, copy_file_range)," \
             " the share moved by splice, tee, vmsplice, sendfile or" \
             " copy_file_range, which copy no byte through user space." \
             "  A byte counts once per call that moves it: read by tee(2)" \
             " into one pipe and spliced into another, twice.\n",
             human(share_size)
      print ""
      print "| stdin | files | command | by splice/tee | bytes by call |"
      print "| --- | --- | --- | ---: | --- |"
      for (j = 1; j <= nshare; j++)
        {
          $0 = sh[j]
          gsub(/,/, ", ", $9)
          printf "| %s | %s | %s | %s | %s |\n", stdin_name($3),
                 files_name($5), name($6, ""),
                 ($8 > 0 ? sprintf("%.2f%%", 100 * $7 / $8) : "-"), $9
        }
      print ""
    }

  if (norows > 0 || nop > 0)
    {
      print "## The other ktee"
      print ""
      printf "ktee (`--ktee`, %s) paired with another build (`--other-ktee`," \
             " %s): a pipe in (write producer, or vmsplice producer for the" \
             " drain ceiling), `| cat > /dev/null` and `| drain`, %d runs" \
             " alternating, %s of input; then small inputs in %d pairs." \
             "  Ratios: ktee / the other.\n", ktee_name, other_name,
             real_runs, human(real_size), pairs
      print ""
      print "| stdin | consumer | files | wall s: other, ktee" \
            " | ktee / other wall | CPU s: other, ktee | ktee / other CPU |"
      print "| --- | --- | --- | ---: | ---: | ---: | ---: |"
      for (j = 1; j <= norows; j++)
        {
          row = oorder[j]
          split(row, f, SUBSEP)
          printf "| %s | %s | %s | %s, %s | %s | %s, %s | %s |\n",
                 stdin_name(f[1]), consumer_name(f[2]), files_name(f[3]),
                 med3(owall, row, "other"), med3(owall, row, "auto"),
                 paired(owall, row, "auto", "other"),
                 med3(ocpu, row, "other"), med3(ocpu, row, "auto"),
                 paired(ocpu, row, "auto", "other")
        }
      for (j = 1; j <= nop; j++)
        {
          $0 = op[j]
          printf "| pipe, %s | %s | none | %.3f ms," \
                 " %.3f ms | %.4f (95%% CI %.4f-%.4f) | %.3f ms, %.3f ms" \
                 " | %.4f (95%% CI %.4f-%.4f) |\n", human($2),
                 consumer_name("cat"),
                 $8 * 1000, $9 * 1000, $10, $11, $12,
                 $13 * 1000, $14 * 1000, $15, $16, $17
        }
      print ""
    }
  # Targets ----------------------------------------------------------
  print "## Targets"
  print ""
  if (nkeys > 0)
    {
      printf "Targets 1 to 3 are checked with the %s input and the vmsplice" \
             " producer: with the write producer, the producer's own copy" \
             " bounds the pipeline (its no-tee baseline above), so no tee can" \
             " be 15x faster than GNU tee there; its figures are shown for" \
             " comparison.\n", human(target_size)
      print ""
    }
  print "| # | target | measured | |"
  print "| --- | --- | --- | --- |"
  if (nkeys > 0)
    {
      for (p = 1; p <= 2; p++)
        {
          prod = p == 1 ? "vmsplice" : "write"
          pre = "big" SUBSEP target_size SUBSEP prod SUBSEP
          a = pre "pipe" SUBSEP "auto"; g = pre "pipe" SUBSEP "gnu"
          b = pre "pipe" SUBSEP "base"
          ok = wmed[g] / wmed[a] >= 15 && cmed[a] / cmed[g] <= 1 / 20
          printf "| 1%s | no file: >= 15x faster than GNU tee, <= 1/20 of its" \
                 " CPU | %s faster, CPU %s of GNU's (%s producer); the" \
                 " pipeline without any tee: %s faster | %s |\n",
                 p == 1 ? "" : " (info)", times(wmed[a], wmed[g]),
                 ratio(cmed[a], cmed[g]), prod, times(wmed[b], wmed[g]),
                 p == 1 ? mark(ok) : "-"
          a = pre "tmpfs1" SUBSEP "auto"; g = pre "tmpfs1" SUBSEP "gnu"
          b = pre "tmpfs1" SUBSEP "base"
          ok = wmed[g] / wmed[a] >= 3 && cmed[a] / cmed[g] <= 1 / 3
          printf "| 2%s | 1 tmpfs file: >= 3x faster than GNU tee, <= 1/3 of" \
                 " its CPU | %s faster, CPU %s of GNU's (%s producer) | %s |\n",
                 p == 1 ? "" : " (info)", times(wmed[a], wmed[g]),
                 ratio(cmed[a], cmed[g]), prod, p == 1 ? mark(ok) : "-"
          ok = wmed[a] <= 1.15 * wmed[b] && cmed[a] <= 1.15 * cmed[b]
          printf "| 2%s | 1 tmpfs file: within 15%% of writing the file alone" \
                 " | time %s, CPU %s of file alone (%s producer) | %s |\n",
                 p == 1 ? "" : " (info)", ratio(wmed[a], wmed[b]),
                 ratio(cmed[a], cmed[b]), prod, p == 1 ? mark(ok) : "-"
          a = pre "tmpfs4" SUBSEP "auto"; g = pre "tmpfs4" SUBSEP "gnu"
          ok = wmed[g] / wmed[a] >= 2
          printf "| 3%s | 4 tmpfs files: >= 2x faster than GNU tee | %s faster" \
                 " (%s producer) | %s |\n",
                 p == 1 ? "" : " (info)", times(wmed[a], wmed[g]), prod,
                 p == 1 ? mark(ok) : "-"
        }

      # 4 and 5: every case, large and small; 6: every ktee run.  A small
      # case is slower only if its whole confidence interval is above 1.
      worst_rw = 0; worst_auto = 0; max_rss = 0
      for (j = 1; j <= nkeys; j++)
        {
          k = order[j]
          split(k, f, SUBSEP)
          if (f[5] == "auto" || f[5] == "rw")
            {
              g = f[1] SUBSEP f[2] SUBSEP f[3] SUBSEP f[4] SUBSEP "gnu"
              r = wmed[k] / wmed[g]
              where = human(f[2]) " " f[3] " " outs_name(f[4])
              if (f[5] == "rw" && r > worst_rw)
                { worst_rw = r; worst_rw_at = where }
              if (f[5] == "auto" && r > worst_auto)
                { worst_auto = r; worst_auto_at = where }
              if (rss[k] > max_rss)
                { max_rss = rss[k]; max_rss_at = where " " f[5] }
            }
        }
      small_rw = small_auto = ""
      ok_rw = worst_rw <= 1; ok_auto = worst_auto <= 1
      for (j = 1; j <= npairs; j++)
        {
          pk = porder[j]
          if (pvar[pk] != "auto" && pvar[pk] != "rw")
            continue
          where = human(psize[pk]) " " outs_name(pouts[pk])
          text = sprintf("%s %.4f (%.4f-%.4f)", where, pwr[pk], pwlo[pk],
                         pwhi[pk])
          if (pvar[pk] == "rw")
            {
              small_rw = small_rw (small_rw == "" ? "" : "; ") text
              if (pwlo[pk] > 1)
                ok_rw = 0
            }
          else
            {
              small_auto = small_auto (small_auto == "" ? "" : "; ") text
              if (pwlo[pk] > 1)
                {
                  ok_auto = 0
                }
            }
          if (prss[pk] > max_rss)
            { max_rss = prss[pk]; max_rss_at = where " " pvar[pk] }
        }
      printf "| 4 | rw engine never slower than GNU tee | large inputs: at most" \
             " %.3f of GNU's time (%s); small inputs, time / GNU (95%% CI): %s" \
             " | %s |\n", worst_rw, worst_rw_at, small_rw, mark(ok_rw)
      printf "| 5 | ktee never slower than GNU tee, small inputs included" \
             " | large inputs: at most %.3f of GNU's time (%s); small inputs," \
             " time / GNU (95%% CI): %s | %s |\n",
             worst_auto, worst_auto_at, small_auto, mark(ok_auto)
      printf "| 6 | peak RSS under 4 MiB | largest: %d KiB (%s) | %s |\n",
             max_rss, max_rss_at, mark(max_rss < 4096)
    }
  # Targets of the real rows (issue 13): 7 to 11.
  if (nrows > 0 || nshare > 0 || nrp > 0)
    {
      text = cpu_target("tmpfs:1", 0.45)
      printf "| 7 | `ktee o < file \\| consumer`, o on tmpfs: CPU <= 0.45" \
             " of GNU tee's | %s | %s |\n", text == "" ? "-" : text,
             cpu_checked ? mark(cpu_ok) : "not measured"
      text = cpu_target("btrfs:1", 0.2)
      printf "| 8 | the same, o on btrfs: CPU <= 0.2 of GNU tee's | %s" \
             " | %s |\n", cpu_checked ? text : "no btrfs rows" \
             (btrfs_note != "" ? ": " btrfs_note : ""),
             cpu_checked ? mark(cpu_ok) : "not measured"
      text = cpu_target("disk:1", 0.2)
      if (cpu_checked)
        printf "| 8 (info) | the same, o on %s | %s | - |\n", disk_fs, text
      worst = 2; text = ""
      for (j = 1; j <= nshare; j++)
        {
          split(sh[j], f, " ")
          if (f[3] != "tcp" || f[6] != "auto")
            continue
          x = f[8] > 0 ? f[7] / f[8] : 0
          text = text (text == "" ? "" : "; ") files_name(f[5]) ": " \
                 sprintf("%.2f%%", 100 * x)
          if (x < worst)
            worst = x
        }
      printf "| 9 | stdin a TCP socket: >= 99%% of the bytes by splice or" \
             " tee | %s | %s |\n", text == "" ? "-" : text,
             text == "" ? "not measured" : mark(worst >= 0.99)
      row = "pipe" SUBSEP "cat" SUBSEP "tmpfs:1"
      x = paired_median(rwall, row, "auto", "dd")
      printf "| 10 | one tmpfs file, stdin a pipe (`\\| cat > /dev/null`):" \
             " wall within 25%% of the dd floor | %s | %s |\n",
             x == "" ? "-" : sprintf("%.3f of dd's wall", x),
             x == "" ? "not measured" : mark(x <= 1.25)
      worst = 0; text = ""
      for (j = 1; j <= nrows; j++)
        {
          row = rorder[j]
          x = paired_median(rwall, row, "auto", "gnu")
          if (x != "" && x > worst)
            {
              worst = x
              split(row, f, SUBSEP)
              worst_at = stdin_name(f[1]) " " consumer_name(f[2]) " " \
                         files_name(f[3])
            }
          if (slower(row))
            {
              split(row, f, SUBSEP)
              text = text (text == "" ? "" : "; ") stdin_name(f[1]) " " \
                     consumer_name(f[2]) " " files_name(f[3])
            }
        }
      for (j = 1; j <= nrp; j++)
        {
          split(rp[j], f, " ")
          if (f[6] == "auto" && f[11] > 1)
            text = text (text == "" ? "" : "; ") human(f[2]) " " \
                   stdin_name(f[3]) " " files_name(f[5])
        }
      if (nrows > 0 || nrp > 0)
        printf "| 11 | never slower than GNU tee in any real row, small" \
               " inputs included | largest median ratio %s; slower: %s" \
               " | %s |\n",
               (nrows > 0 ? sprintf("%.3f (%s)", worst, worst_at) : "-"),
               text == "" ? "none" : text, mark(text == "")
      else
        print "| 11 | never slower than GNU tee in any real row, small" \
              " inputs included | - | not measured |"
    }
  print ""
  print "Medians of a noisy machine: a ratio within a few percent of its" \
        " limit is within the spread shown by min-max above.  Small" \
        " inputs count as slower only when their confidence interval" \
        " lies wholly above 1; their CPU ratios are in the table above."
  if (nrows > 0)
    {
      print ""
      print "In targets 7 and 8, \"dd\" is the CPU of dd writing the same" \
            " bytes into one file on the same file system, over GNU tee's" \
            " in the same run.  Most of it is the copy into the file's" \
            " pages, which no tee can avoid on tmpfs or ext4: they share" \
            " no pages between files."
    }
}
