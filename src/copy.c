/* copy.c -- choose how ktee copies, from the kinds of its input and outputs.
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

/* Every choice is made here, before any engine runs, from fstat(2) of
   the input and of each output: which engine copies (the table engines,
   each engine a descriptor of its copy and of the way each kind of
   output takes its bytes from it), what each output is (a pipe; a file,
   and how its file system copies), and where GNU tee's block size must
   show (the plan).  Then copy.c only calls the engine.  An engine may
   still decline (the kernel refuses splice, a pipe cannot be made)
   before it takes any input, and the read/write engine then does the
   copy; an output that refuses its way falls back, alone
   (output_fall_back).  How large each round is, the rounds decide
   (rounds.c).  */

#include <config.h>

#include "copy.h"
#include "engine.h"

#include <fcntl.h>
#if HAVE_LINUX_MAGIC_H
# include <linux/magic.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/param.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "iopoll.h"
#include "xalloc.h"

/* The file systems' numbers from the kernel's include/uapi/linux/magic.h,
   for a C library whose include path lacks the kernel's headers (musl).  */
#ifndef XFS_SUPER_MAGIC
# define XFS_SUPER_MAGIC 0x58465342
#endif
#ifndef BTRFS_SUPER_MAGIC
# define BTRFS_SUPER_MAGIC 0x9123683E
#endif
#ifndef TMPFS_MAGIC
# define TMPFS_MAGIC 0x01021994
#endif
#ifndef EXT4_SUPER_MAGIC
# define EXT4_SUPER_MAGIC 0xEF53
#endif

/* What standard input is, as far as copying goes.  */
enum input_kind
  {
    INPUT_PIPE,           /* A pipe or FIFO.  */
    INPUT_PACKET_PIPE,    /* One whose writer said O_DIRECT, if it shows.  */
    INPUT_FILE,           /* A regular file with a size.  */
    INPUT_SIZELESS_FILE,  /* Regular, but of size 0: /proc, or empty.  */
    INPUT_ALIASED_FILE,   /* Regular, and also one of the outputs.  */
    INPUT_STREAM_SOCKET,  /* TCP, UNIX stream.  */
    INPUT_CHAR_DEVICE,    /* /dev/zero, a terminal.  */
    INPUT_OTHER           /* Closed, a directory, a datagram socket...  */
  };

/* Return true if output O is the file ST describes.  */

static bool
same_file (struct output const *o, struct stat const *st)
{
  struct stat ost;
  return (0 <= o->fd && fstat (o->fd, &ost) == 0
          && ost.st_dev == st->st_dev && ost.st_ino == st->st_ino);
}

