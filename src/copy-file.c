/* copy-file.c -- copy a regular file on standard input without reading it.
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

/* A regular file is not consumed by reading it, so no private pipe is
   needed: each output takes the round's bytes itself, from the same
   explicit input offset, the way copy.c chose for it (a file by
   copy_file_range, a pipe by splice, anything else by sendfile).  An
   output whose way is refused falls back, alone and from where it got
   to: copy_file_range to sendfile, and any of them to pread and write.
   The file's size is a hint: at it, the read/write engine reads on
   until read(2) says 0.  A failure that the input explains (a bad
   block) or that read and write may not meet (no pipe buffer for the
   kernel's own copy) sends the rest of the round by pread and write.
   On a file system whose copy_file_range copies through a pipe of the
   kernel's, 64 KiB at a time, a larger round goes through a pipe of
   ktee's instead, by two splices.  Where two or more outputs would take
   a large round through a pipe (these files, and pipes), it is spliced
   from the input once, into the master pipe, and tee(2) gives each but
   the last its copy: the input's pages are looked up once, not once per
   output.  The master only saves work: whatever it does not give an
   output, the output takes from the input itself.

   GNU tee reads 8 KiB blocks and writes each to every output before
   reading the next.  Rounds here keep that order, and are that small
   where the blocks show: where an early exit shows how far the copy
   went, and in outputs that are one file.  Otherwise they are
   larger, and the only trace GNU's blocks leave, the input offset, is
   put where GNU tee would have left it: each round moves it past the
   round first, as a read would; and when the last output fails, back to
   the end of the GNU block in which it failed.  */

#include <config.h>

#include "copy.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/param.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iopoll.h"
#include "unistd--.h"

/* Bytes per round where GNU's blocks do not show: few system calls per
   byte, as in the splice engine's rounds.  */
enum { FILE_ROUND = 1024 * 1024 };

/* copy_file_range copies between files that cannot share blocks through
   a pipe of the kernel's of this size, a write per pipeful; rounds larger
   than that cost less through a pipe of ktee's of COPY_PIPE_BYTES
   (bench/results-piped.md).  */
enum { KERNEL_PIPE_BYTES = 64 * 1024, COPY_PIPE_BYTES = 1024 * 1024 };

/* The buffer for outputs written with write(2), of copy-rw.c's size.
   Most runs never touch it, and untouched pages of static storage cost
   nothing; a buffer from the heap would have to be freed, which a
   signal that ends ktee in the middle of a write does not let happen
   (valgrind then calls it lost).  */
enum { WRITE_BUFSIZE = 64 * 1024 };
static char write_buf[WRITE_BUFSIZE];

struct file_copy
{
  struct outputs *outs;
  off_t grid;            /* Where the input started: GNU's first block.  */
  off_t off;             /* Input offset of this round.  */
  off_t size;            /* The input's size when last looked at.  */
  size_t block;          /* Most bytes per round.  */
  bool sigpipe_kills;    /* A write to a broken pipe kills ktee.  */
  size_t round;          /* Bytes in this round.  */
  off_t failed_at;       /* Furthest input offset where an output failed
                            this round, or -1.  */
  int read_errno;        /* Why reading the input failed this round, or 0.  */
  int pipe[2];           /* For copies through a pipe, once made.  */
  size_t pipe_size;      /* What it holds.  */
  int master[2];         /* The round for every output that takes it
                            through a pipe, once made.  */
  size_t master_size;    /* What it holds.  */
  size_t held;           /* Bytes of the round in the master, from its
                            start; 0 once the master is of no more use
                            this round.  */
};

/* Make pipe FD, unless it is made, and set *SIZE to what it holds.
   Return false if it cannot be made.  */

static bool
open_pipe (int fd[2], size_t *size)
{
  if (0 <= fd[0])
    return true;
  if (pipe (fd) != 0)
    {
      fd[0] = fd[1] = -1;
      return false;
    }
  *size = set_pipe_size (fd[1], COPY_PIPE_BYTES);
  if (! *size)
    *size = KERNEL_PIPE_BYTES;
  return true;
}

/* Return true if output O takes a round of LEN bytes through a pipe.  */

static bool
takes_by_pipe (struct output const *o, size_t len)
{
  return (0 <= o->fd
          && (o->way == OUTPUT_SPLICE
              || (o->way == OUTPUT_COPY_RANGE && o->copies_by_pipe
                  && KERNEL_PIPE_BYTES < len)));
}

/* How many outputs from the Ith on take this round through a pipe.  */

static size_t
pipe_takers (struct file_copy const *c, size_t i)
{
  size_t n = 0;
  for (; i < c->outs->n; i++)
    n += takes_by_pipe (&c->outs->v[i], c->round);
  return n;
}

