/* stress-check -- verify one output of the soak test.
   Copyright (C) 2026 the ktee developers.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* Usage: stress-check [-r BYTES] [-z USEC] [-N NAME] SEED LENGTH [FILE]

   Read FILE, or standard input, to its end and check that it is exactly
   the first LENGTH bytes of the stream stress-pattern.h defines for
   SEED: the same as comparing a checksum with that of the stream, but
   at memory speed.  On a difference, report the offset of the first
   wrong byte, then read on to the end so that the length is reported
   too and the writer is not stopped by a broken pipe.  Exit 0 if the
   data is exact, 1 otherwise.

   -r BYTES reads at most BYTES at a time (default 128 KiB): small and
   odd sizes make the writer see a reader that takes a little at a time.
   -z USEC sleeps USEC microseconds after every MiB read: a slow reader,
   so that the writer finds the pipe full.  -N NAME names the output in
   messages.  */

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stress-pattern.h"

enum { WORD = sizeof (uint64_t), MIB = 1024 * 1024 };

struct checker
{
  struct pattern pat;
  char const *name;
  uint64_t done;        /* Bytes verified, a multiple of WORD.  */
  uint64_t bad;         /* Offset of the first wrong byte, or UINT64_MAX.  */
};

static _Noreturn void
die (char const *name, char const *what)
{
  fprintf (stderr, "stress-check: %s: %s: %s\n", name, what,
           strerror (errno));
  exit (EXIT_FAILURE);
}

/* Record that the SIZE bytes at P, which start at stream offset OFF
   and are known to differ from EXPECTED, hold the first wrong byte.  */

static void
found_bad (struct checker *c, unsigned char const *p, size_t size,
           uint64_t off, uint64_t expected)
{
  unsigned char want[WORD];
  memcpy (want, &expected, WORD);
  size_t i = 0;
  while (i + 1 < size && p[i] == want[i])
    i++;
  uint64_t got = 0;
  memcpy (&got, p, size);
  c->bad = off + i;
  fprintf (stderr,
           "stress-check: %s: first wrong byte at offset %" PRIu64
           " (word at %" PRIu64 ": expected 0x%016" PRIx64
           ", found 0x%016" PRIx64 ")\n",
           c->name, c->bad, off, expected, got);
}

/* Verify the NWORDS words at W, the next ones of the stream.  The
   differences are ORed first, which the compiler can vectorize; only a
   block that differs is searched word by word.  */

static void
verify_words (struct checker *c, uint64_t const *w, size_t nwords)
{
  uint64_t first = c->done / WORD;
  if (c->bad == UINT64_MAX)
    {
      uint64_t diff = 0;
      uint64_t expected = pattern_word (&c->pat, first);
      for (size_t i = 0; i < nwords; i++, expected += PATTERN_STEP)
        diff |= w[i] ^ expected;
      if (diff)
        for (size_t i = 0; i < nwords; i++)
          {
            uint64_t e = pattern_word (&c->pat, first + i);
            if (w[i] != e)
              {
                found_bad (c, (unsigned char const *) (w + i), WORD,
                           c->done + i * WORD, e);
                break;
              }
          }
    }
  c->done += nwords * WORD;
}

/* Read into BUF at most SIZE bytes, waiting if FD is non-blocking.  */

static ssize_t
read_some (int fd, char *buf, size_t size)
{
  for (;;)
    {
      ssize_t n = read (fd, buf, size);
      if (0 <= n)
        return n;
      if (errno == EAGAIN)
        {
          struct pollfd pfd = { .fd = fd, .events = POLLIN };
          poll (&pfd, 1, -1);
        }
      else if (errno != EINTR)
        return -1;
    }
}

static void
pause_usec (long usec)
{
  struct timespec ts = { usec / 1000000, usec % 1000000 * 1000 };
  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    continue;
}

int
main (int argc, char **argv)
{
  size_t rsize = 128 * 1024;
  long usec = 0;
  char const *name = NULL;
  int opt;

  while ((opt = getopt (argc, argv, "r:z:N:")) != -1)
    switch (opt)
      {
      case 'r':
        rsize = strtoul (optarg, NULL, 10);
        break;
      case 'z':
        usec = strtol (optarg, NULL, 10);
        break;
      case 'N':
        name = optarg;
        break;
      default:
        return EXIT_FAILURE;
      }
  if (argc - optind < 2 || 3 < argc - optind || rsize == 0)
    {
      fputs ("Usage: stress-check [-r BYTES] [-z USEC] [-N NAME]"
             " SEED LENGTH [FILE]\n", stderr);
      return EXIT_FAILURE;
    }

  struct checker c = { .bad = UINT64_MAX };
  pattern_init (&c.pat, strtoull (argv[optind], NULL, 0));
  uint64_t length = strtoull (argv[optind + 1], NULL, 0);
  char const *file = argv[optind + 2];
  c.name = name ? name : file ? file : "standard input";

  int fd = STDIN_FILENO;
  if (file && (fd = open (file, O_RDONLY)) < 0)
    die (c.name, "open");

  /* Room for a partial word carried over, then a whole read.  */
  size_t nwords = (rsize + WORD - 1) / WORD + 1;
  uint64_t *buf = malloc (nwords * WORD);
  if (! buf)
    die (c.name, "malloc");

  size_t have = 0;
  uint64_t since_pause = 0;
  for (;;)
    {
      ssize_t n = read_some (fd, (char *) buf + have, rsize);
      if (n < 0)
        die (c.name, "read");
      if (n == 0)
        break;
      have += n;
      verify_words (&c, buf, have / WORD);
      memmove (buf, buf + have / WORD, have % WORD);
      have %= WORD;

      since_pause += n;
      if (usec && MIB <= since_pause)
        {
          pause_usec (usec);
          since_pause = 0;
        }
    }

  uint64_t total = c.done + have;
  if (have && c.bad == UINT64_MAX)
    {
      uint64_t e = pattern_word (&c.pat, c.done / WORD);
      if (memcmp (buf, &e, have) != 0)
        found_bad (&c, (unsigned char const *) buf, have, c.done, e);
    }
  free (buf);
  if (total != length)
    fprintf (stderr,
             "stress-check: %s: %" PRIu64 " bytes, expected %" PRIu64 "\n",
             c.name, total, length);
  return c.bad == UINT64_MAX && total == length ? EXIT_SUCCESS : EXIT_FAILURE;
}
