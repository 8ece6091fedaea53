/* fusefile -- serve files whose reads fail or outrun their size.
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

/* Usage: fusefile [--direct-io] [--size N] [--bad OFFSET] [--long N]
                   MOUNTPOINT

   Mount at MOUNTPOINT, with libfuse3, a read-only file system of three
   files holding numbered lines, as "seq 1 1000000000 | head -c N" makes:
     data  N bytes (--size, 4 MiB by default);
     bad   the same, but a read that touches the 4 KiB at OFFSET (--bad,
           1 MiB + 64 KiB by default) fails with EIO;
     long  st_size N (--long, 10000 by default), but 2 N bytes to read.
   Through the page cache the kernel reads "bad" in readahead windows,
   then the failing page alone, so OFFSET bytes (if page aligned) come
   before EIO; with --direct-io each read(2) comes here as it is, and a
   read that touches the bad bytes fails whole.

   fusefile stays in the foreground until the file system is unmounted
   (umount or fusermount3 -u), then exits 0; SIGTERM unmounts it too,
   with status 125.  It exits 125 if it cannot mount, saying "fusefile:
   /dev/fuse: ..." if FUSE itself is missing, so that a test can skip.
   No local file system fails a read at a chosen offset or has more
   bytes than its size says, hence this program.  */

#define FUSE_USE_VERSION 31

#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <fuse.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool direct_io;
static off_t bad_offset = 1048576 + 65536;
static char *content;

/* NAME has st_size SIZE, and LENGTH bytes of CONTENT to read.  */
static struct file { char const *name; off_t size, length; } files[] =
  { { "data", 4194304, 0 }, { "bad", 0, 0 }, { "long", 10000, 0 } };
enum { DATA, BAD, LONG, NFILES };

static _Noreturn void
die (char const *what)
{
  perror (what);
  exit (125);
}

static _Noreturn void
usage (void)
{
  fprintf (stderr, "Usage: fusefile [--direct-io] [--size N] [--bad OFFSET]"
           " [--long N] MOUNTPOINT\n");
  exit (125);
}

static off_t
number (char const *arg)
{
  char *end;
  errno = 0;
  long long n = strtoll (arg, &end, 10);
  if (! *arg || *end || errno || n < 0 || 1LL << 30 < n)
    {
      fprintf (stderr, "fusefile: bad number: %s\n", arg);
      exit (125);
    }
  return n;
}

static int
lookup (char const *path)
{
  for (int i = 0; i < NFILES; i++)
    if (path[0] == '/' && strcmp (path + 1, files[i].name) == 0)
      return i;
  return -1;
}

/* Attributes are asked for at each use, so that the kernel keeps no
   size of its own.  Through the page cache it believes st_size: a read
   there refreshes the size, then stops at it, so "long" reads as N
   bytes.  With direct I/O a read comes here at any offset, st_size or
   not, and ends where fusefile returns 0, so "long" reads as 2 N bytes
   while stat still says N.  */
static void *
fs_init (struct fuse_conn_info *conn, struct fuse_config *cfg)
{
  cfg->entry_timeout = 0;
  cfg->attr_timeout = 0;
  cfg->negative_timeout = 0;
  return NULL;
}

static int
fs_getattr (char const *path, struct stat *st, struct fuse_file_info *fi)
{
  int i = lookup (path);
  memset (st, 0, sizeof *st);
  st->st_nlink = 1;
  if (strcmp (path, "/") == 0)
    st->st_mode = S_IFDIR | 0555;
  else if (i < 0)
    return -ENOENT;
  else
    {
      st->st_mode = S_IFREG | 0444;
      st->st_size = files[i].size;
    }
  return 0;
}

static int
fs_readdir (char const *path, void *buf, fuse_fill_dir_t filler,
            off_t offset, struct fuse_file_info *fi,
            enum fuse_readdir_flags flags)
{
  if (strcmp (path, "/") != 0)
    return -ENOTDIR;
  filler (buf, ".", NULL, 0, 0);
  filler (buf, "..", NULL, 0, 0);
  for (int i = 0; i < NFILES; i++)
    filler (buf, files[i].name, NULL, 0, 0);
  return 0;
}

/* No keep_cache: each open reads afresh, so "bad" fails every time.
   The "ro" mount option keeps writers out.  */
static int
fs_open (char const *path, struct fuse_file_info *fi)
{
  int i = lookup (path);
  if (i < 0)
    return -ENOENT;
  fi->fh = i;
  fi->direct_io = direct_io;
  fi->keep_cache = 0;
  return 0;
}

static int
fs_read (char const *path, char *buf, size_t size, off_t off,
         struct fuse_file_info *fi)
{
  struct file const *f = &files[fi->fh];
  if (fi->fh == BAD && off < bad_offset + 4096
      && bad_offset < off + (off_t) size)
    return -EIO;
  if (f->length <= off)
    return 0;
  if (f->length - off < (off_t) size)
    size = f->length - off;
  memcpy (buf, content + off, size);
  return size;
}

static struct fuse_operations const operations = {
  .init = fs_init,
  .getattr = fs_getattr,
  .readdir = fs_readdir,
  .open = fs_open,
  .read = fs_read,
};

int
main (int argc, char **argv)
{
  static struct option const longopts[] = {
    { "direct-io", no_argument, NULL, 'd' },
    { "size", required_argument, NULL, 's' },
    { "bad", required_argument, NULL, 'b' },
    { "long", required_argument, NULL, 'l' },
    { NULL, 0, NULL, 0 }
  };
  int c;
  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    switch (c)
      {
      case 'd': direct_io = true; break;
      case 's': files[DATA].size = number (optarg); break;
      case 'b': bad_offset = number (optarg); break;
      case 'l': files[LONG].size = number (optarg); break;
      default: usage ();
      }
  if (argc - optind != 1)
    usage ();

  files[DATA].length = files[DATA].size;
  files[BAD].size = files[BAD].length = files[DATA].size;
  files[LONG].length = 2 * files[LONG].size;
  size_t length = (files[DATA].length < files[LONG].length
                   ? files[LONG].length : files[DATA].length);
  content = malloc (length + 1);
  if (! content)
    die ("fusefile");
  /* The lines "1\n2\n3\n"..., cut at LENGTH bytes.  */
  char line[32];
  for (size_t i = 0, k = 1, n; i < length; i += n, k++)
    {
      n = sprintf (line, "%zu\n", k);
      memcpy (content + i, line, length - i < n ? length - i : n);
    }

  /* libfuse's own message for a missing /dev/fuse ("fuse: device not
     found") names no file; say which, for the test's skip reason.  */
  int fd = open ("/dev/fuse", O_RDWR | O_CLOEXEC);
  if (fd < 0)
    die ("fusefile: /dev/fuse");
  close (fd);

  /* Single-threaded in the foreground; allow_other lets a test read as
     another user (root needs no user_allow_other in /etc/fuse.conf).  */
  static char foreground[] = "-f", single[] = "-s", o[] = "-o";
  static char options[] = "ro,default_permissions,allow_other";
  char *fuse_argv[] = { argv[0], foreground, single, o, options,
                        argv[optind], NULL };
  int status = fuse_main (6, fuse_argv, &operations, NULL);
  free (content);
  return status == 0 ? 0 : 125;
}
