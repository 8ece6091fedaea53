/* failsys -- run a program in a sandbox that fails chosen system calls.
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

/* Usage: failsys RULE... -- PROGRAM [ARG]...

   RULE is SYSCALL[,SYSCALL]...:ERRNO[:argN=VALUE]..., for example
   "splice:EIO:arg2=3" (every splice whose fd_out is 3 fails with EIO) or
   "tee,splice:ENOSYS" (neither call exists).  SYSCALL is a name libseccomp
   knows, ERRNO a name from the table below or a number, N counts the
   arguments from 0 as seccomp does, and VALUE is compared with the low 32
   bits of the argument, which is all an int descriptor has.  A call that
   matches no rule runs.

   This models a sandbox or a kernel that refuses a call, every time: a
   seccomp filter is what such sandboxes use.  Faults on one call only
   need a counter, which a filter cannot keep; the tests use strace's
   --inject for those.

   Descriptors above 2 are closed first, so that the files PROGRAM opens
   get 3, 4, ... whatever the caller left open, and rules can name them.

   libseccomp writes the filter for every architecture it knows.  Built
   without it, failsys exits with status 77, and the tests skip.  */

#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if HAVE_LIBSECCOMP

# include <seccomp.h>
# include <stdint.h>
# include <sys/syscall.h>

enum { MAX_ARGS = 6 };

/* The calls that the C library makes instead of these on some
   architectures (32-bit ones, for 64-bit offsets or times): a rule names
   what the program calls, so it fails those too.  A name that does not
   exist on this architecture adds no rule.  */
static struct { char const *name; char const *alias; } const aliases[] =
  {
    { "sendfile", "sendfile64" }, { "fcntl", "fcntl64" },
    { "ppoll", "ppoll_time64" },
  };

static struct { char const *name; int errnum; } const errnos[] =
  {
    { "EPERM", EPERM }, { "EINTR", EINTR }, { "EIO", EIO },
    { "EBADF", EBADF }, { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
    { "EFAULT", EFAULT }, { "EINVAL", EINVAL }, { "EFBIG", EFBIG },
    { "ENOSPC", ENOSPC }, { "EPIPE", EPIPE }, { "ENOSYS", ENOSYS },
    { "EOPNOTSUPP", EOPNOTSUPP }, { "EDQUOT", EDQUOT }, { "EXDEV", EXDEV },
  };

_Noreturn static void
usage_error (char const *what, char const *arg)
{
  fprintf (stderr, "failsys: %s: %s\n", what, arg);
  fprintf (stderr,
           "Usage: failsys SYSCALL[,SYSCALL]...:ERRNO[:argN=VALUE]..."
           " [RULE]... -- PROGRAM [ARG]...\n");
  exit (125);
}

static int
errno_number (char const *name)
{
  for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
    if (strcmp (name, errnos[i].name) == 0)
      return errnos[i].errnum;
  char *end;
  long n = strtol (name, &end, 10);
  /* 0xffff: what the data of a seccomp return holds.  */
  if (!*name || *end || n <= 0 || 0xffff < n)
    usage_error ("unknown errno", name);
  return (int) n;
}

/* Parse "argN=VALUE" into the comparison *CMP: the low 32 bits of
   argument N equal VALUE.  */
static void
parse_arg (struct scmp_arg_cmp *cmp, char const *spec)
{
  char *end;
  if (strncmp (spec, "arg", 3) != 0 || spec[3] < '0' || '5' < spec[3]
      || spec[4] != '=')
    usage_error ("bad argument condition", spec);
  errno = 0;
  unsigned long value = strtoul (spec + 5, &end, 0);
  if (!spec[5] || *end || errno || 0xffffffffUL < value)
    usage_error ("bad argument value", spec);
  *cmp = (struct scmp_arg_cmp) { .arg = (unsigned int) (spec[3] - '0'),
                                 .op = SCMP_CMP_MASKED_EQ,
                                 .datum_a = 0xffffffff, .datum_b = value };
}

/* Make system call NAME return ACTION in CTX when the NARGS comparisons
   CMP hold.  */
static void
add_rule (scmp_filter_ctx ctx, char const *name, uint32_t action,
          unsigned int nargs, struct scmp_arg_cmp const *cmp)
{
  int nr = seccomp_syscall_resolve_name (name);
  if (nr == __NR_SCMP_ERROR)
    usage_error ("unknown system call", name);
  int err = seccomp_rule_add_array (ctx, action, nr, nargs, cmp);
  if (err < 0)
    usage_error (strerror (-err), name);
}

/* Parse SPEC and add its rules to CTX, one per system call it names.  */
static void
parse_rule (scmp_filter_ctx ctx, char *spec)
{
  char *names = strtok (spec, ":");
  char *err = strtok (NULL, ":");
  if (!names || !err)
    usage_error ("bad rule", spec);
  uint32_t action = SCMP_ACT_ERRNO ((unsigned int) errno_number (err));
  struct scmp_arg_cmp cmp[MAX_ARGS];
  unsigned int nargs = 0;
  for (char *a; (a = strtok (NULL, ":")); nargs++)
    {
      if (nargs == MAX_ARGS)
        usage_error ("too many argument conditions", a);
      parse_arg (&cmp[nargs], a);
    }

  for (char *name = strtok (names, ","); name; name = strtok (NULL, ","))
    {
      add_rule (ctx, name, action, nargs, cmp);
      for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp (name, aliases[i].name) == 0)
          add_rule (ctx, aliases[i].alias, action, nargs, cmp);
    }
}

# if !HAVE_CLOSEFROM
/* Close every descriptor from LOWFD up, as glibc's closefrom does: by
   close_range(2) where the kernel has it (Linux 5.9), else one by one
   below the descriptor limit.  */
#  define closefrom close_fds_from
static void
closefrom (int lowfd)
{
#  ifdef SYS_close_range
  if (syscall (SYS_close_range, (unsigned int) lowfd, ~0U, 0) == 0)
    return;
#  endif
  for (long fd = lowfd, max = sysconf (_SC_OPEN_MAX); fd < max; fd++)
    close ((int) fd);
}
# endif

int
main (int argc, char **argv)
{
  /* Calls of a foreign architecture run: their numbers mean other
     calls.  */
  scmp_filter_ctx ctx = seccomp_init (SCMP_ACT_ALLOW);
  if (!ctx
      || seccomp_attr_set (ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ALLOW) < 0)
    {
      fprintf (stderr, "failsys: seccomp_init failed\n");
      return 125;
    }

  int i = 1;
  for (; i < argc && strcmp (argv[i], "--") != 0; i++)
    parse_rule (ctx, argv[i]);
  if (i == 1 || argc <= i + 1)
    usage_error ("need RULE... -- PROGRAM", i < argc ? argv[i] : "");

  closefrom (3);

  /* libseccomp sets no_new_privs first: without it only a privileged
     process may install a filter; with it, anyone may, since the filter
     cannot then be used to fool a set-user-ID program.  */
  int err = seccomp_load (ctx);
  if (err < 0)
    {
      fprintf (stderr, "failsys: seccomp: %s\n", strerror (-err));
      return 77;
    }

  execvp (argv[i + 1], argv + i + 1);
  perror (argv[i + 1]);
  return 127;
}

#else /* !HAVE_LIBSECCOMP */

int
main (void)
{
  fprintf (stderr, "failsys: built without libseccomp\n");
  return 77;
}

#endif
