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
   "tee,splice:ENOSYS" (neither call exists).  SYSCALL is a name from the
   table below, ERRNO a name from the table below or a number, N counts
   the arguments from 0 as seccomp does, and VALUE is compared with the
   low 32 bits of the argument, which is all an int descriptor has.  A
   call that matches no rule runs.

   This models a sandbox or a kernel that refuses a call, every time: a
   seccomp filter is what such sandboxes use.  Faults on one call only
   need a counter, which a filter cannot keep; the tests use strace's
   --inject for those.

   Descriptors above 2 are closed first, so that the files PROGRAM opens
   get 3, 4, ... whatever the caller left open, and rules can name them.  */

#include <config.h>

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined __x86_64__ && !defined __ILP32__
# define NATIVE_ARCH AUDIT_ARCH_X86_64
#elif defined __i386__
# define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined __aarch64__
# define NATIVE_ARCH AUDIT_ARCH_AARCH64
#else
# define NATIVE_ARCH 0
#endif

/* Where the low half of a 64-bit argument lies in struct seccomp_data.  */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
# define ARG_LOW(n) (offsetof (struct seccomp_data, args) + 8 * (n) + 4)
#else
# define ARG_LOW(n) (offsetof (struct seccomp_data, args) + 8 * (n))
#endif

enum { MAX_RULES = 64, MAX_ARGS = 6 };

struct rule
{
  long nr;
  int errnum;
  int nargs;
  struct { int arg; unsigned int value; } args[MAX_ARGS];
};

static struct { char const *name; long nr; } const syscalls[] =
  {
    { "read", SYS_read }, { "write", SYS_write },
    { "readv", SYS_readv }, { "writev", SYS_writev },
    { "splice", SYS_splice }, { "tee", SYS_tee },
    { "vmsplice", SYS_vmsplice },
    { "pread64", SYS_pread64 }, { "copy_file_range", SYS_copy_file_range },
#ifdef SYS_sendfile64
    { "sendfile", SYS_sendfile64 },
#else
    { "sendfile", SYS_sendfile },
#endif
#ifdef SYS_poll
    { "poll", SYS_poll },
#endif
    { "ppoll", SYS_ppoll },
    { "fcntl", SYS_fcntl }, { "ioctl", SYS_ioctl },
    { "close", SYS_close }, { "openat", SYS_openat },
    { "pipe2", SYS_pipe2 },
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

static long
syscall_number (char const *name)
{
  for (size_t i = 0; i < sizeof syscalls / sizeof syscalls[0]; i++)
    if (strcmp (name, syscalls[i].name) == 0)
      return syscalls[i].nr;
  usage_error ("unknown system call", name);
}

static int
errno_number (char const *name)
{
  for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++)
    if (strcmp (name, errnos[i].name) == 0)
      return errnos[i].errnum;
  char *end;
  long n = strtol (name, &end, 10);
  if (!*name || *end || n <= 0 || SECCOMP_RET_DATA < n)
    usage_error ("unknown errno", name);
  return (int) n;
}

/* Parse "argN=VALUE" into rule R.  */
static void
parse_arg (struct rule *r, char const *spec)
{
  char *end;
  if (strncmp (spec, "arg", 3) != 0 || spec[3] < '0' || '5' < spec[3]
      || spec[4] != '=' || r->nargs == MAX_ARGS)
    usage_error ("bad argument condition", spec);
  errno = 0;
  unsigned long value = strtoul (spec + 5, &end, 0);
  if (!spec[5] || *end || errno || 0xffffffffUL < value)
    usage_error ("bad argument value", spec);
  r->args[r->nargs].arg = spec[3] - '0';
  r->args[r->nargs].value = (unsigned int) value;
  r->nargs++;
}

/* Parse SPEC into one rule per system call it names, appended to RULES,
   which holds *NRULES.  */
static void
parse_rule (char *spec, struct rule *rules, int *nrules)
{
  char *names = strtok (spec, ":");
  char *err = strtok (NULL, ":");
  if (!names || !err)
    usage_error ("bad rule", spec);
  struct rule proto = { .errnum = errno_number (err) };
  for (char *a; (a = strtok (NULL, ":")); )
    parse_arg (&proto, a);

  for (char *name = strtok (names, ","); name; name = strtok (NULL, ","))
    {
      if (*nrules == MAX_RULES)
        usage_error ("too many rules", name);
      rules[*nrules] = proto;
      rules[*nrules].nr = syscall_number (name);
      (*nrules)++;
    }
}

/* The filter: calls of a foreign architecture run (their numbers mean
   other calls), then each rule is a block that falls through to the next
   as soon as the number or an argument does not match.  */
static struct sock_filter *
build_filter (struct rule const *rules, int nrules, unsigned short *len)
{
  size_t max = 4 + (size_t) nrules * (3 + 2 * MAX_ARGS);
  struct sock_filter *f = calloc (max, sizeof *f);
  size_t n = 0;
  if (!f)
    {
      perror ("failsys");
      exit (125);
    }

  f[n++] = (struct sock_filter)
    BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, arch));
  f[n++] = (struct sock_filter)
    BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, NATIVE_ARCH, 1, 0);
  f[n++] = (struct sock_filter) BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  for (int i = 0; i < nrules; i++)
    {
      struct rule const *r = &rules[i];
      unsigned char block = (unsigned char) (3 + 2 * r->nargs);
      unsigned char at = 0;

      f[n++] = (struct sock_filter)
        BPF_STMT (BPF_LD | BPF_W | BPF_ABS, offsetof (struct seccomp_data, nr));
      at++;
      f[n++] = (struct sock_filter)
        BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, (unsigned int) r->nr,
                  0, (unsigned char) (block - at - 1));
      at++;
      for (int a = 0; a < r->nargs; a++)
        {
          f[n++] = (struct sock_filter)
            BPF_STMT (BPF_LD | BPF_W | BPF_ABS, ARG_LOW (r->args[a].arg));
          at++;
          f[n++] = (struct sock_filter)
            BPF_JUMP (BPF_JMP | BPF_JEQ | BPF_K, r->args[a].value,
                      0, (unsigned char) (block - at - 1));
          at++;
        }
      f[n++] = (struct sock_filter)
        BPF_STMT (BPF_RET | BPF_K,
                  SECCOMP_RET_ERRNO | ((unsigned int) r->errnum
                                       & SECCOMP_RET_DATA));
    }
  f[n++] = (struct sock_filter) BPF_STMT (BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

  *len = (unsigned short) n;
  return f;
}

int
main (int argc, char **argv)
{
  static struct rule rules[MAX_RULES];
  int nrules = 0;
  int i = 1;

  for (; i < argc && strcmp (argv[i], "--") != 0; i++)
    parse_rule (argv[i], rules, &nrules);
  if (nrules == 0 || argc <= i + 1)
    usage_error ("need RULE... -- PROGRAM", i < argc ? argv[i] : "");
  if (NATIVE_ARCH == 0)
    {
      fprintf (stderr, "failsys: unsupported architecture\n");
      return 77;
    }

  struct sock_fprog prog;
  prog.filter = build_filter (rules, nrules, &prog.len);

  closefrom (3);

  /* Without no_new_privs only a privileged process may install a filter;
     with it, anyone may, since the filter cannot then be used to fool a
     set-user-ID program.  */
  if (prctl (PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
      || prctl (PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
    {
      perror ("failsys: seccomp");
      return 77;
    }

  execvp (argv[i + 1], argv + i + 1);
  perror (argv[i + 1]);
  return 127;
}
