#!/usr/bin/env python3
# bench/report.py -- render bench/results.md and bench/results.svg from the
# CSV files bench/run wrote (bench/data/*.csv).
# Copyright (C) 2026 the ktee developers.  GPLv3+, as ktee.
#
# Python 3 standard library only.  The output depends on the data alone
# (no clock, no machine), so rendering the same data twice gives the same
# bytes, and CI can check that the committed report is the data's
# (--check).  The prose lives in report.in.md.

import argparse
import csv
import math
import os
import statistics
import string
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

STDINS = {"vpipe": "pipe in (vmsplice)", "pipe": "pipe in",
          "file": "file in", "tcp": "TCP in"}
CONSUMERS = {"drain": "| drain", "cat": "| cat", "sha256sum": "| sha256sum",
             "gzip": "| gzip -1", "file": "> file"}
# The tools in the order of the tables, and the ones ktee is compared to
# in the summary and the plot, with the colour of their marks.
TOOLS = ["ktee", "gnu", "uu17", "uu12", "other", "floor"]
COMPARED = [("gnu", "#1f77b4"), ("uu17", "#ff7f0e"), ("uu12", "#d62728"),
            ("floor", "#2ca02c")]
SUMMARY_ROWS = 10


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Data:
    def __init__(self, data_dir):
        self.meta = {r["key"]: r["value"]
                     for r in read_csv(os.path.join(data_dir, "run.csv"))}
        self.large = read_csv(os.path.join(data_dir, "large.csv"))
        self.pairs = read_csv(os.path.join(data_dir, "pairs.csv"))
        self.calls = read_csv(os.path.join(data_dir, "calls.csv"))
        self.rows = []
        self.runs = {}          # (row, tool, run) -> measurement
        for r in self.large:
            if r["row"] not in self.rows:
                self.rows.append(r["row"])
            self.runs[r["row"], r["tool"], r["run"]] = r
        self.tools = [t for t in TOOLS
                      if any(k[1] == t for k in self.runs)]
        disk = self.meta.get("disk", "disk (disk)")
        self.disk_fs = disk[disk.rfind("(") + 1:-1] if "(" in disk else "disk"

    def tool_name(self, tool):
        names = {"ktee": "ktee", "floor": "floor", "other": "other ktee",
                 "pipes1": "reference: GNU tee making ktee's private pipe",
                 "pipes2": "reference: GNU tee making ktee's 2 private pipes"}
        if tool in names:
            return names[tool]
        version = self.meta.get(tool, "")
        # "tee (GNU coreutils) 9.1" -> "GNU tee 9.1"; uutils likewise.
        family = "GNU tee" if tool == "gnu" else "uutils tee"
        return "%s %s" % (family, version.split()[-1]) if version else tool

    def row_name(self, row):
        src, cons, outs = row.split("/")
        if outs == "none":
            files = "no file"
        else:
            fs, n = outs.split(":")
            fs = self.disk_fs if fs == "disk" else fs
            files = "%s %s file%s" % (n, fs, "" if n == "1" else "s")
        return "%s, %s, %s" % (STDINS.get(src, src), files,
                               CONSUMERS.get(cons, cons))

    def value(self, r, metric):
        if metric == "wall":
            return float(r["wall_s"])
        if metric == "cpu":
            return float(r["all_user_s"]) + float(r["all_sys_s"])
        return float(r["tee_user_s"]) + float(r["tee_sys_s"])

    def values(self, row, tool, metric):
        return [self.value(r, metric) for k, r in sorted(self.runs.items())
                if k[0] == row and k[1] == tool]

    def ratio(self, row, tool, metric, of="ktee"):
        """The median over runs of OF / TOOL in the same run."""
        ratios = []
        for (rw, t, run), r in self.runs.items():
            other = self.runs.get((row, of, run))
            if rw == row and t == tool and other and self.value(r, metric) > 0:
                ratios.append(self.value(other, metric) / self.value(r, metric))
        return statistics.median(ratios) if ratios else None

    def calls_per_mib(self, row, tool):
        for r in self.calls:
            if r["row"] == row and r["tool"] == tool:
                return int(r["calls"]) * 1048576 / int(r["size"])
        return None

    def moves_per_byte(self, row, tool):
        """The bytes TOOL's data calls moved in ROW per byte of input."""
        for r in self.calls:
            if r["row"] == row and r["tool"] == tool:
                return int(r["data_bytes"]) / int(r["size"])
        return None

    def grown(self, row, tool):
        """The size TOOL set on its standard output's pipe in ROW, if any."""
        for r in self.calls:
            if r["row"] == row and r["tool"] == tool and r["stdout_pipe_bytes"]:
                return int(r["stdout_pipe_bytes"])
        return None