/* The master is of no more use this round: what it holds is not this
   round's from its start, or it failed.  */

static void
drop_master (struct file_copy *c)
{
  close_pipe (c->master);
  c->held = 0;
}

/* Splice the round from the input into the master, if it is large and
   two or more outputs take it through a pipe.  A failure is left to the
   outputs' own calls to meet and report.  */

static void
fill_master (struct file_copy *c)
{
  c->held = 0;
  if (c->round <= KERNEL_PIPE_BYTES || pipe_takers (c, 0) < 2
      || ! open_pipe (c->master, &c->master_size))
    return;
  off_t pos = c->off;
  ssize_t n;
  while ((n = splice (STDIN_FILENO, &pos, c->master[1], NULL,
                      MIN (c->round, c->master_size), 0)) < 0
         && errno == EINTR)
    continue;
  if (0 < n)
    c->held = n;
  else
    drop_master (c);
}

/* Put a copy of up to LEN bytes from the master's start into pipe FD.
   Return the count, or -1 with errno.  */

static ssize_t
tee_master (struct file_copy *c, int fd, size_t len)
{
  ssize_t n;
  while ((n = tee (c->master[0], fd, MIN (len, c->held), 0)) < 0
         && errno == EINTR)
    continue;
  return n;
}

/* Splice up to LEN bytes of the input at *POS into C's pipe, and from
   there into output FD, advancing *POS past what FD took.  The bytes
   come from the master, by tee, if it holds them.  Return as
   kernel_copy.  Bytes that FD did not take go with the pipe: the next
   call takes them from the input again.  */

static ssize_t
copy_by_pipe (struct file_copy *c, int fd, off_t *pos, size_t len)
{
  off_t start = *pos;
  ssize_t n = 0;
  if (c->held && start == c->off)
    {
      n = tee_master (c, c->pipe[1], MIN (len, c->pipe_size));
      if (0 < n)
        *pos += n;
    }
  if (n <= 0)
    n = splice (STDIN_FILENO, pos, c->pipe[1], NULL,
                MIN (len, c->pipe_size), 0);
  if (n <= 0)
    return n;

  size_t in_pipe = n;
  size_t done = 0;
  while (done < in_pipe)
    {
      ssize_t m = splice (c->pipe[0], NULL, fd, NULL, in_pipe - done, 0);
      if (0 < m)
        done += m;
      else if (m < 0 && errno == EINTR)
        continue;
      else
        {
          /* A zero return would leave us spinning: a refusal, after
             which another way tells what is wrong, if anything.  */
          int err = m < 0 ? errno : EINVAL;
          close_pipe (c->pipe);
          *pos = start + done;
          errno = err;
          return done ? (ssize_t) done : -1;
        }
    }
  return n;
}

/* Give output I up to LEN bytes from the master: the last output to
   take them by splice, emptying it; a pipe before it by tee; a file
   before it gets 0, and its copy through C's pipe (copy_by_pipe).
   Advance *POS past what the output took, and return as kernel_copy;
   0 if the master gave the output nothing, which then takes its bytes
   from the input: a refusal from the output tells no more than that.  */

static ssize_t
from_master (struct file_copy *c, size_t i, off_t *pos, size_t len)
{
  struct output const *o = &c->outs->v[i];
  size_t size = MIN (len, c->held);
  ssize_t n;

  if (pipe_takers (c, i + 1) == 0)
    {
      while ((n = splice (c->master[0], NULL, o->fd, NULL, size, 0)) < 0
             && errno == EINTR)
        continue;
      int err = errno;
      if (n == c->held)
        c->held = 0;
      else
        drop_master (c);
      errno = err;
    }
  else if (o->way == OUTPUT_SPLICE)
    n = tee_master (c, o->fd, size);
  else
    return 0;

  if (0 < n)
    *pos += n;
  return n < 0 && kernel_refused (errno) ? 0 : n;
}

/* Move up to LEN bytes of the input from *POS to output I in the kernel,
   the way its way says, advancing *POS.  Return the count, or -1 with
   errno.  */