static bool
is_stream_socket (int fd)
{
  int type;
  socklen_t len = sizeof type;
  return (getsockopt (fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0
          && type == SOCK_STREAM);
}

/* Return true if each read(2) of input FD, whose fstat(2) is ST, may
   take one record and drop what does not fit (a datagram or seqpacket
   socket, a character device such as a tun device), so that the size of
   GNU tee's reads decides which bytes it copies.  Pipes, stream sockets,
   regular files and block devices give bytes whatever the size.  */

static bool
reads_records (int fd, struct stat const *st)
{
  if (S_ISSOCK (st->st_mode))
    return ! is_stream_socket (fd);
  return ! (S_ISFIFO (st->st_mode) || S_ISREG (st->st_mode)
            || S_ISBLK (st->st_mode));
}

/* Return true if the input, whose fstat(2) is ST (NULL if unknown), or
   an output of OUTS takes records, whose sizes are GNU tee's reads'.  */

static bool
records_show (struct outputs const *outs, struct stat const *st)
{
  if (st && reads_records (STDIN_FILENO, st))
    return true;
  for (size_t i = 0; i < outs->n; i++)
    if (0 <= outs->v[i].fd && outs->v[i].takes_records)
      return true;
  return false;
}

/* Return the kind of standard input, whose fstat(2) is ST (NULL if that
   failed, which makes it INPUT_OTHER).  */

static enum input_kind
input_kind (struct outputs const *outs, struct stat const *st)
{
  if (! st)
    return INPUT_OTHER;

  if (S_ISFIFO (st->st_mode))
    {
      int flags = fcntl (STDIN_FILENO, F_GETFL);
      return 0 <= flags && (flags & O_DIRECT) ? INPUT_PACKET_PIPE : INPUT_PIPE;
    }
  if (S_ISREG (st->st_mode))
    {
      for (size_t i = 0; i < outs->n; i++)
        if (same_file (&outs->v[i], st))
          return INPUT_ALIASED_FILE;
      return st->st_size <= 0 ? INPUT_SIZELESS_FILE : INPUT_FILE;
    }
  if (S_ISSOCK (st->st_mode))
    return is_stream_socket (STDIN_FILENO) ? INPUT_STREAM_SOCKET : INPUT_OTHER;
  if (S_ISCHR (st->st_mode))
    return INPUT_CHAR_DEVICE;
  return INPUT_OTHER;
}

/* The file systems on which copy_file_range may share the input's
   blocks (a reflink) rather than copy them: no page is written, so the
   file engine's rounds need not be small for a pipe's reader's sake
   (copy-file.c).  */
static unsigned long const reflinking_file_systems[] =
{
  XFS_SUPER_MAGIC,
  BTRFS_SUPER_MAGIC
};

/* The file systems whose copy_file_range copies through a pipe of the
   kernel's, 64 KiB at a time, where ktee's own pipe of 1 MiB costs less
   for larger rounds (bench/results-piped.md); ext2 and ext3 share the
   number with ext4.  */
static unsigned long const pipe_copying_file_systems[] =
{
  TMPFS_MAGIC,
  EXT4_SUPER_MAGIC
};

/* Return true if file system type TYPE is one of the N in TABLE.  */

static bool
fs_in (unsigned long type, unsigned long const *table, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (type == table[i])
      return true;
  return false;
}

/* Note whether output O is a pipe, a regular file (which takes room on
   its file system) or a datagram or seqpacket socket, each write to
   which makes a record; and if not a pipe, how its file system copies a
   file.  The read end of a pipe is no pipe output: writing to it fails
   with EBADF whether or not it has writers, which poll would take for a
   reader gone.  */

static void
classify_output (struct output *o)
{
  struct stat st;
  struct statfs fs;
  int flags = fcntl (o->fd, F_GETFL);
  bool known = 0 <= flags && fstat (o->fd, &st) == 0;
  o->is_pipe = (known && S_ISFIFO (st.st_mode)
                && (flags & O_ACCMODE) != O_RDONLY);
  o->is_file = known && S_ISREG (st.st_mode);
  o->takes_records = (known && S_ISSOCK (st.st_mode)
                      && ! is_stream_socket (o->fd));
  if (o->is_pipe || fstatfs (o->fd, &fs) != 0)
    return;
  o->reflinks = fs_in (fs.f_type, reflinking_file_systems,
                       sizeof reflinking_file_systems
                       / sizeof *reflinking_file_systems);
  o->copies_by_pipe = fs_in (fs.f_type, pipe_copying_file_systems,
                             sizeof pipe_copying_file_systems
                             / sizeof *pipe_copying_file_systems);
}

/* Return true if signal SIG, when raised, kills ktee.  */

static bool
signal_kills (int sig)
{
  struct sigaction sa;
  return sigaction (sig, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL;
}

/* Return true if a write can kill ktee with SIGXFSZ, so that where it
   dies decides what the other outputs hold.  */

static bool
file_size_limited (void)
{
  struct rlimit rl;
  return (getrlimit (RLIMIT_FSIZE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
          && signal_kills (SIGXFSZ));
}

/* Return true if standard input has a file offset, which a copy that
   stops early leaves where the next reader of the same open file (as in
   "{ tee ...; cat; } < FILE") starts.  */

static bool
input_has_offset (void)
{
  return 0 <= lseek (STDIN_FILENO, 0, SEEK_CUR);
}

/* An output as far as aliasing goes: the file or pipe it writes into,
   and whether it writes at an offset of its own (a regular file that it
   does not append to).  */
struct output_id
{
  dev_t dev;
  ino_t ino;
  bool own_offset;
};

/* Return true if two live outputs of OUTS are one file or pipe, into
   which their copies interleave: "-a f f", /dev/stdout, /dev/stderr,
   /proc/self/fd/N, a FIFO or hard links named twice.  Two that each
   write at an offset of their own put the same bytes at the same
   offsets, whatever the size of the blocks.  */

static bool
outputs_interleave (struct outputs const *outs)
{
  struct output_id *seen = xnmalloc (outs->n, sizeof *seen);
  size_t nseen = 0;
  bool found = false;
  for (size_t i = 0; i < outs->n && ! found; i++)
    {
      struct stat st;
      int fd = outs->v[i].fd;
      int flags = 0 <= fd ? fcntl (fd, F_GETFL) : -1;
      if (flags < 0 || fstat (fd, &st) != 0)
        continue;
      struct output_id id = { st.st_dev, st.st_ino,
                              S_ISREG (st.st_mode) && ! (flags & O_APPEND) };
      for (size_t j = 0; j < nseen && ! found; j++)
        found = (seen[j].dev == id.dev && seen[j].ino == id.ino
                 && ! (seen[j].own_offset && id.own_offset));
      seen[nseen++] = id;
    }
  free (seen);
  return found;
}

/* Take GNU tee's block size wherever it shows: in the exit modes and under
   a file size limit, what the outputs hold when the copy stops early; in
   outputs that are one file, how their copies interleave; with a seekable
   input, where it leaves the offset, unless the engine puts the offset
   there itself (copy-file.c); where the input or an output takes
   records, which bytes there are and how they are cut.  ST is standard
   input's fstat(2), or NULL.  */

static struct copy_plan
plan_copy (struct outputs const *outs, struct stat const *st)
{
  enum output_error mode = outs->mode;
  struct copy_plan plan = { 0 };
  plan.records = records_show (outs, st);
  plan.blocks_show = (exits_on_error (mode) || file_size_limited ()
                      || outputs_interleave (outs));
  plan.block = (plan.blocks_show || plan.records || input_has_offset ()
                ? GNU_TEE_BLOCK : 0);
  plan.sigpipe_kills = mode == output_error_sigpipe && signal_kills (SIGPIPE);
  plan.watch_outputs = spares_pipes (mode) && input_pollable (STDIN_FILENO);
  plan.input_timeout = call_timeout (STDIN_FILENO, POLLIN);
  return plan;
}

/* What an output is, as far as the engines' ways go.  */
enum output_kind
  {
    OUTPUT_REGULAR,     /* A regular file.  */
    OUTPUT_APPENDING,   /* Anything opened with O_APPEND (-a, >>).  */
    OUTPUT_PIPE,        /* A pipe or FIFO.  */
    OUTPUT_OTHER,       /* A socket, a device such as /dev/null.  */
    OUTPUT_UNKNOWN      /* Not open (stdout closed), or fstat fails.  */
  };

/* How the file engine gives the input's bytes to each kind of output.
   - A regular file by copy_file_range, which the file system may make
     a reflink (btrfs, XFS) or a copy on the server (NFS 4.2); a large
     round, on a file system that would copy it 64 KiB at a time, goes
     through a pipe of ktee's instead (copy-file.c).
   - Not to the end of one opened with O_APPEND, which copy_file_range
     and splice refuse: it is written.
   - A pipe by splice, which hands it the page cache's pages.
   - Anything else by sendfile, which refuses what cannot take it (a
     terminal, /dev/full): that is then written.
   - Whatever is wrong with an output that fstat fails on, write says
     it as GNU tee's write would.  */
static enum output_way const file_ways[] =
{
  [OUTPUT_REGULAR] = OUTPUT_COPY_RANGE,
  [OUTPUT_APPENDING] = OUTPUT_WRITE,
  [OUTPUT_PIPE] = OUTPUT_SPLICE,
  [OUTPUT_OTHER] = OUTPUT_SENDFILE,
  [OUTPUT_UNKNOWN] = OUTPUT_WRITE
};

/* An engine as copy.c chooses it: its copy, and the way each kind of
   output takes its bytes from it; NULL: by splice, whatever the output,
   until it refuses.  */
struct engine
{
  copy_engine *copy;
  enum output_way const *ways;
};

static struct engine const splice_pipe_engine = { copy_splice_pipe, NULL };
static struct engine const splice_socket_engine = { copy_splice_socket,
                                                     NULL };
static struct engine const file_engine = { copy_file, file_ways };

/* The engine for each kind of input; NULL means read and write.

   - A pipe or a stream socket is spliced, once, into a private pipe
     from which every output takes its copy: what splice takes from
     them is gone, as with read.  Packet buffers in a pipe lose their
     packet mode in the pipe engine, round by round (packets.c); a pipe
     whose read end itself shows O_DIRECT is read, as GNU tee reads it.
   - A regular file is never consumed: each output takes the same bytes
     from the page cache at an explicit offset (copy-file.c).
   - A file that reports no size (/proc, whose copy_file_range and splice
     may say 0 with data there) is read, as is one that is also an
     output: "ktee f < f" or "ktee -a f < f" reads what it has just
     written, in GNU tee's blocks.
   - A character device gives what a read asks for (/dev/zero, /dev/urandom)
     or a line at a time (a terminal): nothing to gain.  */
static struct engine const *const engines[] =
{
  [INPUT_PIPE] = &splice_pipe_engine,
  [INPUT_PACKET_PIPE] = NULL,
  [INPUT_FILE] = &file_engine,
  [INPUT_SIZELESS_FILE] = NULL,
  [INPUT_ALIASED_FILE] = NULL,
  [INPUT_STREAM_SOCKET] = &splice_socket_engine,
  [INPUT_CHAR_DEVICE] = NULL,
  [INPUT_OTHER] = NULL
};

static enum output_kind
output_kind (struct output const *o)
{
  struct stat st;
  int flags = fcntl (o->fd, F_GETFL);
  if (flags < 0 || fstat (o->fd, &st) != 0)
    return OUTPUT_UNKNOWN;
  if (flags & O_APPEND)
    return OUTPUT_APPENDING;
  if (S_ISREG (st.st_mode))
    return OUTPUT_REGULAR;
  if (S_ISFIFO (st.st_mode))
    return OUTPUT_PIPE;
  return OUTPUT_OTHER;
}

/* Set the way each live output of OUTS takes its bytes from ENGINE.  */

static void
choose_ways (struct outputs *outs, struct engine const *engine)
{
  for (size_t i = 0; i < outs->n; i++)
    {
      struct output *o = &outs->v[i];
      if (0 <= o->fd)
        o->way = (engine->ways ? engine->ways[output_kind (o)]
                  : OUTPUT_SPLICE);
    }
}

/* ktee reads a pipe or a socket as GNU tee does, in its blocks, until
   this much has come, before it asks the kernel what its input and
   outputs are: the calls that tell cost a small input 0.5 to 1.1% more
   of ktee's CPU (bench/results-pipes.md).  An input of just one buffer
   ends at the read after, hence the byte more.  */
enum { START_INPUT = RW_BUFSIZE + 1 };

/* ktee copies this much of a pipe or a socket by read and write before
   it makes its pipes: an input that ends within it costs what GNU tee's
   costs (the pipes alone cost more than copying it), and a longer one
   moves all but this by splice.  The read that reaches it may bring up
   to RW_BUFSIZE - 1 bytes more.  */
enum { SMALL_INPUT = 256 * 1024 };

/* Copy the start of standard input, whose fstat(2) is ST (NULL if
   unknown), by read and write, where no engine costs less: the whole of
   a file that GNU tee reads in one block, and the first SMALL_INPUT
   bytes of a pipe or socket.  Look at the outputs and set *PLAN on the
   way.  Add the bytes copied to *TAKEN, and return true if the copy is
   over.  */

static bool
copy_start (struct outputs *outs, enum copy_method method,
            struct stat const *st, struct copy_plan *plan, uintmax_t *taken)
{
  bool streams = st && (S_ISFIFO (st->st_mode) || S_ISSOCK (st->st_mode));
  bool small_by_rw = method != copy_method_splice;
  struct copy_plan gnu_blocks = { .block = GNU_TEE_BLOCK };

  /* A file that GNU tee reads in one block costs the file engine more in
     calls than its copy; read and written, it costs what it costs GNU
     tee, which never polls a file either.  */
  if (small_by_rw && st && S_ISREG (st->st_mode)
      && st->st_size <= GNU_TEE_BLOCK)
    {
      copy_rw (outs, &gnu_blocks, taken, RW_NO_LIMIT);
      return true;
    }

  /* What a pipe or a socket gives is gone once taken, and so can be read
     before ktee knows more; but the nopipe modes watch the pipe outputs
     from the first read.  */
  if (small_by_rw && streams && ! spares_pipes (outs->mode)
      && copy_rw (outs, &gnu_blocks, taken, START_INPUT) != COPY_PARTIAL)
    return true;

  for (size_t i = 0; i < outs->n; i++)
    if (0 <= outs->v[i].fd)
      classify_output (&outs->v[i]);
  *plan = plan_copy (outs, st);

  return (streams && method == copy_method_auto
          && copy_rw (outs, plan, taken, SMALL_INPUT) != COPY_PARTIAL);
}

/* Return the engine that copies the rest of standard input, whose
   fstat(2) is ST (NULL if unknown), by METHOD and PLAN, with the way
   of each output set; NULL for the read/write engine.  */

static struct engine const *
choose_engine (struct outputs *outs, enum copy_method method,
               struct stat const *st, struct copy_plan const *plan)
{
  if (method == copy_method_rw || plan->records)
    return NULL;
  struct engine const *engine = engines[input_kind (outs, st)];
  if (engine)
    choose_ways (outs, engine);
  return engine;
}

void
copy_input (struct outputs *outs, enum copy_method method)
{
  struct stat st;
  struct stat const *stp = fstat (STDIN_FILENO, &st) == 0 ? &st : NULL;
  struct copy_plan plan;
  uintmax_t taken = 0;

  if (copy_start (outs, method, stp, &plan, &taken))
    return;

  struct engine const *engine = choose_engine (outs, method, stp, &plan);
  if (! engine || engine->copy (outs, &plan, &taken) == COPY_PARTIAL)
    copy_rw (outs, &plan, &taken, RW_NO_LIMIT);
}
