/* iopoll.h -- every wait of ktee: poll() for input, output and broken pipes.
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

#ifndef KTEE_IOPOLL_H
#define KTEE_IOPOLL_H

#include <stdbool.h>
#include <stddef.h>

#include "outputs.h"

int call_timeout (int fd, short events);
bool wait_ready (int fd, short events);
enum move_result write_wait (struct output const *o, void const *buf,
                             size_t size, size_t *done);
bool input_pollable (int fd);

/* What await_input found.  */
enum input_wait
  {
    INPUT_READY,        /* Standard input can be read.  */
    INPUT_NO_OUTPUT,    /* Every output has gone.  */
    INPUT_TIMED_OUT     /* A read would have failed with EAGAIN.  */
  };
enum input_wait await_input (struct outputs *outs, int timeout);
struct output *broken_pipe_output (struct outputs *outs);

#endif
