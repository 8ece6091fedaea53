/* copy-rw.c -- copy standard input to the outputs with read and write.
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

#include <config.h>

#include "engine.h"

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/param.h>

#include "iopoll.h"
#include "rounds.h"
#include "safe-read.h"
#include "xalloc.h"

/* Write the SIZE bytes at BUF to every live output, in order.  */

static void
write_outputs (struct outputs *outs, char const *buf, size_t size)
{
  for (size_t i = 0; i < outs->n; i++)
    {
      struct output *o = &outs->v[i];
      size_t done;
      if (0 <= o->fd && write_wait (o, buf, size, &done) != MOVE_DONE)
        output_fail (outs, o, errno);
    }
}

/* Read into BUF at most SIZE bytes of standard input, waiting while it
   is a non-blocking descriptor with nothing to read.  Return the count,
   0 at end of input, or SAFE_READ_ERROR with errno set.  */

static size_t
read_input (char *buf, size_t size)
{
  for (;;)
    {
      size_t n = safe_read (STDIN_FILENO, buf, size);
      if (! (n == SAFE_READ_ERROR && errno == EAGAIN))
        return n;
      if (! wait_ready (STDIN_FILENO, POLLIN))
        return SAFE_READ_ERROR;
    }
}

enum copy_result
copy_rw (struct outputs *outs, struct copy_plan const *plan,
         uintmax_t *taken, uintmax_t limit)
{
  size_t bufsize = plan->block ? plan->block : RW_BUFSIZE;
  enum copy_result result = COPY_DONE;
  char *buf = xmalloc (bufsize);

  while (outs->live)
    {
      enum input_wait w = INPUT_READY;
      if (plan->watch_outputs
          && (w = await_input (outs, plan->input_timeout)) == INPUT_NO_OUTPUT)
        break;

      /* Read GNU tee's blocks until a whole buffer's worth has come: an
         input that small then touches no more fresh memory than GNU tee,
         for each page costs a fault.  */
      size_t want = *taken < bufsize ? MIN (GNU_TEE_BLOCK, bufsize) : bufsize;
      want = room_limit (outs, want);
      size_t n = w == INPUT_READY ? read_input (buf, want) : SAFE_READ_ERROR;
      if (n == SAFE_READ_ERROR)
        {
          input_fail (outs, errno);
          result = COPY_FAILED;
          break;
        }
      if (n == 0)
        break;
      write_outputs (outs, buf, n);
      *taken += n;
      if (limit != RW_NO_LIMIT && limit <= *taken)
        {
          if (outs->live)
            result = COPY_PARTIAL;
          break;
        }
    }

  free (buf);
  return result;
}
