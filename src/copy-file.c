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

/* A regular file is not consumed by reading it: each output takes the
   round's bytes from the same explicit input offset (file_give), or
   from a master that holds them (round_deliver), and falls back alone,
   from where it got to, in the end to pread and write, which also take
   the rest of a round that fails where the input explains it (a bad
   block) or where read and write may not.  The file's size is a hint:
   at it, the read/write engine reads on until read(2) says 0.  Rounds
   keep GNU tee's order, and are its 8 KiB blocks where those show;
   larger ones leave the input offset where GNU tee's blocks would:
   past each round before it is delivered, as a read would, and when
   the last output fails, at the end of the block in which it failed
   (doc/design.md).  */

#include <config.h>

#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/param.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iopoll.h"
#include "pipes.h"
#include "rounds.h"

/* The buffer for outputs written with write(2).  Most runs never touch
   it, and untouched static pages cost nothing; a heap buffer would have
   to be freed, which a signal ending ktee mid-write does not allow.  */
static char write_buf[RW_BUFSIZE];

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
  struct round_pipes pipes; /* For the outputs that take a round
                            through a pipe; made on first use.  */
};

/* Splice the round from the input into the master, if it is large and
   two or more outputs take it through a pipe.  A failure is left to the
   outputs' own calls to meet and report.  */

static void
fill_master (struct file_copy *c)
{
  struct round_pipes *p = &c->pipes;
  off_t pos = c->off;
  p->held = 0;
  if (c->round <= KERNEL_PIPE_BYTES
      || pipe_takers (c->outs, 0, c->round) < 2)
    return;
  if (! (round_pipes_open (p, PIPE_BYTES, true)
         && round_fill (p, STDIN_FILENO, &pos, c->round) == MOVE_DONE
         && p->held))
    round_drop (p);
}

/* Move up to LEN bytes of the input from *POS to output I in the kernel:
   from the master if it holds them, else its way.  Add to *POS and set
   *DONE to what it took, 0 where the input ends.  Return as
   file_give.  */

static enum move_result
kernel_copy (struct file_copy *c, size_t i, off_t *pos, size_t len,
             size_t *done)
{
  struct output const *o = &c->outs->v[i];
  if (c->pipes.held && *pos == c->off && takes_by_pipe (o, len))
    {
      enum move_result r = round_deliver (&c->pipes, c->outs, i, true, len,
                                          done, NULL);
      *pos += *done;
      if (! (r == MOVE_DONE && *done == 0))
        return r;
    }
  return file_give (STDIN_FILENO, pos, &c->pipes.copy, o, len, done);
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
      ssize_t n = read_at (c, write_buf, MIN (RW_BUFSIZE, left), pos);
      if (n < 0)
        {
          c->read_errno = errno;
          return pos;
        }
      if (n == 0)
        return pos;
      size_t written;
      if (write_wait (&c->outs->v[i], write_buf, n, &written) != MOVE_DONE)
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
    n = read_at (c, write_buf, MIN (RW_BUFSIZE, end - pos), pos);
  return 0 <= n;
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
      size_t done;
      enum move_result r = kernel_copy (c, i, &pos, end - pos, &done);
      int err = errno;
      /* Nothing where the size said there was something: the file
         shrank, or says it holds what it does not (/sys).  pread tells
         which, for the rest of this round.  */
      if (r == MOVE_DONE && ! done)
        break;
      if (r == MOVE_REFUSED && kernel_refused (err))
        output_fall_back (o);
      /* A failure may be the output's, the input's (a bad block) or the
         call's alone: pread and write of the same bytes tell which.
         But an error that the input does not explain is the output's,
         and reported as it came: another call on a connection that was
         reset would say something else.  */
      else if (r == MOVE_REFUSED || (r == MOVE_FAILED
                                     && ! input_reads (c, pos)))
        break;
      else if (r == MOVE_FAILED)
        {
          output_failed (c, i, pos, err);
          return end;
        }
    }
  return pos < end ? write_from (c, i, pos) : end;
}

/* Set up the next round at C->off: up to file_round_limit bytes, as far
   as the input's size reaches.  Return false at its size.  */

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
  size_t most = file_round_limit (c->outs, c->block);
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
  if (c->pipes.held)
    round_drop (&c->pipes);
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
      .block = plan->blocks_show ? GNU_TEE_BLOCK : PIPE_BYTES,
      .sigpipe_kills = plan->sigpipe_kills,
      .pipes = ROUND_PIPES_CLOSED
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

  round_pipes_close (&c.pipes);
  *taken += c.off - start;
  return result;
}