static ssize_t
kernel_copy (struct file_copy *c, size_t i, off_t *pos, size_t len)
{
  struct output const *o = &c->outs->v[i];
  int fd = o->fd;
  if (c->held && *pos == c->off && takes_by_pipe (o, len))
    {
      ssize_t n = from_master (c, i, pos, len);
      if (n != 0)
        return n;
    }
  switch (o->way)
    {
    case OUTPUT_COPY_RANGE:
      if (o->copies_by_pipe && KERNEL_PIPE_BYTES < len
          && open_pipe (c->pipe, &c->pipe_size))
        return copy_by_pipe (c, fd, pos, len);
      return copy_file_range (STDIN_FILENO, pos, fd, NULL, len, 0);
    case OUTPUT_SPLICE:
      return splice (STDIN_FILENO, pos, fd, NULL, len, 0);
    case OUTPUT_SENDFILE:
      return sendfile (fd, STDIN_FILENO, pos, len);
    case OUTPUT_WRITE: default:
      errno = EINVAL;
      return -1;
    }
}

/* Where GNU tee's block holding input offset POS starts.  */

static off_t
gnu_block_start (struct file_copy const *c, off_t pos)
{
  return c->grid + (pos - c->grid) / GNU_TEE_BLOCK * GNU_TEE_BLOCK;
}

static ssize_t
pread_input (char *buf, size_t size, off_t pos)
{
  ssize_t n;
  while ((n = pread (STDIN_FILENO, buf, size, pos)) < 0 && errno == EINTR)
    continue;
  return n;
}

/* Read up to SIZE bytes of the input at POS into BUF.  A read that
   fails is made again up to the end of GNU tee's block at POS only: a
   bad block fails a larger read whole (direct I/O, FUSE), and the bytes
   before it are GNU tee's outputs' as much as ktee's.  */

static ssize_t
read_at (struct file_copy const *c, char *buf, size_t size, off_t pos)
{
  ssize_t n = pread_input (buf, size, pos);
  off_t block_end = gnu_block_start (c, pos) + GNU_TEE_BLOCK;
  if (n < 0 && (size_t) (block_end - pos) < size)
    n = pread_input (buf, block_end - pos, pos);
  return n;
}

/* Output I failed with ERR, having taken the input up to POS.  */

static void
output_failed (struct file_copy *c, size_t i, off_t pos, int err)
{
  if (c->failed_at < pos)
    c->failed_at = pos;
  output_fail (c->outs, &c->outs->v[i], err);
}

/* Give output I the rest of the round from input offset POS with pread
   and write.  Return where the input ended: the round's end, or before
   it if the file is shorter than its size said, or where reading it
   failed, which C->read_errno then says.  */

static off_t
write_from (struct file_copy *c, size_t i, off_t pos)
{
  off_t end = c->off + c->round;

  while (pos < end)
    {
      size_t left = end - pos;
      ssize_t n = read_at (c, write_buf, MIN (WRITE_BUFSIZE, left), pos);
      if (n < 0)
        {
          c->read_errno = errno;
          return pos;
        }
      if (n == 0)
        return pos;
      size_t written = write_wait (&c->outs->v[i], write_buf, n);
      if (written < n)
        {
          output_failed (c, i, pos + written, errno);
          break;
        }
      pos += n;
    }
  return end;
}

/* Return true if the input reads from POS to the end of the round, as
   far as it reaches.  */

static bool
input_reads (struct file_copy *c, off_t pos)
{
  off_t end = c->off + c->round;
  ssize_t n = 1;
  for (; pos < end && 0 < n; pos += n)
    n = read_at (c, write_buf, MIN (WRITE_BUFSIZE, end - pos), pos);
  return 0 <= n;
}

/* Return true if output I takes copy_file_range on a file system that
   may make it a reflink (copy.c's file_systems).  */

static bool
reflinked (struct file_copy const *c, size_t i)
{
  return c->outs->v[i].way == OUTPUT_COPY_RANGE && c->outs->v[i].reflinks;
}

/* Give output I the round, its own way or falling back.  Return as
   write_from.  */

static off_t
deliver_to (struct file_copy *c, size_t i)
{
  struct output *o = &c->outs->v[i];
  off_t pos = c->off;
  off_t end = c->off + c->round;

  while (pos < end && o->way != OUTPUT_WRITE)
    {
      size_t left = end - pos;
      ssize_t n = kernel_copy (c, i, &pos, left);
      if (0 < n)
        continue;
      /* Nothing where the size said there was something: the file
         shrank, or says it holds what it does not (/sys).  pread
         tells which, for the rest of this round.  */
      if (n == 0)
        break;
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN)
        {
          if (wait_ready (o->fd, POLLOUT))
            continue;
          output_failed (c, i, pos, errno);
          return end;
        }
      /* A failure may be the output's, the input's (a bad block) or the
         call's alone: pread and write of the same bytes tell which.
         But an error that the input does not explain is the output's,
         and reported as it came: another call on a connection that was
         reset would say something else.  */
      int err = errno;
      if (kernel_refused (err))
        output_fall_back (o);
      else if (kernel_short_of (err) || ! input_reads (c, pos))
        break;
      else
        {
          output_failed (c, i, pos, err);
          return end;
        }
    }
  return pos < end ? write_from (c, i, pos) : end;
}