def fmt(x, digits=2):
    return "" if x is None else "%.*f" % (digits, x)


def table(head, rows, align=None):
    align = align or ["---"] + ["---:"] * (len(head) - 1)
    lines = ["| " + " | ".join(head) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def summary(d):
    compared = [t for t, _ in COMPARED if t in d.tools]
    head = ["row"]
    for t in compared:
        head += ["ktee / %s: CPU" % d.tool_name(t), "wall"]
    head.append("note")
    body = []
    for row in d.rows[:SUMMARY_ROWS]:
        cells = [d.row_name(row).replace("|", "\\|")]
        for t in compared:
            for m in ("cpu", "wall"):
                x = d.ratio(row, t, m)
                s = fmt(x)
                cells.append("**%s**" % s if x and x > 1 and t != "floor"
                             else s)
        note = []
        for t in ("uu17", "uu12"):
            behind = any((d.ratio(row, t, m) or 0) > 1 for m in ("cpu", "wall"))
            if not behind:
                continue
            g = d.grown(row, t)
            why = []
            if g and row.split("/")[1] != "drain":
                why.append("it grows stdout's pipe to %s (1)"
                           % ("%d MiB" % (g >> 20) if g % 1048576 == 0
                              else "%d KiB" % (g >> 10)))
            ours, theirs = d.calls_per_mib(row, "ktee"), d.calls_per_mib(row, t)
            if ours and theirs:
                why.append("system calls per MiB: ktee %.0f, it %.0f"
                           % (ours, theirs))
            ours, theirs = d.moves_per_byte(row, "ktee"), d.moves_per_byte(row, t)
            if ours and theirs and ours > theirs + 0.5:
                why.append("bytes moved per byte: ktee %.0f, it %.0f (2)"
                           % (ours, theirs))
            note.append("%s ahead%s" % (d.tool_name(t),
                                        ": " + "; ".join(why) if why else ""))
        cells.append("; ".join(note))
        body.append(cells)
    return table(head, body, ["---"] + ["---:"] * (len(head) - 2) + ["---"])


def span(xs, digits=2):
    """"A to B" for the range of XS, or "A" when both ends print alike."""
    lo, hi = fmt(min(xs), digits), fmt(max(xs), digits)
    return lo if lo == hi else "%s to %s" % (lo, hi)


def listing(items):
    return (items[0] if len(items) == 1
            else ", ".join(items[:-1]) + " and " + items[-1])


def reading(d):
    """What the summary rows and the small inputs say, in sentences whose
    every figure is computed here from the data."""
    rows = d.rows[:SUMMARY_ROWS]
    out = []

    def ratios(rs, t, m):
        return [x for x in (d.ratio(r, t, m) for r in rs) if x is not None]

    def both(r, t):
        return "CPU %s, wall %s" % (fmt(d.ratio(r, t, "cpu")),
                                    fmt(d.ratio(r, t, "wall")))

    def name(r):
        return d.row_name(r)

    if "gnu" in d.tools and rows:
        g = d.tool_name("gnu")
        drain = [r for r in rows if r.split("/")[1] == "drain"]
        others = [r for r in rows if r.split("/")[1] not in ("drain", "file")]
        if drain and ratios(drain, "gnu", "wall"):
            best = min(drain, key=lambda r: d.ratio(r, "gnu", "wall") or 9)
            out.append(
                "- **Who reads the output decides.** Into `drain`, which grows "
                "its pipe to 1 MiB and splices it to /dev/null (few programs "
                "read a pipe so), ktee's pipelines took %s of %s's wall time "
                "and %s of its CPU; at best (%s) %s of its wall time, %.1f "
                "times as fast."
                % (span(ratios(drain, "gnu", "wall")), g,
                   span(ratios(drain, "gnu", "cpu")), name(best),
                   fmt(d.ratio(best, "gnu", "wall")),
                   1 / d.ratio(best, "gnu", "wall")))
        if others and ratios(others, "gnu", "wall"):
            out.append(
                "- **Common consumers** (%s) bound the wall time of both "
                "tees, and ktee saves CPU: wall %s of %s's, CPU %s."
                % (listing(sorted({"`%s`" % CONSUMERS[r.split("/")[1]]
                                    .lstrip("| ") for r in others})),
                   span(ratios(others, "gnu", "wall")), g,
                   span(ratios(others, "gnu", "cpu"))))
        kinds = []
        for src in STDINS:
            rs = [r for r in rows if r.split("/")[0] == src]
            if rs and ratios(rs, "gnu", "cpu"):
                kinds.append("%s, CPU %s and wall %s" % (
                    STDINS[src], span(ratios(rs, "gnu", "cpu")),
                    span(ratios(rs, "gnu", "wall"))))
        if kinds:
            out.append("- **By standard input**, ktee / %s: %s." % (
                g, "; ".join(kinds)))
        slower = [r for r in rows
                  if any((d.ratio(r, "gnu", m) or 0) > 1 for m in ("cpu", "wall"))]
        out.append("- %s." % (
            "No row of the summary was slower or costlier than with %s" % g
            if not slower else
            "Slower or costlier than with %s: %s" % (
                g, "; ".join("%s (%s)" % (name(r), both(r, "gnu"))
                             for r in slower))))

    for t in ("uu12",):
        if t not in d.tools:
            continue
        u = d.tool_name(t)
        # Behind as the summary's bold says; ahead where both ratios
        # print below 1.00.
        ahead = [r for r in rows if all(
            (d.ratio(r, t, m) or 1) < 0.995 for m in ("cpu", "wall"))]
        behind = [r for r in rows
                  if any((d.ratio(r, t, m) or 0) > 1 for m in ("cpu", "wall"))]
        even = [r for r in rows if r not in ahead and r not in behind]
        parts = []
        if ahead:
            parts.append("ahead in %d of %d rows (CPU %s, wall %s)" % (
                len(ahead), len(rows), span(ratios(ahead, t, "cpu")),
                span(ratios(ahead, t, "wall"))))
        if even:
            parts.append("even in %s (%s)" % (
                "; ".join(name(r) for r in even),
                "; ".join(both(r, t) for r in even)))
        if behind:
            parts.append("behind in %s" % "; ".join(
                "%s (%s)" % (name(r), both(r, t)) for r in behind))
        out.append(
            "- **Against %s**, which splices too, ktee is %s. Where it is "
            "behind, notes (1) and (2) of the summary give the cause."
            % (u, "; ".join(parts)))

    small = [r for r in d.pairs if r["tool"] == "ktee"]
    if small:
        def ci(r, m):
            return "%s (%s to %s)" % (fmt(float(r[m + "_ratio"]), 3),
                                       fmt(float(r[m + "_lo"]), 3),
                                       fmt(float(r[m + "_hi"]), 3))
        worse = [r for r in small
                 if float(r["wall_lo"]) > 1 or float(r["cpu_lo"]) > 1]
        sizes = sorted({int(r["size"]) // 1024 for r in small})
        out.append(
            "- **Small inputs** (%s KiB, %s pairs each) go by read and write "
            "as with GNU tee. ktee / GNU tee, wall and the tee's CPU, median "
            "(95%% interval): %s.%s" % (
                " and ".join(str(k) for k in sizes), small[0]["pairs"],
                "; ".join("%d KiB, %s: wall %s, CPU %s" % (
                    int(r["size"]) // 1024, d.row_name(r["row"]),
                    ci(r, "wall"), ci(r, "cpu"))
                    for r in small),
                " Where the interval lies above 1, ktee is slower or "
                "costlier with 95%% confidence: %d of these %d rows, by at "
                "most %.1f%%." % (len(worse), len(small), 100 * max(
                    max(float(r["wall_ratio"]), float(r["cpu_ratio"]))
                    for r in worse) - 100) if worse else ""))
    rss = [int(r["tee_maxrss_kib"]) for r in d.large if r["tool"] == "ktee"]
    if rss:
        out.append("- **Memory**: ktee's peak RSS was at most %d KiB in every "
                   "large row." % max(rss))
    return "\n".join(out)


def plot(d):
    """A hand-written SVG: per row, ktee / each tool, CPU (dot) and wall
    (ring), on a log scale."""
    compared = [(t, c) for t, c in COMPARED if t in d.tools]
    rows = d.rows[:SUMMARY_ROWS]
    points = [(i, j, m, d.ratio(row, t, m))
              for i, row in enumerate(rows)
              for j, (t, _) in enumerate(compared) for m in ("cpu", "wall")]
    points = [p for p in points if p[3]]
    if not points:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n'
    steps = [k * 10 ** e for e in range(-4, 4) for k in (1, 2, 5)]
    lo = max(s for s in steps if s <= min(p[3] for p in points))
    hi = min(s for s in steps if s >= max(max(p[3] for p in points), 1.01))
    left, right, top, band, step = 250, 730, 60, 14 + 9 * len(compared), 9
    height = top + band * len(rows) + 40

    def x(v):
        return left + (right - left) * math.log10(v / lo) / math.log10(hi / lo)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="760" height="%d" '
           'viewBox="0 0 760 %d" font-family="sans-serif" font-size="11">'
           % (height, height),
           '<rect width="760" height="%d" fill="white"/>' % height,
           '<text x="380" y="16" text-anchor="middle" font-size="13">'
           'ktee / other tee (median of paired runs; log scale; below 1: '
           'ktee faster)</text>']
    # Legend.
    lx = left
    for t, colour in compared:
        out.append('<circle cx="%.1f" cy="34" r="4" fill="%s"/>' % (lx, colour))
        out.append('<text x="%.1f" y="38">%s</text>' % (lx + 8, d.tool_name(t)))
        lx += 120
    out.append('<text x="10" y="38">dot: CPU, ring: wall</text>')
    # Grid: 1, 2, 5 of each decade.
    for v in steps:
        if lo * 0.999 <= v <= hi * 1.001:
            gx = x(v)
            out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" '
                       'stroke-width="%s"/>'
                       % (gx, top - 6, gx, height - 34,
                          "#000" if abs(v - 1) < 1e-9 else "#ddd",
                          "1.5" if abs(v - 1) < 1e-9 else "1"))
            out.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>'
                       % (gx, height - 20, v))
    out.append('<text x="%.1f" y="%d" text-anchor="end">&lt; ktee faster'
               '</text>' % (x(1) - 6, height - 6))
    out.append('<text x="%.1f" y="%d">ktee slower &gt;</text>'
               % (x(1) + 6, height - 6))
    for i, row in enumerate(rows):
        y0 = top + band * i
        if i:
            out.append('<line x1="10" y1="%d" x2="%d" y2="%d" stroke="#eee"/>'
                       % (y0 - 4, right, y0 - 4))
        label = d.row_name(row).replace("&", "&amp;").replace("<", "&lt;")
        out.append('<text x="10" y="%d">%s</text>'
                   % (y0 + band // 2, label))
    for i, j, m, v in points:
        cy = top + band * i + 4 + step * j
        colour = compared[j][1]
        if m == "cpu":
            out.append('<circle cx="%.1f" cy="%d" r="3.5" fill="%s"/>'
                       % (x(v), cy, colour))
        else:
            out.append('<circle cx="%.1f" cy="%d" r="4" fill="none" '
                       'stroke="%s" stroke-width="1.5"/>' % (x(v), cy, colour))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def large_tables(d):
    parts = []
    for row in d.rows:
        head = ["tool", "wall s", "min", "max", "pipeline CPU s", "tee CPU s",
                "tee peak RSS KiB", "ktee / tool: wall", "CPU"]
        body = []
        for t in d.tools:
            walls = d.values(row, t, "wall")
            if not walls:
                continue
            rss = [int(r["tee_maxrss_kib"]) for k, r in d.runs.items()
                   if k[0] == row and k[1] == t]
            body.append([
                "**ktee**" if t == "ktee" else d.tool_name(t),
                fmt(statistics.median(walls), 3), fmt(min(walls), 3),
                fmt(max(walls), 3),
                fmt(statistics.median(d.values(row, t, "cpu")), 3),
                "" if t == "floor"
                else fmt(statistics.median(d.values(row, t, "tee")), 3),
                "" if t == "floor" else str(max(rss)),
                "" if t == "ktee" else fmt(d.ratio(row, t, "wall")),
                "" if t == "ktee" else fmt(d.ratio(row, t, "cpu"))])
        size = d.large[[r["row"] for r in d.large].index(row)]["size"]
        parts.append("### %s, %d MiB\n\n%s"
                     % (d.row_name(row).replace("|", "\\|"),
                        int(size) // 1048576, table(head, body)))
    return "\n\n".join(parts)


def pair_table(d):
    head = ["input", "row", "tool", "GNU ms", "tool ms", "tool / GNU: wall",
            "95% CI low", "high", "GNU CPU ms", "tool CPU ms",
            "tool / GNU: CPU", "95% CI low", "high"]
    body = []
    for r in d.pairs:
        name = d.tool_name(r["tool"])
        if r["tool"] == "gnu":
            name += " (A/A)"
        body.append([
            "%d KiB" % (int(r["size"]) // 1024),
            d.row_name(r["row"]).replace("|", "\\|"),
            "**ktee**" if r["tool"] == "ktee" else name,
            fmt(1000 * float(r["gnu_wall_s"]), 3),
            fmt(1000 * float(r["tool_wall_s"]), 3),
            fmt(float(r["wall_ratio"]), 4), fmt(float(r["wall_lo"]), 4),
            fmt(float(r["wall_hi"]), 4),
            fmt(1000 * float(r["gnu_cpu_s"]), 3),
            fmt(1000 * float(r["tool_cpu_s"]), 3),
            fmt(float(r["cpu_ratio"]), 4), fmt(float(r["cpu_lo"]), 4),
            fmt(float(r["cpu_hi"]), 4)])
    return table(head, body, ["---", "---", "---"] + ["---:"] * 10)


def calls_table(d):
    head = ["row", "tool", "MiB", "system calls", "calls per MiB",
            "bytes by splice, tee, sendfile, copy_file_range %",
            "stdout's pipe set to KiB"]
    body = []
    for r in d.calls:
        mib = int(r["size"]) / 1048576
        data = float(r["data_bytes"])
        body.append([
            d.row_name(r["row"]).replace("|", "\\|"),
            "**ktee**" if r["tool"] == "ktee" else d.tool_name(r["tool"]),
            "%d" % mib, r["calls"], fmt(int(r["calls"]) / mib, 1),
            fmt(100 * float(r["zero_copy_bytes"]) / data, 1) if data else "",
            str(int(r["stdout_pipe_bytes"]) // 1024)
            if r["stdout_pipe_bytes"] else ""])
    return table(head, body, ["---", "---"] + ["---:"] * 5)


def machine(d):
    m = d.meta
    mib = 1048576
    items = [("command", "`%s`" % m.get("command", "")),
             ("date", m.get("date", "")), ("kernel", m.get("kernel", "")),
             ("CPU", "%s, %s cores, %s GiB of memory"
              % (m.get("cpu", ""), m.get("cores", ""),
                 m.get("memory_gib", "")))]
    for t in ("ktee", "gnu", "uu17", "uu12", "other"):
        if t in m:
            items.append((d.tool_name(t), m[t]))
    items += [("tmpfs files", m.get("tmpfs", "")),
              ("disk files", m.get("disk", "") + ": page cache, no fsync; "
               "removed, then `sync`, between runs"),
              ("input", "%d MiB (gzip -1: %d MiB); small inputs: %s pairs; "
               "calls: %d MiB"
               % (int(m.get("size", 0)) // mib,
                  int(m.get("gzip_size", 0)) // mib, m.get("pairs", ""),
                  int(m.get("calls_size", 0)) // mib)),
              ("runs", m.get("runs", "")),
              ("took", "%d min %d s" % divmod(int(m.get("elapsed_s", 0)), 60))]
    return table(["", ""], [[k, v] for k, v in items], ["---", "---"])


def load(d):
    loads = [float(r["load1"]) for r in d.large]
    if not loads:
        return "unknown"
    return ("%s at the start, %s at the end (1, 5, 15 minutes); during the "
            "large rows, the 1-minute load was %.2f to %.2f, median %.2f"
            % (d.meta.get("load_start", "?"), d.meta.get("load_end", "?"),
               min(loads), max(loads), statistics.median(loads)))


def render(data_dir):
    d = Data(data_dir)
    with open(os.path.join(HERE, "report.in.md")) as f:
        template = string.Template(f.read())
    md = template.substitute(
        machine=machine(d), load=load(d), summary=summary(d),
        reading=reading(d),
        large=large_tables(d), pairs=pair_table(d), calls=calls_table(d),
        runs=d.meta.get("runs", "?"))
    return md, plot(d)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--data", default=os.path.join(HERE, "data"),
                   help="the directory of bench/run's CSV files")
    p.add_argument("--out", default=HERE,
                   help="where results.md and results.svg go")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail if the files in --out are not "
                   "what the data renders")
    args = p.parse_args()
    md, svg = render(args.data)
    stale = []
    for name, text in (("results.md", md), ("results.svg", svg)):
        path = os.path.join(args.out, name)
        if args.check:
            try:
                with open(path) as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                stale.append(path)
        else:
            with open(path, "w") as f:
                f.write(text)
    for path in stale:
        print("report.py: %s is not what bench/report.py renders from %s"
              % (path, args.data), file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