/* The most bytes in the next round.  round_limit keeps the reader of a
   pipe output fed while ktee writes the other outputs; but an output
   that takes a reflink is written in next to no time, and smaller rounds
   would only cost it calls (doc/design.md, "Sizes of rounds and calls").
   A second pipe output still keeps the first one's reader waiting.  */

static size_t
file_round_size (struct file_copy const *c)
{
  size_t pipes = 0;
  for (size_t i = 0; i < c->outs->n; i++)
    {
      struct output const *o = &c->outs->v[i];
      if (o->fd < 0)
        continue;
      if (o->is_pipe ? 1 < ++pipes : ! reflinked (c, i))
        return round_limit (c->outs, c->block);
    }
  return c->block;
}

/* Set up the next round at C->off: up to file_round_size bytes, as far as
   the input's size reaches.  Return false at its size.  */

static bool
next_round (struct file_copy *c)
{
  if (c->size <= c->off)
    {
      /* Where GNU tee's read would say 0, unless the file has grown.  */
      struct stat st;
      if (fstat (STDIN_FILENO, &st) != 0 || st.st_size <= c->off)
        return false;
      c->size = st.st_size;
    }
  size_t most = file_round_size (c);
  c->round = MIN (most, c->size - c->off);
  c->failed_at = -1;

  /* A pipe output whose reader has gone kills ktee, as it killed GNU
     tee in the first block it wrote after: take only that block, so
     that the outputs before the pipe and the offset are left as GNU's.  */
  off_t block_end = gnu_block_start (c, c->off) + GNU_TEE_BLOCK;
  if (c->sigpipe_kills && block_end - c->off < c->round
      && broken_pipe_output (c->outs))
    c->round = block_end - c->off;

  /* Move the offset past the round now, as GNU tee's read would: a
     signal may end ktee before the round does.  */
  lseek (STDIN_FILENO, c->off + c->round, SEEK_SET);
  return true;
}

/* Deliver the round to every live output in order, standard output
   first, as GNU tee writes each block.  An output that finds the input
   ending early, or failing to read, cuts the round there for the
   outputs after it: each holds the bytes before a bad block, as GNU
   tee's do, before the read error is reported.  Return false if reading
   the input failed.  */

static bool
deliver_file_round (struct file_copy *c)
{
  c->read_errno = 0;
  fill_master (c);
  for (size_t i = 0; i < c->outs->n; i++)
    {
      if (c->outs->v[i].fd < 0)
        continue;
      off_t end = deliver_to (c, i);
      if (end < c->off + c->round)
        {
          c->round = end - c->off;
          lseek (STDIN_FILENO, end, SEEK_SET);
        }
    }
  if (c->held)
    drop_master (c);
  if (c->read_errno)
    {
      input_fail (c->outs, c->read_errno);
      return false;
    }

  /* GNU tee would have read no further than the block in which the
     last output failed.  */
  if (! c->outs->live && 0 <= c->failed_at)
    {
      off_t stop = gnu_block_start (c, c->failed_at) + GNU_TEE_BLOCK;
      lseek (STDIN_FILENO, MIN (stop, c->off + c->round), SEEK_SET);
    }
  return true;
}

enum copy_result
copy_file (struct outputs *outs, struct copy_plan const *plan,
           uintmax_t *taken)
{
  struct stat st;
  off_t start = lseek (STDIN_FILENO, 0, SEEK_CUR);
  if (start < 0 || fstat (STDIN_FILENO, &st) != 0)
    return COPY_PARTIAL;

  struct file_copy c =
    {
      .outs = outs,
      .grid = start,
      .off = start,
      .size = st.st_size,
      .block = plan->blocks_show ? GNU_TEE_BLOCK : FILE_ROUND,
      .sigpipe_kills = plan->sigpipe_kills,
      .pipe = { -1, -1 },
      .master = { -1, -1 }
    };
  enum copy_result result = COPY_DONE;
  while (outs->live)
    {
      /* The file's size is a hint, not its end (/proc, FUSE, lxcfs):
         read(2) has the last word.  */
      if (! next_round (&c))
        {
          result = COPY_PARTIAL;
          break;
        }
      if (! deliver_file_round (&c))
        {
          result = COPY_FAILED;
          break;
        }
      if (! c.round)
        break;
      c.off += c.round;
    }

  close_pipe (c.pipe);
  close_pipe (c.master);
  *taken += c.off - start;
  return result;
}
